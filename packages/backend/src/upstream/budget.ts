/**
 * The upstream budget: at most `perSecond` upstream calls in any one-second window for this process, a short
 * bounded queue when it is spent, and `UPSTREAM_BUSY` (503 + Retry-After) beyond that, so the upstream (100
 * requests per second per merchant) never has to throttle us.
 *
 * The upstream counts calls when they ARRIVE, and we cannot see arrivals, only when we send a call and when
 * its answer comes back. So a token is held from the grant until the call FINISHES, and comes back one window
 * after that. A call arrives somewhere between its grant and its finish; the next call on the same token is
 * granted at least one window after that finish, so it arrives more than one window after the first, whatever
 * the latencies. Any `perSecond + 1` arrivals within one window would need two of them on one token; hence no
 * window of arrivals ever holds more than `perSecond`.
 *
 * (Giving tokens back one window after the GRANT, as a sliding-window log usually does, is not enough: the
 * previous burst's calls reach the upstream spread over tens of ms, while the next burst is granted exactly one
 * window after the previous grants, so one upstream window can see nearly two budgets.)
 */
import { AppError } from '../errors.ts';

export interface BudgetOptions {
  /** Calls allowed in any window (default window: one second). */
  perSecond: number;
  windowMs?: number;
  /** How long a call may wait for a token before it is refused (default 1 s). */
  maxWaitMs?: number;
  /** How many calls may wait at once (default and at most: one window's worth). */
  maxQueue?: number;
  /** Milliseconds on any monotonic scale (default `performance.now()`). */
  now?: () => number;
  /** Test seam: schedules `callback` after `ms` and returns a cancel function (default: `setTimeout`). */
  setTimer?: (callback: () => void, ms: number) => () => void;
}

export interface BudgetStats {
  perSecond: number;
  /** Calls let through since start. */
  granted: number;
  /** Calls refused with UPSTREAM_BUSY since start. */
  refused: number;
  /** Calls that had to wait for a token. */
  waited: number;
  /** Calls waiting right now. */
  queued: number;
  /** Calls upstream right now (granted, not finished). */
  inFlight: number;
  /** Tokens held right now: calls in flight, plus calls that finished less than one window ago. */
  inWindow: number;
  /**
   * The most tokens ever held at once (`inWindow` at its peak): calls in flight or finished within the last
   * window. Never above `perSecond`; an upper bound on the upstream's arrivals in any one window.
   */
  maxInWindow: number;
  /** Times the upstream itself answered 429 (should stay 0). */
  throttledByUpstream: number;
}

/** Gives the token back; call it once the call has finished (answered, failed or timed out). Idempotent. */
export type Release = () => void;

/** What the upstream clients need of a budget: this process's (below) or the one shared through Redis. */
export interface Budget {
  readonly perSecond: number;
  acquire(signal?: AbortSignal): Promise<Release>;
  noteThrottled(): void;
  stats(): BudgetStats;
  close(): void;
}

interface Waiter {
  resolve: (release: Release) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** A held token: `end` is when its call finished, or infinity while it is in flight. */
interface Entry {
  end: number;
}

const defaultSetTimer = (callback: () => void, ms: number) => {
  const handle = setTimeout(callback, ms);
  return () => clearTimeout(handle);
};

export class UpstreamBudget implements Budget {
  readonly perSecond: number;
  readonly #windowMs: number;
  readonly #maxWaitMs: number;
  readonly #maxQueue: number;
  readonly #now: () => number;
  readonly #setTimer: (callback: () => void, ms: number) => () => void;
  /** Tokens held: in flight, or finished less than a window ago. Never longer than `perSecond`. */
  #log: Entry[] = [];
  #queue: Waiter[] = [];
  #cancelTimer: (() => void) | undefined;
  #stats = { granted: 0, refused: 0, waited: 0, maxInWindow: 0, throttledByUpstream: 0 };

  constructor(options: BudgetOptions) {
    this.perSecond = options.perSecond;
    this.#windowMs = options.windowMs ?? 1000;
    this.#maxWaitMs = options.maxWaitMs ?? 1000;
    this.#maxQueue = Math.min(options.maxQueue ?? options.perSecond, options.perSecond);
    // Monotonic and sub-millisecond: a wall clock stepping back would hand a token out early.
    this.#now = options.now ?? (() => performance.now());
    this.#setTimer = options.setTimer ?? defaultSetTimer;
  }

  /**
   * Resolves with the call's `release` when it may go upstream; rejects with UPSTREAM_BUSY when no token can be
   * promised within the wait bound. The caller must call `release` once the call has finished.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    const now = this.#now();
    this.#trim(now);
    if (this.#queue.length === 0 && this.#log.length < this.perSecond) return Promise.resolve(this.#grant());
    const freesAt = this.#freesAt(this.#queue.length, now);
    if (this.#queue.length >= this.#maxQueue || freesAt === undefined || freesAt - now > this.#maxWaitMs) {
      this.#stats.refused += 1;
      return Promise.reject(this.#busy((freesAt ?? now + this.#windowMs) - now));
    }
    this.#stats.waited += 1;
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#queue = this.#queue.filter((entry) => entry !== waiter);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#schedule();
    });
  }

  /** Records that the upstream answered 429 anyway (another process on the same key, a lower real limit). */
  noteThrottled(): void {
    this.#stats.throttledByUpstream += 1;
  }

  stats(): BudgetStats {
    this.#trim(this.#now());
    return {
      perSecond: this.perSecond,
      ...this.#stats,
      queued: this.#queue.length,
      inFlight: this.#log.filter((entry) => entry.end === Number.POSITIVE_INFINITY).length,
      inWindow: this.#log.length,
    };
  }

  /** Refuses everyone still waiting (shutdown). */
  close(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    for (const waiter of this.#queue.splice(0)) waiter.reject(this.#busy(this.#windowMs));
  }

  /**
   * When the waiter at `position` will get a token: free slots go first, then the tokens of finished calls in
   * the order they come back. A token still in flight comes back at an unknown time, more than one window from
   * now, so no wait is promised on it: undefined (refuse now rather than keep a shopper waiting for nothing).
   */
  #freesAt(position: number, now: number): number | undefined {
    const free = this.perSecond - this.#log.length;
    if (position < free) return now;
    const returns = this.#log
      .filter((entry) => entry.end !== Number.POSITIVE_INFINITY)
      .map((entry) => entry.end + this.#windowMs)
      .sort((a, b) => a - b);
    return returns[position - free];
  }

  #busy(waitMs: number): AppError {
    return new AppError(
      'UPSTREAM_BUSY',
      'Too many requests to the payment provider right now; try again shortly.',
      {
        retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
      },
    );
  }

  #grant(): Release {
    const entry: Entry = { end: Number.POSITIVE_INFINITY };
    this.#log.push(entry);
    this.#stats.granted += 1;
    this.#stats.maxInWindow = Math.max(this.#stats.maxInWindow, this.#log.length);
    return () => {
      if (entry.end !== Number.POSITIVE_INFINITY) return;
      entry.end = this.#now();
      // The token is back one window from now: the queue needs a timer for it if none is set.
      this.#schedule();
    };
  }

  /** Drops the tokens whose call finished at least one window ago. In-flight ones (end = ∞) always stay. */
  #trim(now: number): void {
    if (this.#log.some((entry) => entry.end + this.#windowMs <= now)) {
      this.#log = this.#log.filter((entry) => entry.end + this.#windowMs > now);
    }
  }

  /** Wakes the queue when the earliest finished token comes back. With every token in flight, a release will. */
  #schedule(): void {
    if (this.#cancelTimer || this.#queue.length === 0) return;
    const now = this.#now();
    const next = this.#freesAt(0, now);
    if (next === undefined) return;
    this.#cancelTimer = this.#setTimer(() => this.#drain(), Math.max(0, next - now));
  }

  #drain(): void {
    this.#cancelTimer = undefined;
    this.#trim(this.#now());
    while (this.#queue.length && this.#log.length < this.perSecond) {
      const waiter = this.#queue.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.#grant());
    }
    this.#schedule();
  }
}
