/**
 * The sandbox's clock: real time by default; tests and demos can pin it or shift it, and what waits on it (a
 * fault's latency) waits on sandbox time, so a test can hold an answer and release it to the millisecond.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Something waiting for the sandbox clock to reach `until`, as `GET /control/pending` lists it. */
export interface ClockWait {
  /** What waits, e.g. `latency GET /ramp/api/v1/merchant/pricing`. */
  what: string;
  /** Sandbox time (epoch milliseconds) at which it goes on. */
  until: number;
}

interface Sleeper extends ClockWait {
  wake(): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A clock that follows the system clock until it is set, then stays pinned (or shifted) where it was put. */
export class SettableClock implements Clock {
  #fixed: number | undefined;
  #offset = 0;
  #advanced = 0;
  readonly #sleepers = new Set<Sleeper>();

  constructor(
    private readonly base: Clock = systemClock,
    private readonly elapsed: () => number = () => performance.now(),
  ) {}

  now(): number {
    return this.#fixed ?? this.base.now() + this.#offset;
  }

  /**
   * Milliseconds that never go back and that pinning does not stop: real elapsed time plus every `advance()`.
   * For windows that must keep moving while the clock is pinned (the ramp's rate limit), yet jump with it.
   */
  monotonic(): number {
    return this.elapsed() + this.#advanced;
  }

  /**
   * Resolves once the sandbox clock has reached now + `ms`: after `ms` of real time while the clock runs free;
   * when it is pinned, once `advance()` or `set()` moves it there. `reset()` (back to real time) lets every
   * sleeper go on at once, so nothing waits on a time the clock has left behind.
   */
  sleep(ms: number, what: string): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = { what, until: this.now() + ms, wake: resolve, timer: undefined };
      this.#sleepers.add(sleeper);
      this.#check(sleeper);
    });
  }

  /** What is sleeping on this clock now, soonest first. */
  waiting(): ClockWait[] {
    return [...this.#sleepers].map(({ what, until }) => ({ what, until })).sort((a, b) => a.until - b.until);
  }

  /** Pins the clock at `ms` (epoch milliseconds). */
  set(ms: number): void {
    this.#fixed = ms;
    this.#checkAll();
  }

  /** Moves the clock forward (pinned or not). */
  advance(ms: number): void {
    if (this.#fixed !== undefined) this.#fixed += ms;
    else this.#offset += ms;
    this.#advanced += ms;
    this.#checkAll();
  }

  /** Back to real time. */
  reset(): void {
    this.#fixed = undefined;
    this.#offset = 0;
    for (const sleeper of this.#sleepers) this.#wake(sleeper);
  }

  get pinned(): boolean {
    return this.#fixed !== undefined;
  }

  #wake(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    this.#sleepers.delete(sleeper);
    sleeper.wake();
  }

  /** Wakes the sleeper if its time has come; otherwise, while the clock runs free, looks again when it should. */
  #check(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    sleeper.timer = undefined;
    const left = sleeper.until - this.now();
    if (left <= 0) this.#wake(sleeper);
    else if (!this.pinned) sleeper.timer = setTimeout(() => this.#check(sleeper), left);
  }

  #checkAll(): void {
    for (const sleeper of [...this.#sleepers]) this.#check(sleeper);
  }
}
