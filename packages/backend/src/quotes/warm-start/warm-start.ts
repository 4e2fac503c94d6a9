/**
 * Warm before ready: what a fresh instance does before `/readyz` says it is ready (checks/readiness.ts
 * `warmStart`), so its first shoppers are answered like a warm instance's.
 *
 * 1. The catalog's lists are read (with REDIS_URL, from what another instance read: upstream/ramp-client.ts keeps
 *    them in Redis as long as they are fresh).
 * 2. With REDIS_URL: the references the other instances learnt (shared-references.ts) are adopted by the engine:
 *    each combination's latest upstream answers, its fee corrections and their age, with no upstream call; from
 *    then on this instance shares what it learns too.
 * 3. Alone, or Redis holding nothing: the busiest combinations (targets.ts) are primed (priming.ts), within a
 *    share of the upstream budget, for at most PRIME_MAX_MS.
 * One log line says what it did: how many combinations, how long, the upstream calls spent.
 */
import type { Clock } from '../../clock.ts';
import type { SharedState } from '../../shared/redis.ts';
import type { BudgetStats } from '../../upstream/budget.ts';
import type { RampClient } from '../../upstream/ramp-client.ts';
import type { QuoteEngine } from '../engine/types.ts';
import type { Side } from '../fee-model/derive.ts';
import type { FxRates } from '../fx.ts';
import type { QuoteQuestion } from '../pricing.ts';
import { type PrimeOutcome, prime } from './priming.ts';
import { createSharedReferences, type SharedReferences } from './shared-references.ts';
import {
  busiestNow,
  catalogTargets,
  MAX_PRIMED,
  popularityFile,
  RECORD_EVERY_MS,
  recordedTargets,
  recordPopularity,
} from './targets.ts';

export interface WarmStartDeps {
  engine: QuoteEngine;
  pricing: { quote(side: Side, question: QuoteQuestion): Promise<unknown> };
  ramp: Pick<RampClient, 'supported' | 'paymentMethods' | 'payoutMethods'>;
  fx: Pick<FxRates, 'fx' | 'priced'>;
  budget: { readonly perSecond: number; stats(): Pick<BudgetStats, 'granted' | 'queued'> };
  clock: Clock;
  shared: SharedState | undefined;
  markup: number;
  defaultCountry: string;
  /** How long a reference may still price (QUOTE_DERIVE_MAX_STALE_MS): how long a shared one is kept. */
  keepMs: number;
  /** Where the busiest combinations are recorded between runs (SQLite's DATA_DIR); undefined: not recorded. */
  dataDir: string | undefined;
  log: (line: string) => void;
}

export interface WarmStart {
  /** Whether warming up has finished (primed or not: a failure only leaves the instance colder). */
  done(): boolean;
  /** What it is doing or did, in a few words (for /readyz). */
  detail(): string;
  /** Resolves once warming up has finished. */
  finished: Promise<void>;
  stop(): Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function startWarmStart(deps: WarmStartDeps): WarmStart {
  const { engine, clock, shared } = deps;
  const sharing: SharedReferences | undefined = shared
    ? createSharedReferences({
        redis: shared.redis,
        now: () => clock.now(),
        keepMs: deps.keepMs,
        log: deps.log,
      })
    : undefined;
  const unsubscribe = sharing ? engine.onLearn(sharing.learnt) : undefined;
  const file = deps.dataDir ? popularityFile(deps.dataDir) : undefined;
  let recording: ReturnType<typeof setInterval> | undefined;
  let finished = false;
  let state = 'reading the catalog';
  const record = () =>
    file ? recordPopularity(file, busiestNow(engine)).catch(() => undefined) : Promise.resolve();

  /** The other instances' references adopted; how many. */
  async function adoptShared(): Promise<number> {
    if (!sharing || !engine.enabled()) return 0;
    let adopted = 0;
    try {
      for (const entry of await sharing.read()) {
        if (!engine.adopt(entry.side, entry.request, entry.method, entry.answers)) continue;
        sharing.seed(entry);
        adopted += 1;
        for (const { quote } of entry.answers) {
          const [eur, local] =
            entry.side === 'buy'
              ? [quote.fiat_amount_excl_fees, quote.fiat_amount_excl_fees_local]
              : [quote.fiat_amount_incl_fees, quote.fiat_amount_incl_fees_local];
          deps.fx.priced(entry.request.fiat, eur, local);
        }
      }
    } catch (error) {
      deps.log(`[warm-start] reading the shared references failed: ${(error as Error).message}`);
    }
    return adopted;
  }

  async function primeBusiest(): Promise<{ outcome: PrimeOutcome; recorded: number; defaults: number }> {
    const recorded = file ? await recordedTargets(file) : [];
    const defaults = await catalogTargets(deps, MAX_PRIMED - recorded.length).catch(() => []);
    const seen = new Set<string>();
    const targets = [...recorded, ...defaults].filter((target) => {
      const key = [target.country, target.fiat, target.crypto, target.method].join('|');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    state = `priming ${targets.length} combinations`;
    const outcome = await prime(targets, { quote: deps.pricing.quote, budget: deps.budget, clock });
    return { outcome, recorded: recorded.length, defaults: targets.length - recorded.length };
  }

  async function run(): Promise<void> {
    const started = clock.now();
    const grantedBefore = deps.budget.stats().granted;
    const catalog = await Promise.all([
      deps.ramp.supported(),
      deps.ramp.paymentMethods(deps.defaultCountry),
      deps.ramp.payoutMethods(deps.defaultCountry),
    ]).then(
      () => 'the catalog read',
      (error: Error) => `the catalog not read (${error.message})`,
    );
    state = 'adopting shared references';
    const adopted = await adoptShared();
    sharing?.start();
    const calls = () => deps.budget.stats().granted - grantedBefore;
    if (adopted > 0) {
      state = `started from ${adopted} shared combinations`;
      deps.log(
        `[warm-start] ready: ${adopted} combinations adopted from the other instances (Redis), ${catalog}, in ${seconds(clock.now() - started)}, ${calls()} upstream calls`,
      );
      return;
    }
    if (!engine.enabled()) {
      state = 'nothing to prime (QUOTE_DERIVE is off)';
      deps.log(
        `[warm-start] ready: nothing primed (QUOTE_DERIVE is off), ${catalog}, ${calls()} upstream calls`,
      );
      return;
    }
    const { outcome, recorded, defaults } = await primeBusiest();
    state = `primed ${outcome.primed} of ${outcome.tried} combinations`;
    deps.log(
      `[warm-start] ready: primed ${outcome.primed} of ${outcome.tried} combinations (${recorded} recorded as busiest, ${defaults} catalog defaults)${outcome.timedOut ? `, stopped at ${seconds(outcome.ms)}` : ''}, ${catalog}, in ${seconds(clock.now() - started)}, ${calls()} upstream calls`,
    );
  }

  const done = run()
    .catch((error: Error) => deps.log(`[warm-start] warming up failed: ${error.message}`))
    .finally(() => {
      finished = true;
      if (file) {
        recording = setInterval(() => void record(), RECORD_EVERY_MS);
        recording.unref?.();
      }
    });

  return {
    done: () => finished,
    detail: () => (finished ? state : `warming up: ${state}`),
    finished: done,
    async stop() {
      if (recording) clearInterval(recording);
      unsubscribe?.();
      await Promise.all([sharing?.stop(), finished ? record() : undefined]);
    },
  };
}
