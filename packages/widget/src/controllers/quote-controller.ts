/**
 * Live quotes: typing debounced, stale requests aborted, only the latest answer kept, refreshed while the tab
 * is visible. A request may be sent ahead of the catalog (`early`): its answer is kept quiet until `set` is
 * called again with the same request, and dropped if the request turns out to be another.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ApiError, getQuote, isAbort } from '../api/client.ts';
import type { Quote, QuoteBody, Side } from '../api/types.ts';

export interface QuoteRequest {
  api: string;
  side: Side;
  body: QuoteBody;
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

  private request?: QuoteRequest;
  private key = '';
  /** The request was sent before the catalog: its answer is neither announced nor shown yet. */
  private early = false;
  private abort?: AbortController;
  private debounce?: ReturnType<typeof setTimeout>;
  private refresh?: ReturnType<typeof setTimeout>;
  private tick?: ReturnType<typeof setInterval>;

  constructor(
    private host: ReactiveControllerHost,
    private onQuote: (quote: Quote) => void,
    private onError: (error: ApiError) => void,
    private debounceMs = DEBOUNCE_MS,
  ) {
    host.addController(this);
  }

  /**
   * Asks for a quote for `request`: after a pause in typing when `typed`, else at once. `early`: sent ahead of
   * the catalog, announced only when confirmed by the same request. `undefined` drops the quote and cancels.
   */
  set(request: QuoteRequest | undefined, typed = false, early = false): void {
    const key = request ? JSON.stringify(request) : '';
    if (key === this.key) {
      if (this.early && !early) {
        this.early = false;
        this.announce();
      }
      return;
    }
    this.key = key;
    this.request = request;
    this.early = early;
    this.cancel();
    this.quote = undefined;
    this.error = undefined;
    this.pending = !!request;
    if (request && typed) this.debounce = setTimeout(() => this.fetch(), this.debounceMs);
    else if (request) this.fetch();
    this.host.requestUpdate();
  }

  /** Fetches again now (the retry button). */
  retry(): void {
    this.cancel();
    this.fetch();
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onVisibility);
    this.tick = setInterval(() => this.quote && !document.hidden && this.host.requestUpdate(), 1000);
    if (this.request && !this.quote) this.fetch();
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onVisibility);
    clearInterval(this.tick);
    this.cancel();
  }

  /** Tells the host of the answer, unless it is for an early request not confirmed yet (then on confirmation). */
  private announce(): void {
    if (this.early) return;
    if (this.quote) this.onQuote(this.quote);
    else if (this.error) this.onError(this.error);
  }

  private cancel(): void {
    clearTimeout(this.debounce);
    clearTimeout(this.refresh);
    this.abort?.abort();
    this.abort = undefined;
  }

  private onVisibility = (): void => {
    if (document.hidden) {
      clearTimeout(this.refresh);
      this.abort?.abort();
    } else if (this.request) {
      const expires = this.quote ? Date.parse(this.quote.expiresAt) : 0;
      if (!(expires > Date.now())) this.fetch();
      else this.schedule(expires - Date.now());
    }
  };

  private schedule(ms: number): void {
    clearTimeout(this.refresh);
    this.refresh = setTimeout(() => this.fetch(), Math.max(5000, ms));
  }

  private async fetch(): Promise<void> {
    const request = this.request;
    if (!request || globalThis.document?.hidden) return;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.pending = true;
    this.host.requestUpdate();
    try {
      const quote = await getQuote(request.api, request.side, request.body, abort.signal);
      if (abort !== this.abort) return;
      this.quote = quote;
      this.error = undefined;
      this.receivedAt = Date.now();
      const expires = Date.parse(quote.expiresAt) - Date.now();
      this.schedule(Number.isFinite(expires) ? expires : REFRESH_MS);
      this.announce();
    } catch (e) {
      if (abort !== this.abort || isAbort(e)) return;
      this.quote = undefined;
      this.error = e instanceof ApiError ? e : new ApiError('INTERNAL', String(e));
      this.announce();
    } finally {
      if (abort === this.abort) {
        this.pending = false;
        this.abort = undefined;
        this.host.requestUpdate();
      }
    }
  }
}
