/**
 * The quote engine: keeps, per (side, method, country, fiat, crypto), the latest upstream quote and derives quotes
 * for any other amount from it (quotes/derive.ts), so shoppers are answered however many there are while the
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
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { decimal } from '../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, RampClient, SellQuoteRequest } from '../upstream/ramp-client.ts';
import {
  type Amount,
  basisFor,
  deriveBuy,
  deriveSell,
  learnReference,
  type Reference,
  relativeDifference,
  type Side,
} from './derive.ts';

type AnyQuote = RampBuyQuote | RampSellQuote;
type AnyRequest = BuyQuoteRequest | SellQuoteRequest;

export interface EngineQuote<Q> {
  quote: Q;
  source: 'upstream' | 'derived';
  /** When the upstream priced the quote (for a derived quote: the reference it came from), epoch ms. */
  pricedAt: number;
  /** A derived quote's reference, as an opaque token (`repeated` takes it back). */
  from?: object;
}

/** What the engine reads of the upstream budget. */
export interface EngineBudget {
  readonly perSecond: number;
  stats(): { inWindow: number; queued: number };
}

export interface EngineSettings {
  /** Off: every quote comes from the upstream, as before the engine. */
  enabled: boolean;
  /** A reference this young prices any amount without asking the upstream. */
  freshMs: number;
  /** A reference this young still prices when the upstream cannot answer. */
  maxStaleMs: number;
  /** Share of the budget the refresher may spend (0–1). */
  refreshShare: number;
  /** Share of the budget the drift sampler spends (0–1; 0 turns it off). */
  samplerShare: number;
  /** Relative difference past which a combination goes back to upstream-only. */
  driftThreshold: number;
}

/** One combination's state. */
export interface Combination {
  key: string;
  side: Side;
  /** The request without its amount, as the route built it last (markup from config). */
  request: AnyRequest;
  method: RampMethod;
  reference: Reference<AnyQuote> | undefined;
  pricedAt: number;
  /** Requests since the last refresh (the refresher's priority). */
  demand: number;
  derived: number;
  upstream: number;
  upstreamOnly: boolean;
  /** Why the combination is priced upstream only (drift, or a quote the model does not reproduce). */
  reason: string | undefined;
  drift: { last: number | null; max: number; samples: number };
  /** Recent amounts the engine derived (what the sampler checks). */
  recent: Amount[];
}

/** Where combinations live: a Map by default; a shared store may stand in. */
export interface ReferenceStore {
  get(key: string): Combination | undefined;
  set(key: string, combination: Combination): void;
  values(): Iterable<Combination>;
}

export interface DriftSample {
  key: string;
  amount: Amount;
  difference: number;
  tripped: boolean;
  recovered: boolean;
}

export interface EngineStats {
  enabled: boolean;
  /** Answers by source since start. */
  derived: number;
  upstream: number;
  /** Derived answers given because the upstream could not answer (budget spent, timeout, 5xx). */
  derivedWhileUpstreamDown: number;
  /** UPSTREAM_BUSY answers (only combinations without any usable reference). */
  busy: number;
  refreshes: number;
  samples: number;
  /** The largest relative difference any sample found, and the latest. */
  maxDrift: number;
  lastDrift: number | null;
  driftThreshold: number;
  combinations: Array<{
    key: string;
    ageMs: number | null;
    derived: number;
    upstream: number;
    upstreamOnly: boolean;
    reason: string | null;
    drift: { last: number | null; max: number; samples: number };
  }>;
}

export interface QuoteEngine {
  buy(request: BuyQuoteRequest, method: RampMethod): Promise<EngineQuote<RampBuyQuote>>;
  sell(request: SellQuoteRequest, method: RampMethod): Promise<EngineQuote<RampSellQuote>>;
  /** A derived quote if a usable reference exists now, else undefined (no upstream call). */
  deriveOnly<S extends Side>(
    side: S,
    request: S extends 'buy' ? BuyQuoteRequest : SellQuoteRequest,
    method: RampMethod,
  ): EngineQuote<S extends 'buy' ? RampBuyQuote : RampSellQuote> | undefined;
  /**
   * The request amount (`fiatAmount`) whose total is `total` (buy: paid, sell: received, fees inside), solved
   * with a fresh reference of the combination (derive.ts `basisFor`); undefined without one (no upstream call),
   * null when no amount gives that total.
   */
  basisFor(side: Side, request: AnyRequest, total: string): string | null | undefined;
  /**
   * For a caller answering a derived quote again from its own memo: true, and the answer counted as derived (as
   * `deriveOnly` counts one), while the combination is still priced by the reference `from` (an EngineQuote's),
   * fresh, for the same method object; false when the engine must be asked.
   */
  repeated(side: Side, request: AnyRequest, from: object, method: RampMethod): boolean;
  /** One refresher round: re-prices the busiest ageing references the budget has room for. */
  refresh(): Promise<number>;
  /** One drift sample (undefined when nothing was derived yet or the budget has no room). */
  sample(): Promise<DriftSample | undefined>;
  stats(): EngineStats;
  /** The largest relative difference a drift sample found since start (the metric /healthz shows). */
  maxDrift(): number;
  /** Starts the refresher and sampler timers (unref'd). */
  start(): void;
  close(): void;
}

export interface QuoteEngineOptions {
  ramp: Pick<RampClient, 'buyQuote' | 'sellQuote'>;
  budget: EngineBudget;
  clock: Clock;
  settings: EngineSettings;
  store?: ReferenceStore;
}

const RECENT = 8;
/** Answers kept per reference for amounts asked again (most shoppers type one of a few round amounts). */
const REPEATS = 64;
const TICK_MS = 100;
/** Calls left to shoppers' first quotes: the refresher and sampler never take the budget's last ones. */
const HEADROOM = 0.2;

const isUpstreamDown = (error: unknown) =>
  error instanceof AppError &&
  (error.code === 'UPSTREAM_BUSY' ||
    error.code === 'UPSTREAM_TIMEOUT' ||
    (error.code === 'UPSTREAM_ERROR' && !('upstreamStatus' in error && Number(error.upstreamStatus) < 500)));

const keyOf = (side: Side, request: AnyRequest) =>
  [
    side,
    request.method,
    'region' in request ? request.region.toUpperCase() : '',
    request.fiat.toUpperCase(),
    request.crypto.toUpperCase(),
    request.markup,
  ].join('|');

const amountOf = (request: AnyRequest): Amount =>
  request.fiatAmount !== undefined
    ? { fiatAmount: request.fiatAmount }
    : { cryptoAmount: request.cryptoAmount as string };

export function createQuoteEngine(options: QuoteEngineOptions): QuoteEngine {
  const { ramp, budget, clock, settings } = options;
  /**
   * What a reference already answered, by amount: a derived quote is a pure function of the reference, the method
   * (its limits) and the amount, and most shoppers type one of a few round amounts, so an amount asked again is
   * answered without the fee model's decimal arithmetic (a large share of a quote's CPU: `npm run bench -- profile`). Kept with
   * the reference (a new reference starts empty), for the same method object only, at most REPEATS amounts (the one
   * least recently asked goes first). A refusal (outside the limits) is not kept: it is thrown again each time.
   */
  const answered = new WeakMap<
    object,
    { method: RampMethod; answers: LRUCache<string, { value: unknown }> }
  >();
  function remembered<T>(reference: object, method: RampMethod, key: string, work: () => T): T {
    let memo = answered.get(reference);
    if (!memo || memo.method !== method) {
      memo = { method, answers: new LRUCache({ max: REPEATS }) };
      answered.set(reference, memo);
    }
    const again = memo.answers.get(key);
    if (again) return again.value as T;
    const value = work();
    memo.answers.set(key, { value });
    return value;
  }
  const combos: ReferenceStore = options.store ?? new Map<string, Combination>();
  const flights = new Map<string, Promise<unknown>>();
  const totals = {
    derived: 0,
    upstream: 0,
    derivedWhileUpstreamDown: 0,
    busy: 0,
    refreshes: 0,
    samples: 0,
    maxDrift: 0,
    lastDrift: null as number | null,
  };
  /** When the refresher's recent calls were made (its share of the budget is counted over one second). */
  let refreshTimes: number[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  let sampleTurn = 0;

  const combination = (side: Side, request: AnyRequest, method: RampMethod): Combination => {
    const key = keyOf(side, request);
    let combo = combos.get(key);
    if (!combo) {
      combo = {
        key,
        side,
        request,
        method,
        reference: undefined,
        pricedAt: 0,
        demand: 0,
        derived: 0,
        upstream: 0,
        upstreamOnly: false,
        reason: undefined,
        drift: { last: null, max: 0, samples: 0 },
        recent: [],
      };
      combos.set(key, combo);
    } else {
      combo.request = request;
      combo.method = method;
    }
    return combo;
  };

  const call = (side: Side, request: AnyRequest): Promise<AnyQuote> =>
    side === 'buy' ? ramp.buyQuote(request as BuyQuoteRequest) : ramp.sellQuote(request as SellQuoteRequest);

  /** Makes `quote` the combination's reference (or marks the combination upstream-only if the model misfits). */
  const learn = (combo: Combination, quote: AnyQuote, at: number) => {
    const reference = learnReference(quote, {
      side: combo.side,
      fiat: combo.request.fiat.toUpperCase(),
      crypto: combo.request.crypto.toUpperCase(),
      markupPercent: combo.request.markup,
      method: combo.method,
    });
    combo.pricedAt = at;
    combo.reference = reference;
    if (!reference) {
      combo.upstreamOnly = true;
      combo.reason = 'the fee model does not reproduce the upstream quote';
    } else if (combo.reason?.startsWith('the fee model')) {
      combo.upstreamOnly = false;
      combo.reason = undefined;
    }
  };

  const derive = (combo: Combination, amount: Amount): AnyQuote => {
    const reference = combo.reference as Reference<AnyQuote>;
    const key =
      amount.fiatAmount !== undefined ? `fiat ${amount.fiatAmount}` : `crypto ${amount.cryptoAmount}`;
    return remembered(reference, combo.method, key, () =>
      combo.side === 'buy'
        ? deriveBuy(reference as Reference<RampBuyQuote>, combo.method, amount)
        : deriveSell(reference as Reference<RampSellQuote>, combo.method, amount),
    );
  };

  const usable = (combo: Combination | undefined, maxAge: number): boolean =>
    !!combo?.reference && !combo.upstreamOnly && clock.now() - combo.pricedAt < maxAge;

  /** Counts a derived answer; the sampler checks the latest amounts. */
  const countDerived = (combo: Combination, amount: Amount) => {
    combo.derived += 1;
    totals.derived += 1;
    combo.recent.push(amount);
    if (combo.recent.length > RECENT) combo.recent.shift();
  };

  const derived = (combo: Combination, amount: Amount): EngineQuote<AnyQuote> => {
    const quote = derive(combo, amount);
    countDerived(combo, amount);
    return { quote, source: 'derived', pricedAt: combo.pricedAt, from: combo.reference };
  };

  /** One upstream call for the combination; its answer becomes the reference. */
  const priceUpstream = async (combo: Combination, request: AnyRequest): Promise<EngineQuote<AnyQuote>> => {
    const quote = await call(combo.side, request);
    const at = clock.now();
    learn(combo, quote, at);
    return { quote, source: 'upstream', pricedAt: at };
  };

  async function quote(side: Side, request: AnyRequest, method: RampMethod): Promise<EngineQuote<AnyQuote>> {
    if (!settings.enabled) {
      const answer = await call(side, request);
      totals.upstream += 1;
      return { quote: answer, source: 'upstream', pricedAt: clock.now() };
    }
    const combo = combination(side, request, method);
    combo.demand += 1;
    const amount = amountOf(request);
    if (usable(combo, settings.freshMs)) return derived(combo, amount);

    // Another request of this combination is asking the upstream: its answer prices this amount too.
    const flight = flights.get(combo.key);
    if (flight && !combo.upstreamOnly) {
      await flight.catch(() => undefined);
      if (usable(combo, settings.freshMs)) return derived(combo, amount);
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

  const hasRoom = (share: number) => {
    const { inWindow, queued } = budget.stats();
    return queued === 0 && inWindow < budget.perSecond * (1 - HEADROOM) && share > 0;
  };

  async function refresh(): Promise<number> {
    const now = clock.now();
    refreshTimes = refreshTimes.filter((at) => now - at < 1000);
    const allowed = Math.floor(budget.perSecond * settings.refreshShare) - refreshTimes.length;
    if (allowed <= 0 || !hasRoom(settings.refreshShare)) return 0;
    // Ageing references someone asked for since their last refresh, busiest first.
    const due = [...combos.values()]
      .filter(
        (combo) =>
          combo.reference &&
          combo.demand > 0 &&
          !flights.has(combo.key) &&
          now - combo.pricedAt >= settings.freshMs / 2,
      )
      .sort((a, b) => b.demand - a.demand)
      .slice(0, allowed);
    await Promise.all(
      due.map((combo) => {
        refreshTimes.push(now);
        combo.demand = 0;
        const reference = combo.reference as Reference<AnyQuote>;
        const basis =
          combo.side === 'buy'
            ? reference.quote.fiat_amount_excl_fees_local
            : reference.quote.fiat_amount_incl_fees_local;
        const request = { ...combo.request, fiatAmount: String(basis), cryptoAmount: undefined };
        const flight = priceUpstream(combo, request).then(
          () => {
            totals.refreshes += 1;
          },
          () => undefined,
        );
        flights.set(combo.key, flight);
        return flight.finally(() => flights.delete(combo.key));
      }),
    );
    return due.length;
  }

  async function sample(): Promise<DriftSample | undefined> {
    if (!hasRoom(settings.samplerShare)) return undefined;
    // Combinations priced upstream-only for drift first (to re-learn them), then every other in turn.
    const candidates = [...combos.values()].filter((combo) => combo.reference && combo.recent.length);
    if (!candidates.length) return undefined;
    const drifting = candidates.filter((combo) => combo.upstreamOnly && combo.reason === 'drift');
    const combo = drifting[0] ?? (candidates[sampleTurn++ % candidates.length] as Combination);
    const amount = combo.recent[combo.recent.length - 1] as Amount;
    let ours: AnyQuote;
    try {
      ours = derive(combo, amount);
    } catch {
      combo.recent.pop();
      return undefined;
    }
    let theirs: EngineQuote<AnyQuote>;
    try {
      theirs = await priceUpstream(combo, { ...combo.request, ...amount } as AnyRequest);
    } catch {
      return undefined;
    }
    const difference = relativeDifference(ours, theirs.quote);
    totals.samples += 1;
    totals.lastDrift = difference;
    totals.maxDrift = Math.max(totals.maxDrift, difference);
    combo.drift.samples += 1;
    combo.drift.last = difference;
    combo.drift.max = Math.max(combo.drift.max, difference);
    const wasOff = combo.upstreamOnly && combo.reason === 'drift';
    const tripped = difference > settings.driftThreshold;
    if (tripped) {
      combo.upstreamOnly = true;
      combo.reason = 'drift';
    } else if (wasOff) {
      combo.upstreamOnly = false;
      combo.reason = undefined;
    }
    return { key: combo.key, amount, difference, tripped, recovered: wasOff && !tripped };
  }

  return {
    buy: (request, method) => quote('buy', request, method) as Promise<EngineQuote<RampBuyQuote>>,
    sell: (request, method) => quote('sell', request, method) as Promise<EngineQuote<RampSellQuote>>,
    deriveOnly(side, request, method) {
      if (!settings.enabled) return undefined;
      const combo = combos.get(keyOf(side, request));
      if (!combo || !usable(combo, settings.freshMs)) return undefined;
      combo.method = method;
      combo.demand += 1;
      // biome-ignore lint/suspicious/noExplicitAny: the side decides the quote's type
      return derived(combo, amountOf(request)) as any;
    },
    basisFor(side, request, total) {
      if (!settings.enabled) return undefined;
      const combo = combos.get(keyOf(side, request));
      if (!combo || !usable(combo, settings.freshMs)) return undefined;
      const reference = combo.reference as Reference<AnyQuote>;
      return remembered(
        reference,
        combo.method,
        `basis ${total}`,
        () => basisFor(side, reference, decimal(total))?.toFixed(2) ?? null,
      );
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
    refresh,
    sample,
    maxDrift: () => totals.maxDrift,
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
