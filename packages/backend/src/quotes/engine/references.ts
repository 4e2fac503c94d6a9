/**
 * The references: per combination (side, method, country, fiat, crypto, markup) the latest upstream quote, the fee
 * model fitted to it (quotes/fee-model/learn.ts), and what it derives for other amounts (quotes/fee-model/derive.ts), with the answers
 * a reference already gave kept beside it. One upstream call per combination at a time (`flights`); the counts the
 * engine reports (`totals`).
 */
import { LRUCache } from 'lru-cache';
import { AppError } from '../../errors.ts';
import { decimal } from '../../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, SellQuoteRequest } from '../../upstream/ramp-client.ts';
import { type Amount, deriveBuy, deriveSell, type Reference, type Side } from '../fee-model/derive.ts';
import { learnFrom, unanimousAt } from '../fee-model/learn.ts';
import type {
  AnyQuote,
  AnyRequest,
  Combination,
  EngineQuote,
  QuoteEngineOptions,
  ReferenceStore,
} from './types.ts';

const RECENT = 8;
/** How long a combination whose answers fit no model is priced upstream-only before it is fitted again. */
const UNFIT_PAUSE_MS = 30_000;
/** Answers kept per reference for amounts asked again (most shoppers type one of a few round amounts). */
const REPEATS = 64;

export const isUpstreamDown = (error: unknown) =>
  error instanceof AppError &&
  (error.code === 'UPSTREAM_BUSY' ||
    error.code === 'UPSTREAM_TIMEOUT' ||
    (error.code === 'UPSTREAM_ERROR' && !('upstreamStatus' in error && Number(error.upstreamStatus) < 500)));

export const keyOf = (side: Side, request: AnyRequest) =>
  [
    side,
    request.method,
    'region' in request ? request.region.toUpperCase() : '',
    request.fiat.toUpperCase(),
    request.crypto.toUpperCase(),
    request.markup,
  ].join('|');

export const amountOf = (request: AnyRequest): Amount =>
  request.fiatAmount !== undefined
    ? { fiatAmount: request.fiatAmount }
    : { cryptoAmount: request.cryptoAmount as string };

export type References = ReturnType<typeof createReferences>;

export function createReferences(
  options: Pick<QuoteEngineOptions, 'ramp' | 'clock' | 'settings' | 'store' | 'onLearn'>,
) {
  const { ramp, clock, settings } = options;
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
    totalChecks: 0,
    totalCorrections: 0,
    refreshes: 0,
    samples: 0,
    maxDrift: 0,
    lastDrift: null as number | null,
  };
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
        observations: [],
        unfitUntil: 0,
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
    if (!combo.reference && combo.upstreamOnly && at < combo.unfitUntil) {
      // No model fitted its answers a moment ago: priced by the upstream until the pause is over.
      combo.pricedAt = at;
      return;
    }
    const { reference, observations } = learnFrom(
      quote,
      {
        side: combo.side,
        fiat: combo.request.fiat.toUpperCase(),
        crypto: combo.request.crypto.toUpperCase(),
        markupPercent: combo.request.markup,
        method: combo.method,
      },
      combo.observations,
      combo.reference,
    );
    combo.observations = observations;
    combo.pricedAt = at;
    combo.reference = reference;
    if (!reference) {
      combo.upstreamOnly = true;
      combo.reason = 'the fee model does not reproduce the upstream quote';
      combo.unfitUntil = at + UNFIT_PAUSE_MS;
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

  /**
   * Whether the models the combination's answers cannot tell apart all give the same fees for the amount (then
   * deriving it is right whichever the upstream uses); else the upstream prices it. A refusal is left to `derived`.
   */
  const unanimous = (combo: Combination, amount: Amount): boolean => {
    const reference = combo.reference as Reference<AnyQuote>;
    if (!reference.rivals.length) return true;
    let quote: AnyQuote;
    try {
      quote = derive(combo, amount);
    } catch {
      return true;
    }
    const basis =
      combo.side === 'buy' ? quote.fiat_amount_excl_fees_local : quote.fiat_amount_incl_fees_local;
    return unanimousAt(reference, decimal(basis ?? 0));
  };
  const derivable = (combo: Combination, amount: Amount) =>
    usable(combo, settings.freshMs) && unanimous(combo, amount);

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
    options.onLearn?.(combo, quote, at);
    return { quote, source: 'upstream', pricedAt: at };
  };

  return {
    combos,
    flights,
    totals,
    remembered,
    combination,
    call,
    learn,
    derive,
    usable,
    unanimous,
    derivable,
    countDerived,
    derived,
    priceUpstream,
  };
}
