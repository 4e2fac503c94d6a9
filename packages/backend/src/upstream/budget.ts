/**
 * The upstream budget: at most `perSecond` upstream calls in any one-second window for this process, a short
 * bounded queue when it is spent, and `UPSTREAM_BUSY` (503 + Retry-After) beyond that, so the upstream (100
 * requests per second per merchant) never has to throttle us.
 *
 * It is a token bucket whose tokens come back exactly one window after they were spent (a sliding-window
 * log). A classic bucket refilling continuously with a burst of `perSecond` would let up to twice the budget
 * through in one second (a full bucket, then the refill), which is what the upstream counts.
 */
import { AppError } from '../errors.ts';

export interface BudgetOptions {
  /** Calls allowed in any window (default window: one second). */
  perSecond: number;
  windowMs?: number;
  /** How long a call may wait for a token before it is refused (default 1 s). */
  maxWaitMs?: number;
  /** How many calls may wait at once (default: one window's worth). */
  maxQueue?: number;
  now?: () => number;
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
  /** Calls let through in the current window. */
  inWindow: number;
  /** The most calls let through in any one window since start (never above `perSecond`). */
  maxInWindow: number;
  /** Times the upstream itself answered 429 (should stay 0). */
  throttledByUpstream: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class UpstreamBudget {
  readonly perSecond: number;
  readonly #windowMs: number;
  readonly #maxWaitMs: number;
  readonly #maxQueue: number;
  readonly #now: () => number;
  /** Grant times within the current window, oldest first. */
  #log: number[] = [];
  #queue: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stats = { granted: 0, refused: 0, waited: 0, maxInWindow: 0, throttledByUpstream: 0 };

  constructor(options: BudgetOptions) {
    this.perSecond = options.perSecond;
    this.#windowMs = options.windowMs ?? 1000;
    this.#maxWaitMs = options.maxWaitMs ?? 1000;
    this.#maxQueue = Math.min(options.maxQueue ?? options.perSecond, options.perSecond);
    this.#now = options.now ?? Date.now;
  }

  /** Resolves when a call may go upstream; throws UPSTREAM_BUSY when none can within the wait bound. */
  acquire(signal?: AbortSignal): Promise<void> {
    const now = this.#now();
    this.#trim(now);
    if (this.#queue.length === 0 && this.#log.length < this.perSecond) {
      this.#grant(now);
      return Promise.resolve();
    }
    // The token this caller would get: the one spent (perSecond - queued) grants ago comes back first.
    // maxQueue <= perSecond keeps that index inside the log.
    const position = this.#queue.length;
    const freesAt = (this.#log[this.#log.length - this.perSecond + position] ?? now) + this.#windowMs;
    if (position >= this.#maxQueue || freesAt - now > this.#maxWaitMs) {
      this.#stats.refused += 1;
      return Promise.reject(this.#busy(freesAt - now));
    }
    this.#stats.waited += 1;
    return new Promise<void>((resolve, reject) => {
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
      inWindow: this.#log.length,
    };
  }

  /** Refuses everyone still waiting (shutdown). */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const waiter of this.#queue.splice(0)) waiter.reject(this.#busy(1000));
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

  #grant(now: number): void {
    this.#log.push(now);
    this.#stats.granted += 1;
    this.#stats.maxInWindow = Math.max(this.#stats.maxInWindow, this.#log.length);
  }

  #trim(now: number): void {
    let drop = 0;
    while (drop < this.#log.length && (this.#log[drop] as number) <= now - this.#windowMs) drop += 1;
    if (drop) this.#log.splice(0, drop);
  }

  #schedule(): void {
    if (this.#timer || this.#queue.length === 0) return;
    const oldest = this.#log[0];
    const delay = oldest === undefined ? 0 : Math.max(0, oldest + this.#windowMs - this.#now());
    // +1 ms: a token spent at t is back strictly after t + window (see #trim).
    this.#timer = setTimeout(() => this.#drain(), delay + 1);
  }

  #drain(): void {
    this.#timer = undefined;
    const now = this.#now();
    this.#trim(now);
    while (this.#queue.length && this.#log.length < this.perSecond) {
      const waiter = this.#queue.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#grant(now);
      waiter.resolve();
    }
    this.#schedule();
  }
}

export function createUpstreamBudget(options: BudgetOptions): UpstreamBudget {
  return new UpstreamBudget(options);
}
