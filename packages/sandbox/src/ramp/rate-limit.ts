/** A sliding one-second window per bucket (merchant id or "anonymous"), as the ramp API's 100 req/s limit. */

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 1000;

export class RateLimiter {
  readonly #hits = new Map<string, number[]>();

  /**
   * `limit` is read on every hit so a settings change applies at once. `now` must keep moving while the sandbox
   * clock is pinned, or one window would last forever: the app passes the clock's monotonic reading (real time
   * plus every advance, so advancing the clock by a second also opens a new window).
   */
  constructor(
    private readonly limit: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  hit(bucket: string): RateDecision {
    const now = this.now();
    const recent = (this.#hits.get(bucket) ?? []).filter((at) => now - at < WINDOW_MS);
    if (recent.length >= this.limit()) {
      this.#hits.set(bucket, recent);
      const oldest = recent[0] ?? now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    recent.push(now);
    this.#hits.set(bucket, recent);
    return { allowed: true };
  }

  clear(): void {
    this.#hits.clear();
  }
}
