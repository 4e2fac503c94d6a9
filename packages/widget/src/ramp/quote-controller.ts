/**
 * Live quotes: typing debounced, stale requests aborted, only the latest answer kept, refreshed while the tab
 * is visible. A request may be sent ahead of the catalog (`early`): its answer is kept quiet until `set` is
 * called again with the same request, and dropped if the request turns out to be another.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type ApiError, getQuote, isAbort, toApiError } from '../api/client.ts';
import type { Quote, QuoteBody, Side } from '../api/types.ts';
import type { HeadStart } from '../controllers/head-start.ts';

export interface QuoteRequest {
  api: string;
  side: Side;
  body: QuoteBody;
}

/** Whether `head` asked what `request` asks (the same amount however it is written). */
function isHeadStartOf(head: HeadStart, request: QuoteRequest): boolean {
  const a = head.body as Record<string, string | undefined>;
  const b = request.body as Record<string, string | undefined>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) =>
    key === 'fiatAmount' ? Number(a[key]) === Number(b[key]) : a[key] === b[key],
  );
}

const DEBOUNCE_MS = 300;
const REFRESH_MS = 30_000;

export class QuoteController implements ReactiveController {
  /** The latest answer, for the latest request only. */
  quote?: Quote;
  error?: ApiError;
  pending = false;
  /** When `quote` arrived (ms since epoch), for "updated 5 s ago". */
  receivedAt = 0;

  private _request?: QuoteRequest;
  private _key = '';
  /** The request was sent before the catalog: its answer is neither announced nor shown yet. */
  private _early = false;
  private _abort?: AbortController;
  private _debounce?: ReturnType<typeof setTimeout>;
  private _refresh?: ReturnType<typeof setTimeout>;
  private _tick?: ReturnType<typeof setInterval>;

  constructor(
    private _host: ReactiveControllerHost,
    private _onQuote: (quote: Quote) => void,
    private _onError: (error: ApiError) => void,
    private _debounceMs = DEBOUNCE_MS,
    /** The element's own first request (head-start.ts), answered for the first fetch if it is the same. */
    private _head?: HeadStart,
  ) {
    _host.addController(this);
  }

  /**
   * Asks for a quote for `request`: after a pause in typing when `typed`, else at once. `early`: sent ahead of
   * the catalog, announced only when confirmed by the same request. `undefined` drops the quote and cancels.
   */
  set(request: QuoteRequest | undefined, typed = false, early = false): void {
    const key = request ? JSON.stringify(request) : '';
    if (key === this._key) {
      if (this._early && !early) {
        this._early = false;
        this._announce();
      }
      return;
    }
    this._key = key;
    this._request = request;
    this._early = early;
    this._cancel();
    this.quote = undefined;
    this.error = undefined;
    this.pending = !!request;
    if (request && typed) this._debounce = setTimeout(() => this._fetch(), this._debounceMs);
    else if (request) this._fetch();
    this._host.requestUpdate();
  }

  /** Fetches again now (the retry button). */
  retry(): void {
    this._cancel();
    this._fetch();
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this._onVisibility);
    window.addEventListener('online', this._onOnline);
    this._tick = setInterval(() => this.quote && !document.hidden && this._host.requestUpdate(), 1000);
    if (this._request && !this.quote) this._fetch();
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this._onVisibility);
    window.removeEventListener('online', this._onOnline);
    clearInterval(this._tick);
    this._cancel();
  }

  /** Tells the host of the answer, unless it is for an early request not confirmed yet (then on confirmation). */
  private _announce(): void {
    if (this._early) return;
    if (this.quote) this._onQuote(this.quote);
    else if (this.error) this._onError(this.error);
  }

  private _cancel(): void {
    clearTimeout(this._debounce);
    clearTimeout(this._refresh);
    this._abort?.abort();
    this._abort = undefined;
  }

  private _onVisibility = (): void => {
    if (document.hidden) {
      clearTimeout(this._refresh);
      this._abort?.abort();
    } else if (this._request) {
      const expires = this.quote ? Date.parse(this.quote.expiresAt) : 0;
      if (!(expires > Date.now())) this._fetch();
      else this._schedule(expires - Date.now());
    }
  };

  /** The connection is back: a request that failed (or was never answered) is sent again by itself. */
  private _onOnline = (): void => {
    if (this._request && !this.quote) this.retry();
  };

  private _schedule(ms: number): void {
    clearTimeout(this._refresh);
    this._refresh = setTimeout(() => this._fetch(), Math.max(5000, ms));
  }

  private async _fetch(): Promise<void> {
    const request = this._request;
    if (!request || globalThis.document?.hidden) return;
    this._abort?.abort();
    const abort = new AbortController();
    this._abort = abort;
    this.pending = true;
    this._host.requestUpdate();
    try {
      const head = this._head;
      this._head = undefined;
      const quote = await (head && isHeadStartOf(head, request)
        ? head.answer
        : getQuote(request.api, request.side, request.body, abort.signal));
      if (abort !== this._abort) return;
      this.quote = quote;
      this.error = undefined;
      this.receivedAt = Date.now();
      const expires = Date.parse(quote.expiresAt) - Date.now();
      this._schedule(Number.isFinite(expires) ? expires : REFRESH_MS);
      this._announce();
    } catch (e) {
      if (abort !== this._abort || isAbort(e)) return;
      this.quote = undefined;
      this.error = toApiError(e);
      this._announce();
    } finally {
      if (abort === this._abort) {
        this.pending = false;
        this._abort = undefined;
        this._host.requestUpdate();
      }
    }
  }
}
