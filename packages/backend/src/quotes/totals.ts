/**
 * Fees inside: a shopper types what they pay (buy) or receive (sell) on the fiat side, while the upstream prices
 * a buy on the amount before fees and a sell on the value of the crypto (docs/upstream.md#buy-pricing,
 * #sell-pricing). This finds the request amount whose total is what was typed and prices it.
 *
 * The upstream does not document how it reckons its fees (docs/upstream.md#fees-and-rounding), so the total is
 * checked, never assumed: the upstream prices a first amount (the combination's fee model's solution, else the
 * catalog's estimate), and while the total it answers is not what was typed, the amount is corrected (the model,
 * now fitted to that answer too, solves it again; else a secant step through the totals seen) and priced again,
 * at most MAX_CORRECTIONS more times. Each answer teaches the combination's model (quotes/fee-model/learn.ts); once two
 * answers at different amounts confirm it, totals are solved with it and derived without any upstream call.
 *
 * The rule a merchant relies on (API.md "Totals"): a buy never pays more than typed, a sell never receives less;
 * where the upstream's cent rounding skips the typed total, the nearest total on that side (a cent or two off).
 */
import { AppError } from '../errors.ts';
import { type Decimal, decimal, decimalOrUndefined } from '../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, SellQuoteRequest } from '../upstream/ramp-client.ts';
import { sellBreakdown } from './breakdown.ts';
import type { EngineQuote, QuoteEngine } from './engine/types.ts';
import {
  basisFor,
  catalogTerms,
  type FeeTerms,
  OutsideLimits,
  type Side,
  totalOf,
} from './fee-model/derive.ts';
import { type FeeObservation, learnFrom } from './fee-model/learn.ts';

type Request<S extends Side> = (S extends 'buy' ? BuyQuoteRequest : SellQuoteRequest) & {
  fiatAmount: string;
};
/** The quote, and the request amount it priced (its basis). */
export type Answer<S extends Side> = EngineQuote<S extends 'buy' ? RampBuyQuote : RampSellQuote> & {
  basis: string;
};

/** Upstream calls a typed total may take after the first, while the combination's fee model is not confirmed. */
export const MAX_CORRECTIONS = 3;

export interface TotalPricing {
  quotes: QuoteEngine;
  /** EUR per unit of the fiat, if any rate is known (the estimate's fixed fee). */
  eurPerUnit: number | undefined;
}

const CENT = decimal('0.01');

/** What the shopper would pay (buy) or receive (sell) by an upstream answer, as the quote's view shows it. */
function totalOfAnswer(side: Side, quote: RampBuyQuote | RampSellQuote, basis: string, fiat: string) {
  if (side === 'buy') return decimalOrUndefined(quote.fiat_amount_incl_fees_local);
  const received = sellBreakdown(quote as RampSellQuote, basis, fiat)?.received;
  return received === undefined ? undefined : decimal(received);
}

/** A quote whose total (buy: paid, sell: received, fees inside) is `request.fiatAmount`. */
export async function priceTotal<S extends Side>(
  side: S,
  request: Request<S>,
  method: RampMethod,
  { quotes, eurPerUnit }: TotalPricing,
): Promise<Answer<S>> {
  const typed = decimal(request.fiatAmount).round(2);
  const total = typed.toFixed(2);
  const fiat = request.fiat.toUpperCase();
  const price = async (fiatAmount: string) => {
    const answer =
      side === 'buy'
        ? await quotes.buy({ ...(request as BuyQuoteRequest), fiatAmount }, method)
        : await quotes.sell({ ...(request as SellQuoteRequest), fiatAmount }, method);
    return { ...answer, basis: fiatAmount } as Answer<S>;
  };
  const solved = (basis: string | null) => {
    if (basis === null) throw new OutsideLimits('low');
    return basis;
  };

  // A model an answer confirmed: solved and derived, no upstream call. While the combination is being priced
  // (another shopper's check), its answer may confirm the model: one check at a time per combination.
  for (;;) {
    const known = quotes.basisFor(side, request, total);
    if (known !== undefined) return price(solved(known));
    const flight = quotes.inFlight(side, request);
    if (!flight) break;
    await flight.catch(() => undefined);
  }

  // Checked with the upstream, and corrected until its total is what was typed.
  const catalog = catalogTerms(method, fiat, decimal(eurPerUnit ?? 1), request.markup);
  const tried = new Map<string, { answer: Answer<S>; total: Decimal }>();
  const order: string[] = [];
  let observations: FeeObservation[] = [];
  let terms: FeeTerms | undefined;
  /** The basis a model fitted to what was seen solves (the engine's, which knows more, else this call's own). */
  const modelled = () => {
    const engine = quotes.basisFor(side, request, total, 'any');
    if (engine !== undefined) return engine;
    return terms ? (basisFor(side, terms, typed)?.toFixed(2) ?? null) : undefined;
  };
  const onSide = (value: Decimal) => (side === 'buy' ? value.lte(typed) : value.gte(typed));
  /** The best answer seen on the shopper's side of the typed total, if what was seen proves none is nearer. */
  const settled = (model: string | null | undefined) => {
    let best: { basis: string; total: Decimal } | undefined;
    for (const [basis, seen] of tried) {
      if (!onSide(seen.total)) continue;
      if (!best || (side === 'buy' ? seen.total.gt(best.total) : seen.total.lt(best.total)))
        best = { basis, total: seen.total };
    }
    if (!best) return undefined;
    if (best.total.eq(typed) || model === best.basis) return tried.get(best.basis)?.answer;
    // The neighbouring cent was priced and is on the other side: the rounding skips the typed total.
    const neighbour = tried.get(
      decimal(best.basis)
        .plus(side === 'buy' ? CENT : CENT.neg())
        .toFixed(2),
    );
    return neighbour && !onSide(neighbour.total) ? tried.get(best.basis)?.answer : undefined;
  };
  const secant = (basis: string, got: Decimal) => {
    const previous = order.length > 1 ? order[order.length - 2] : undefined;
    const before = previous === undefined ? undefined : tried.get(previous);
    let slope = decimal(1).plus(
      catalog.feePercent.plus(catalog.markupPercent).div(side === 'buy' ? 100 : -100),
    );
    if (before && previous !== undefined) {
      const run = decimal(basis).minus(previous);
      const rise = got.minus(before.total);
      if (!run.eq(0) && rise.div(run).gt(0)) slope = rise.div(run);
    }
    // Rounded towards the shopper's side: a buy's amount down, a sell's up.
    let next = decimal(basis)
      .plus(typed.minus(got).div(slope))
      .round(2, side === 'buy' ? 0 : 3);
    // Totals grow with the amount priced: a cent towards the typed total.
    if (tried.has(next.toFixed(2))) next = decimal(basis).plus(got.gt(typed) ? CENT.neg() : CENT);
    return next;
  };

  // The model's solution if a reference exists (a hint: null only says its search found none), else the catalog's.
  const hint = quotes.basisFor(side, request, total, 'any');
  let guess: string | undefined =
    typeof hint === 'string' ? hint : basisFor(side, catalog, typed)?.toFixed(2);
  if (guess === undefined) throw new OutsideLimits('low');
  for (let call = 0; call <= MAX_CORRECTIONS; call++) {
    const basis: string = guess;
    const checked = await quotes.check(
      side,
      { ...request, fiatAmount: basis } as S extends 'buy' ? BuyQuoteRequest : SellQuoteRequest,
      method,
      call > 0,
    );
    const answer = { ...checked, basis } as Answer<S>;
    // The upstream could not answer and the engine priced from its last reference, as it prices every quote then.
    if (checked.source === 'derived') return answer;
    const got = totalOfAnswer(side, answer.quote, basis, fiat);
    // An answer that does not say its total in the fiat cannot be checked: it is what the upstream priced.
    if (got === undefined) return answer;
    if (got.eq(typed)) return answer;
    tried.set(basis, { answer, total: got });
    order.push(basis);
    // The engine fitted its model to the answer as it priced it; without the engine, this call fits its own.
    if (!quotes.enabled()) {
      const fitted = learnFrom(
        answer.quote,
        { side, fiat, crypto: request.crypto.toUpperCase(), markupPercent: request.markup, method },
        observations,
        terms,
      );
      observations = fitted.observations;
      terms = fitted.reference ?? terms;
    }
    const model = modelled();
    const done = settled(model);
    if (done) return done;
    const next: Decimal =
      typeof model === 'string' && !tried.has(model) ? decimal(model) : secant(basis, got);
    if (!next.gt(0) || tried.has(next.toFixed(2))) break;
    guess = next.toFixed(2);
  }
  const safe = settled(undefined) ?? bestOnSide();
  if (safe) return safe;
  throw new AppError(
    'QUOTE_UNAVAILABLE',
    'The ramp service did not price a total at or within what was typed.',
  );

  /** The answer nearest the typed total on the shopper's side, proven or not (the correction budget is spent). */
  function bestOnSide(): Answer<S> | undefined {
    let best: { answer: Answer<S>; total: Decimal } | undefined;
    for (const seen of tried.values())
      if (onSide(seen.total) && (!best || typed.minus(seen.total).abs().lt(typed.minus(best.total).abs())))
        best = seen;
    return best?.answer;
  }
}

/** Limits as totals, per method (the catalog's object, kept while its list is cached) and per its other inputs. */
const limitsCache = new WeakMap<RampMethod, Map<string, TotalLimits>>();
/** Rates move, so each method keeps the limits of its latest few inputs only. */
const LIMITS_PER_METHOD = 32;

export interface TotalLimits {
  min: Decimal | null;
  max: Decimal | null;
}

/**
 * A method's limits (EUR, on the amount the upstream prices) as totals in the fiat, what a shopper types: buy,
 * the least and most they can pay; sell, receive. The least rounded up and the most down, so a total between
 * them is never refused for its limits. Null where the method states no limit. Every quote asks for them, so
 * they are kept per method and inputs (worked out each time, they are a large share of a quote's CPU:
 * `npm run bench -- profile`).
 */
export function totalLimits(
  side: Side,
  method: RampMethod,
  fiat: string,
  eurPerUnit: Decimal,
  markupPercent: number,
): TotalLimits {
  const key = `${side} ${fiat} ${eurPerUnit.toString()} ${markupPercent}`;
  let kept = limitsCache.get(method);
  const hit = kept?.get(key);
  if (hit) return hit;
  const terms = catalogTerms(method, fiat, eurPerUnit, markupPercent);
  const bound = (eur: number | null, mode: 0 | 3) => {
    if (eur === null) return null;
    const total = totalOf(side, terms, decimal(eur).div(eurPerUnit).round(2, mode));
    return total.gt(0) ? total : decimal('0.01');
  };
  const limits = { min: bound(method.minEur, 3), max: bound(method.maxEur, 0) };
  if (!kept) {
    kept = new Map();
    limitsCache.set(method, kept);
  }
  if (kept.size >= LIMITS_PER_METHOD) kept.clear();
  kept.set(key, limits);
  return limits;
}
