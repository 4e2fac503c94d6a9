/**
 * Fees inside: a shopper types what they pay (buy) or receive (sell) on the fiat side, while the upstream prices
 * a buy on the amount before fees and a sell on the value of the crypto (docs/upstream.md#buy-pricing, #sell-pricing). This finds the
 * request amount whose total is what was typed (derive.ts `basisFor`) and prices it.
 *
 * With a fresh reference of the combination the answer is derived (no upstream call). Without one, the upstream
 * first prices the catalog's estimate of that amount (it becomes the reference), then the exact amount is
 * derived from it, or priced by the upstream when the combination is priced upstream only. A combination the fee
 * model does not fit answers with the estimate's quote, whose total is then only close to what was typed.
 */
import { type Decimal, decimal } from '../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, SellQuoteRequest } from '../upstream/ramp-client.ts';
import { basisFor, catalogTerms, learnReference, OutsideLimits, type Side, totalOf } from './derive.ts';
import type { EngineQuote, QuoteEngine } from './engine.ts';

type Request<S extends Side> = (S extends 'buy' ? BuyQuoteRequest : SellQuoteRequest) & {
  fiatAmount: string;
};
/** The quote, and the request amount it priced (its basis). */
type Answer<S extends Side> = EngineQuote<S extends 'buy' ? RampBuyQuote : RampSellQuote> & { basis: string };

export interface TotalPricing {
  quotes: QuoteEngine;
  /** EUR per unit of the fiat, if any rate is known (the estimate's fixed fee). */
  eurPerUnit: number | undefined;
}

/** A quote whose total (buy: paid, sell: received, fees inside) is `request.fiatAmount`. */
export async function priceTotal<S extends Side>(
  side: S,
  request: Request<S>,
  method: RampMethod,
  { quotes, eurPerUnit }: TotalPricing,
): Promise<Answer<S>> {
  const total = request.fiatAmount;
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

  const known = quotes.basisFor(side, request, total);
  if (known !== undefined) return price(solved(known));

  const fiat = request.fiat.toUpperCase();
  const terms = catalogTerms(method, fiat, decimal(eurPerUnit ?? 1), request.markup);
  const estimate = basisFor(side, terms, decimal(total));
  if (!estimate) throw new OutsideLimits('low');
  const first = await price(estimate.toFixed(2));
  const reference = learnReference(first.quote, {
    side,
    fiat,
    crypto: request.crypto.toUpperCase(),
    markupPercent: request.markup,
    method,
  });
  const exact =
    quotes.basisFor(side, request, total) ??
    (reference ? (basisFor(side, reference, decimal(total))?.toFixed(2) ?? null) : undefined);
  if (exact === undefined || exact === estimate.toFixed(2)) return first;
  return price(solved(exact));
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
