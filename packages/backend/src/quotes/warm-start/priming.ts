/**
 * Priming: the busiest combinations quoted once, through the whole pricing pipeline, before the instance says it
 * is ready, so its first shoppers find a reference (and a warmed-up pipeline) instead of queueing behind the
 * upstream. Each prime is a shopper's quote (`pricing.quote`), so it is checked, limited and learnt like one.
 *
 * Within the upstream budget: a prime counts against PRIME_SHARE of it from its start until one window after it
 * ends (as the budget holds its tokens), at CALLS_PER_PRIME calls each, so priming's calls in any second stay within
 * that share; and none starts while shoppers' calls wait for the budget. Priming stops at PRIME_MAX_MS, primed or not.
 */
import type { Clock } from '../../clock.ts';
import type { BudgetStats } from '../../upstream/budget.ts';
import type { Side } from '../fee-model/derive.ts';
import type { QuoteQuestion } from '../pricing.ts';

/** The share of the upstream budget priming may hold. */
export const PRIME_SHARE = 0.5;
/** Upstream calls one prime may make: its pricing call and, for a total typed, the check of it. */
export const CALLS_PER_PRIME = 2;
/** Priming gives up after this long (the instance is then ready with what it primed). */
export const PRIME_MAX_MS = 10_000;
const WINDOW_MS = 1000;
const POLL_MS = 10;

export interface PrimeTarget extends QuoteQuestion {
  side: Side;
}

export interface PrimeOutcome {
  tried: number;
  primed: number;
  ms: number;
  /** Upstream calls granted by the budget while priming ran. */
  calls: number;
  timedOut: boolean;
}

export interface PrimingDeps {
  quote(side: Side, question: QuoteQuestion): Promise<unknown>;
  budget: { readonly perSecond: number; stats(): Pick<BudgetStats, 'granted' | 'queued'> };
  clock: Clock;
  share?: number;
  maxMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref?.());

export async function prime(targets: readonly PrimeTarget[], deps: PrimingDeps): Promise<PrimeOutcome> {
  const { budget, clock } = deps;
  const started = clock.now();
  const grantedBefore = budget.stats().granted;
  const limit = Math.max(CALLS_PER_PRIME, Math.floor(budget.perSecond * (deps.share ?? PRIME_SHARE)));
  const deadline = started + (deps.maxMs ?? PRIME_MAX_MS);
  /** Primes holding a share: in flight (Infinity), or ended less than a window ago (their end). */
  const held: number[] = [];
  const holding = (now: number) => held.filter((end) => now - end < WINDOW_MS).length;
  const running: Promise<void>[] = [];
  let primed = 0;
  let settled = 0;
  let tried = 0;
  let timedOut = false;

  for (const target of targets) {
    // Room: priming's share not taken, and no shopper waiting for the budget.
    while ((holding(clock.now()) + 1) * CALLS_PER_PRIME > limit || budget.stats().queued > 0) {
      if (clock.now() >= deadline) break;
      await pause(POLL_MS);
    }
    if (clock.now() >= deadline) {
      timedOut = true;
      break;
    }
    tried += 1;
    const slot = held.push(Number.POSITIVE_INFINITY) - 1;
    const { side, ...question } = target;
    running.push(
      deps
        .quote(side, question)
        .then(
          () => {
            primed += 1;
          },
          // A combination the upstream refuses or cannot price now is simply not primed.
          () => undefined,
        )
        .finally(() => {
          held[slot] = clock.now();
          settled += 1;
        }),
    );
  }
  const left = Math.max(0, deadline - clock.now());
  await Promise.race([Promise.all(running), pause(left)]);
  return {
    tried,
    primed,
    ms: clock.now() - started,
    calls: budget.stats().granted - grantedBefore,
    timedOut: timedOut || settled < running.length,
  };
}
