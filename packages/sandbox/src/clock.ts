/** The sandbox's clock: real time by default; tests and demos can pin it or shift it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that follows the system clock until it is set, then stays pinned (or shifted) where it was put. */
export class SettableClock implements Clock {
  #fixed: number | undefined;
  #offset = 0;

  constructor(private readonly base: Clock = systemClock) {}

  now(): number {
    return this.#fixed ?? this.base.now() + this.#offset;
  }

  /** Pins the clock at `ms` (epoch milliseconds). */
  set(ms: number): void {
    this.#fixed = ms;
  }

  /** Moves the clock forward (pinned or not). */
  advance(ms: number): void {
    if (this.#fixed !== undefined) this.#fixed += ms;
    else this.#offset += ms;
  }

  /** Back to real time. */
  reset(): void {
    this.#fixed = undefined;
    this.#offset = 0;
  }

  get pinned(): boolean {
    return this.#fixed !== undefined;
  }
}
