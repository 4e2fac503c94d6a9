/**
 * The quote engine's types: what it answers (`EngineQuote`), what it is given (`QuoteEngineOptions`, `EngineSettings`),
 * the state it keeps per combination (`Combination`, behind `ReferenceStore`) and what it reports (`EngineStats`).
 */
import type { Clock } from '../../clock.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, RampClient, SellQuoteRequest } from '../../upstream/ramp-client.ts';
import type { Amount, Reference, Side } from '../fee-model/derive.ts';
import type { FeeObservation } from '../fee-model/learn.ts';

export type AnyQuote = RampBuyQuote | RampSellQuote;
export type AnyRequest = BuyQuoteRequest | SellQuoteRequest;

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
  /** The upstream's answers at different amounts the fee model is fitted to (quotes/fee-model/learn.ts), newest first. */
  observations: FeeObservation[];
  /** Until when a combination whose answers no model fits is not fitted again (fitting every answer costs CPU). */
  unfitUntil: number;
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
  /** Upstream calls that checked the total of an amount typed (quotes/totals.ts), and those of them that corrected a first one. */
  totalChecks: number;
  totalCorrections: number;
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
   * with a fresh reference of the combination (derive.ts `basisFor`) whose fee model an upstream answer confirmed
   * (`trust: 'any'`: any fresh reference, a guess to check); undefined without one (no upstream call), null when
   * no amount gives that total.
   */
  basisFor(
    side: Side,
    request: AnyRequest,
    total: string,
    trust?: 'confirmed' | 'any',
  ): string | null | undefined;
  /**
   * The upstream's own quote for the amount (never derived), learned like any other: what checks a total typed.
   * `correction`: a second or later check of the same total (counted apart).
   */
  check<S extends Side>(
    side: S,
    request: S extends 'buy' ? BuyQuoteRequest : SellQuoteRequest,
    method: RampMethod,
    correction: boolean,
  ): Promise<EngineQuote<S extends 'buy' ? RampBuyQuote : RampSellQuote>>;
  /** The upstream call the combination has in flight, if any (known at once, so a caller can join it). */
  inFlight(side: Side, request: AnyRequest): Promise<unknown> | undefined;
  /**
   * For a caller answering a derived quote again from its own memo: true, and the answer counted as derived (as
   * `deriveOnly` counts one), while the combination is still priced by the reference `from` (an EngineQuote's),
   * fresh, for the same method object; false when the engine must be asked.
   */
  repeated(side: Side, request: AnyRequest, from: object, method: RampMethod): boolean;
  /**
   * Learns a combination from upstream answers another instance got (oldest first), as if this engine had asked:
   * its reference, fee corrections and freshness (their `at`). No upstream call; true when it now prices.
   */
  adopt(side: Side, request: AnyRequest, method: RampMethod, answers: SharedAnswer[]): boolean;
  /** Hears each upstream answer a combination learns from, from now on; returns the unsubscribe. */
  onLearn(listener: NonNullable<QuoteEngineOptions['onLearn']>): () => void;
  /** The combinations asked for most since start (their requests without an amount), busiest first. */
  busiest(limit: number): Array<{ side: Side; request: AnyRequest; method: RampMethod; demand: number }>;
  /** One refresher round: re-prices the busiest ageing references the budget has room for. */
  refresh(): Promise<number>;
  /** One drift sample (undefined when nothing was derived yet or the budget has no room). */
  sample(): Promise<DriftSample | undefined>;
  stats(): EngineStats;
  /** Whether quotes are derived at all (QUOTE_DERIVE). */
  enabled(): boolean;
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
  /** Hears each upstream answer a combination learnt from (quotes/warm-start.ts shares them through Redis). */
  onLearn?: (combination: Combination, quote: AnyQuote, at: number) => void;
}

/** An upstream answer given to another instance's engine (`adopt`), with when the upstream priced it (epoch ms). */
export interface SharedAnswer {
  quote: AnyQuote;
  at: number;
}
