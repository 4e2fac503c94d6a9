/**
 * The ramp catalog (countries, currencies, cryptos, methods, chains) for the country the shopper wants, as a
 * `@lit/task`: a new country aborts the old request and only the latest answer settles. It remembers which
 * country each catalog was asked for, so a view can tell, from the very update in which the shopper picks
 * another country, that the catalog it holds is the previous one's (`isStale`), before the new request is
 * even sent. A catalog that failed is asked again by itself when the connection comes back (`online`).
 * A country the backend refuses (`country="zzz"`: not a country code) is no dead end: the shopper's own catalog
 * (the backend guesses the country from their address) comes back under the refused code, so the view says that
 * country is unknown and offers the nearest served one, as for a country the ramp does not serve.
 */
import { Task, TaskStatus } from '@lit/task';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { getCatalog, toApiError } from '../api/client.ts';
import type { Catalog } from '../api/types.ts';

export interface CatalogArgs {
  api: string;
  /** '' lets the backend guess from the shopper's address. */
  country: string;
  /** Whether a catalog is wanted at all (not in pay mode). */
  wanted: boolean;
  /** A new mode reloads the catalog (and announces it again). */
  mode: string;
}

interface Loaded {
  catalog: Catalog;
  asked: string;
  /** The backend refused the country asked for: `catalog` is the one it guessed, under the asked code. */
  refused: boolean;
}

export class CatalogController implements ReactiveController {
  private _task: Task<[string, string, boolean, string], Loaded | undefined>;

  constructor(
    host: ReactiveControllerHost,
    private _args: () => CatalogArgs,
    onReady: (catalog: Catalog) => void,
    onError: (e: unknown) => void,
  ) {
    this._task = new Task(host, {
      task: async ([api, country, wanted], { signal }) => {
        if (!wanted) return undefined;
        try {
          return { catalog: await getCatalog(api, country, signal), asked: country, refused: false };
        } catch (e) {
          if (!country || toApiError(e).code !== 'VALIDATION_FAILED') throw e;
          // The page learns its attribute was refused; the shopper gets a catalog and a way on.
          onError(e);
          const guessed = await getCatalog(api, '', signal);
          return { catalog: { ...guessed, country }, asked: country, refused: true };
        }
      },
      args: () => {
        const a = this._args();
        return [a.api, a.country, a.wanted, a.mode];
      },
      onComplete: (loaded) => {
        if (loaded) onReady(loaded.catalog);
      },
      onError,
    });
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('online', this._onOnline);
  }

  hostDisconnected(): void {
    window.removeEventListener('online', this._onOnline);
  }

  /** The connection is back: the catalog that failed (the shopper sees "No connection") is asked again. */
  private _onOnline = (): void => {
    if (this._task.status === TaskStatus.ERROR) this.run();
  };

  /** The latest catalog, kept while another loads. */
  get value(): Catalog | undefined {
    return this._task.value?.catalog;
  }

  get status(): TaskStatus {
    return this._task.status;
  }

  get error(): unknown {
    return this._task.error;
  }

  /** Whether the backend refused the country of the catalog held (not a country it knows). */
  get refused(): boolean {
    return !!this._task.value?.refused;
  }

  /** A catalog is a read: trying again is always safe, whatever the error said. */
  readonly alwaysRetry = true;

  run(): Promise<void> {
    return this._task.run();
  }

  /**
   * True while the catalog held was asked for another country than the one wanted now: a view shows the
   * shopper's pick and sends no quote for the old country (that read "United States" after a click on "United
   * Kingdom" until the new catalog arrived).
   */
  get isStale(): boolean {
    const loaded = this._task.value;
    return !!loaded && loaded.asked !== this._args().country;
  }
}
