/**
 * The quote engine: keeps, per (side, method, country, fiat, crypto), the latest upstream quote and derives quotes
 * for any other amount from it (quotes/fee-model/derive.ts), so shoppers are answered however many there are while the
 * upstream sees a bounded number of calls:
 *
 * - a fresh reference (younger than `freshMs`) prices every amount at once (`source: 'derived'`);
 * - without one, the upstream prices the amount and its answer becomes the reference; requests for the same
 *   combination arriving meanwhile wait for that one call (single-flight per combination; identical bodies are
 *   also joined by the ramp client);
 * - when the upstream cannot answer (budget spent, timeout, 5xx), a reference younger than `maxStaleMs` still
 *   prices: only a combination never priced gets `UPSTREAM_BUSY`;
 * - a refresher re-prices references about to age out, busiest first, with at most `refreshShare` of the budget
 *   and only while the budget has room;
 * - a sampler spends `samplerShare` of the budget pricing amounts the engine derived, compares, and records the
 *   drift; past `driftThreshold` a combination is priced by the upstream only until a sample agrees again.
 *
 * State sits behind `ReferenceStore` and the budget and clock are injected, so a shared store can replace the
 * process-local map.
 */
import { AppError } from '../../errors.ts';
import { decimal } from '../../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../../schemas/upstream-ramp.ts';
import { basisFor, type Reference, type Side } from '../fee-model/derive.ts';
import { unanimousAt } from '../fee-model/learn.ts';
import { createDriftSampler } from './drift-sampler.ts';
import { amountOf, createReferences, isUpstreamDown, keyOf } from './references.ts';
import { createRefresher } from './refresher.ts';
import type { AnyQuote, AnyRequest, EngineQuote, QuoteEngine, QuoteEngineOptions } from './types.ts';

const TICK_MS = 100;

export function createQuoteEngine(options: QuoteEngineOptions): QuoteEngine {
  const { budget, clock, settings } = options;
  const listeners = new Set<NonNullable<QuoteEngineOptions['onLearn']>>();
  const references = createReferences({
    ...options,
    onLearn: (combo, quote, at) => {
      options.onLearn?.(combo, quote, at);
      for (const listener of listeners) listener(combo, quote, at);
    },
  });
  const {
    combos,
    flights,
    totals,
    remembered,
    combination,
    call,
    learn,
    usable,
    derivable,
    countDerived,
    derived,
    priceUpstream,
  } = references;
  const refresh = createRefresher(references, options);
  const sample = createDriftSampler(references, options);
  const timers: ReturnType<typeof setInterval>[] = [];

  /**
   * A quote for the request: derived from a fresh reference, else priced by the upstream (its answer the new
   * reference). `check`: always the upstream's own answer (a typed total checked, quotes/totals.ts), unless the
   * upstream cannot answer and a reference still prices.
   */
  async function quote(
    side: Side,
    request: AnyRequest,
    method: RampMethod,
    check = false,
  ): Promise<EngineQuote<AnyQuote>> {
    if (!settings.enabled) {
      const answer = await call(side, request);
      totals.upstream += 1;
      return { quote: answer, source: 'upstream', pricedAt: clock.now() };
    }
    const combo = combination(side, request, method);
    combo.demand += 1;
    const amount = amountOf(request);
    if (!check) {
      if (derivable(combo, amount)) return derived(combo, amount);
      // Another request of this combination is asking the upstream: its answer prices this amount too.
      const flight = flights.get(combo.key);
      if (flight && !combo.upstreamOnly) {
        await flight.catch(() => undefined);
        if (derivable(combo, amount)) return derived(combo, amount);
      }
    }
    const own = priceUpstream(combo, request);
    if (!flights.has(combo.key)) {
      flights.set(combo.key, own);
      own.then(
        () => flights.delete(combo.key),
        () => flights.delete(combo.key),
      );
    }
    try {
      const answer = await own;
      combo.upstream += 1;
      totals.upstream += 1;
      return answer;
    } catch (error) {
      if (isUpstreamDown(error) && usable(combo, settings.maxStaleMs)) {
        totals.derivedWhileUpstreamDown += 1;
        return derived(combo, amount);
      }
      if (error instanceof AppError && error.code === 'UPSTREAM_BUSY') totals.busy += 1;
      throw error;
    }
  }

  return {
    buy: (request, method) => quote('buy', request, method) as Promise<EngineQuote<RampBuyQuote>>,
    sell: (request, method) => quote('sell', request, method) as Promise<EngineQuote<RampSellQuote>>,
    deriveOnly(side, request, method) {
      if (!settings.enabled) return undefined;
      const combo = combos.get(keyOf(side, request));
      if (!combo || !derivable(combo, amountOf(request))) return undefined;
      combo.method = method;
      combo.demand += 1;
      // biome-ignore lint/suspicious/noExplicitAny: the side decides the quote's type
      return derived(combo, amountOf(request)) as any;
    },
    basisFor(side, request, total, trust = 'confirmed') {
      if (!settings.enabled) return undefined;
      const combo = combos.get(keyOf(side, request));
      if (!combo || !usable(combo, settings.freshMs)) return undefined;
      const reference = combo.reference as Reference<AnyQuote>;
      const basis = remembered(
        reference,
        combo.method,
        `basis ${total}`,
        () => basisFor(side, reference, decimal(total))?.toFixed(2) ?? null,
      );
      if (trust === 'any' || basis === null) return basis;
      // Trusted: an amount the upstream itself priced (its answer reproduced), or a model confirmed by an answer it
      // predicted, whose rivals agree on the amount and on its neighbouring cent (which decides where the cents
      // skip the total).
      const amount = decimal(basis);
      if (combo.observations.some((seen) => seen.basis.eq(amount))) return basis;
      const neighbour = amount.plus(side === 'buy' ? '0.01' : '-0.01');
      return reference.confirmedBy >= 1 && unanimousAt(reference, amount) && unanimousAt(reference, neighbour)
        ? basis
        : undefined;
    },
    async check(side, request, method, correction) {
      totals.totalChecks += 1;
      if (correction) totals.totalCorrections += 1;
      // biome-ignore lint/suspicious/noExplicitAny: the side decides the quote's type
      return (await quote(side, request, method, true)) as any;
    },
    inFlight(side, request) {
      return settings.enabled ? flights.get(keyOf(side, request)) : undefined;
    },
    repeated(side, request, from, method) {
      if (!settings.enabled) return false;
      const combo = combos.get(keyOf(side, request));
      if (!combo || combo.reference !== from || combo.method !== method || !usable(combo, settings.freshMs))
        return false;
      combo.demand += 1;
      countDerived(combo, amountOf(request));
      return true;
    },
    adopt(side, request, method, answers) {
      if (!settings.enabled) return false;
      const combo = combination(side, request, method);
      // Oldest first, as they came; what this engine already learnt since is not overwritten.
      for (const { quote, at } of [...answers].sort((a, b) => a.at - b.at)) {
        if (at > combo.pricedAt) learn(combo, quote, at);
      }
      return usable(combo, settings.maxStaleMs);
    },
    onLearn(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    busiest(limit) {
      const asked = (combo: { derived: number; upstream: number }) => combo.derived + combo.upstream;
      return [...combos.values()]
        .filter((combo) => asked(combo) > 0)
        .sort((a, b) => asked(b) - asked(a))
        .slice(0, limit)
        .map((combo) => ({
          side: combo.side,
          request: combo.request,
          method: combo.method,
          demand: asked(combo),
        }));
    },
    refresh,
    sample,
    maxDrift: () => totals.maxDrift,
    enabled: () => settings.enabled,
    stats() {
      const now = clock.now();
      return {
        enabled: settings.enabled,
        ...totals,
        driftThreshold: settings.driftThreshold,
        combinations: [...combos.values()].map((combo) => ({
          key: combo.key,
          ageMs: combo.reference ? now - combo.pricedAt : null,
          derived: combo.derived,
          upstream: combo.upstream,
          upstreamOnly: combo.upstreamOnly,
          reason: combo.reason ?? null,
          drift: { ...combo.drift },
        })),
      };
    },
    start() {
      if (!settings.enabled || timers.length) return;
      const quiet = () => undefined;
      timers.push(setInterval(() => refresh().catch(quiet), TICK_MS));
      const perSecond = budget.perSecond * settings.samplerShare;
      if (perSecond > 0)
        timers.push(setInterval(() => sample().catch(quiet), Math.max(TICK_MS, 1000 / perSecond)));
      for (const timer of timers) timer.unref?.();
    },
    close() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
  };
}
