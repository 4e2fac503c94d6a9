/** Injected time, so tests can fix it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
