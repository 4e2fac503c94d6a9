/**
 * Derived quotes: a quote for any amount, either input direction, computed from one upstream quote of the same
 * (side, method, country, fiat, crypto) with the documented fee model (docs/upstream.md#fees-and-rounding; the
 * sandbox README's "Quote model" writes it out):
 *
 *   processing = amount × fee% + base fee in the fiat (at least the minimum fee), rounded to the cent
 *   markup     = amount × markup%, rounded to the cent
 *   buy:  paid = amount + processing + markup;  crypto = ⌊(amount − network fee in fiat) ÷ unit price⌋
 *   sell: paid out = value − processing − markup;  crypto to send = ⌈value ÷ unit price + network fee⌉
 *
 * `amount` is what the method's limits apply to (buy: before fees; sell: the value of the crypto). What a quote
 * carries that does not depend on the amount (unit price, network fee, the fiat's EUR rate) is read from the
 * reference; what the catalog says (fee %, base fee, minimum) is checked against it: `learnReference` refuses a
 * reference its own amount does not reproduce exactly, so a model that does not fit is never used to price.
 * Pure, and exact (big.js via money.ts): never a float.
 */
import { type Decimal, decimal, digitsOf, toNumber } from '../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';

const DOWN = 0;
const HALF_UP = 1;
const UP = 3;
/** The upstream writes every fiat amount with 2 decimals, JPY and VND included (docs/upstream.md#fees-and-rounding). */
const CENTS = 2;
/** Percent to a share, and cents to an amount: multiplied (exact, and cheaper than big.js's long division). */
const HUNDREDTH = decimal('0.01');

export type Side = 'buy' | 'sell';

/** What a shopper typed: one of the two. */
export type Amount =
  | { fiatAmount: string; cryptoAmount?: undefined }
  | { cryptoAmount: string; fiatAmount?: undefined };

/** What the fees of an amount are reckoned from (a reference's, or the catalog's for an estimate). */
export interface FeeTerms {
  /** The method's fixed fee in the fiat (to the cent). */
  baseFee: Decimal;
  /** The least processing fee, in the fiat. */
  minFee: Decimal;
  feePercent: Decimal;
  markupPercent: Decimal;
}

/** The amount-independent parts of one upstream quote, checked against the catalog's fees. */
export interface Reference<Q> extends FeeTerms {
  side: Side;
  quote: Q;
  fiat: string;
  crypto: string;
  unitPrice: Decimal;
  /** Buy: the network fee in the fiat. Sell: in the crypto. */
  networkFee: Decimal;
  /** EUR per unit of the fiat, as the reference's EUR and local amounts tell. */
  eurPerUnit: Decimal;
  /** Digits the crypto is counted in. */
  cryptoDigits: number;
}

/** Why a quote cannot be derived: the amount is outside the method's limits or leaves nothing after fees. */
export class OutsideLimits extends Error {
  constructor(readonly side: 'low' | 'high') {
    super(`amount too ${side}`);
    this.name = 'OutsideLimits';
  }
}

const cents = (value: Decimal, mode = HALF_UP) => value.round(CENTS, mode as 0 | 1 | 2 | 3);
const orZero = (value: number | null | undefined) => decimal(value ?? 0);

function charges(ref: FeeTerms, amount: Decimal) {
  const fee = amount.times(ref.feePercent).times(HUNDREDTH).plus(ref.baseFee);
  return {
    processing: cents(fee.gt(ref.minFee) ? fee : ref.minFee),
    markup: cents(amount.times(ref.markupPercent).times(HUNDREDTH)),
  };
}

/** The method's limits, in EUR, on the amount they apply to. */
function checkLimits(method: RampMethod, amountEur: Decimal): void {
  if (method.minEur !== null && amountEur.lt(method.minEur)) throw new OutsideLimits('low');
  if (method.maxEur !== null && amountEur.gt(method.maxEur)) throw new OutsideLimits('high');
}

/**
 * What the shopper pays (buy) or receives (sell) for a basis amount (buy: the amount before fees, what the
 * upstream's `fiat_amount` means on a buy; sell: the value of the crypto, its `fiat_amount` on a sell).
 */
export function totalOf(side: Side, terms: FeeTerms, basis: Decimal): Decimal {
  const { processing, markup } = charges(terms, basis);
  return side === 'buy' ? basis.plus(processing).plus(markup) : basis.minus(processing).minus(markup);
}

/** Cents either side of the linear estimate searched for the exact basis (rounding moves it by at most two). */
const SEARCH_CENTS = 5;

/** A whole number of cents as an amount. */
const centsAmount = (count: number) => decimal((count / 100).toFixed(CENTS));

/** The fee terms as floats, for the estimate only (a starting point: the search then works in exact decimals). */
const estimateTerms = new WeakMap<FeeTerms, { base: number; min: number; share: number; markup: number }>();
function roughTerms(terms: FeeTerms) {
  let rough = estimateTerms.get(terms);
  if (!rough) {
    rough = {
      base: toNumber(terms.baseFee),
      min: toNumber(terms.minFee),
      share: toNumber(terms.feePercent.plus(terms.markupPercent)) / 100,
      markup: toNumber(terms.markupPercent) / 100,
    };
    estimateTerms.set(terms, rough);
  }
  return rough;
}

/**
 * The basis whose total (`totalOf`) is `total`: the upstream request amount that makes what the shopper pays
 * (buy) or receives (sell) the amount they typed, fees inside. Undefined when no positive basis gives it.
 *
 * The fee parts are rounded to the cent, so on a buy a one-cent step of the basis sometimes moves the total by
 * two or three cents and a few totals (about 3 % with a 3 % fee) cannot be reached. Then the cents go the
 * shopper's way: the largest basis whose total is below, so they pay a cent or two less than typed, never more.
 * A sell's total moves by at most one cent per cent of value, so it is met exactly (the rule, were it not: the
 * least total above, from the smallest basis). The quote built from the basis says the true total either way.
 *
 * The linear estimate (the larger or smaller of the percentage-fee and minimum-fee lines) is worked out in floats:
 * it only says where to look, within SEARCH_CENTS either side, and every total compared is exact. A buy's total
 * grows by at least a cent with each cent of basis, so from the estimate it walks to the answer (two or three
 * totals, where trying the whole window took eleven; the quote route's profile had this search as its largest
 * part for an amount typed freely). A sell's total can stand still or, when the fee and the markup both round up
 * at one cent, step back: every cent of the window is tried.
 */
export function basisFor(side: Side, terms: FeeTerms, total: Decimal): Decimal | undefined {
  const target = cents(total);
  const { base, min: least, share, markup } = roughTerms(terms);
  if (side === 'sell' && !terms.feePercent.plus(terms.markupPercent).lt(100)) return undefined;
  const typed = toNumber(target);
  const estimate =
    side === 'buy'
      ? Math.min((typed - base) / (1 + share), (typed - least) / (1 + markup))
      : Math.max((typed + base) / (1 - share), (typed + least) / (1 - markup));
  const start = Math.floor(estimate * 100);
  const lowest = Math.max(start - SEARCH_CENTS, 1);
  const highest = start + SEARCH_CENTS;
  if (lowest > highest) return undefined;
  const totalAt = (count: number) => totalOf(side, terms, centsAmount(count));

  if (side === 'buy') {
    // The largest basis not paying more than typed.
    let count = Math.min(Math.max(start, lowest), highest);
    let value = totalAt(count);
    if (value.lte(target)) {
      while (count < highest) {
        const next = totalAt(count + 1);
        if (next.gt(target)) break;
        count += 1;
        value = next;
      }
    } else {
      do {
        if (count <= lowest) return undefined;
        count -= 1;
        value = totalAt(count);
      } while (value.gt(target));
    }
    return value.gt(0) ? centsAmount(count) : undefined;
  }
  // The least total not receiving less than typed, from the smallest basis (the least crypto to send).
  let best: { count: number; total: Decimal } | undefined;
  for (let count = lowest; count <= highest; count++) {
    const value = totalAt(count);
    if (value.gte(target) && (!best || value.lt(best.total))) best = { count, total: value };
  }
  return best?.total.gt(0) ? centsAmount(best.count) : undefined;
}

/**
 * The fees the catalog states for a method in a fiat, before any quote confirms them: the fixed fee listed for
 * the fiat, else the EUR one converted at `eurPerUnit` (the reference may find it a cent off).
 */
export function catalogTerms(
  method: RampMethod,
  fiat: string,
  eurPerUnit: Decimal,
  markupPercent: number,
): FeeTerms {
  const listed = method.fixedFeeByCurrency[fiat];
  return {
    feePercent: decimal(method.feePercent),
    minFee: method.minFeeEur ? cents(decimal(method.minFeeEur).div(eurPerUnit)) : decimal(0),
    baseFee:
      listed !== undefined
        ? decimal(listed)
        : method.fixedFeeEur
          ? cents(decimal(method.fixedFeeEur).div(eurPerUnit))
          : decimal(0),
    markupPercent: decimal(markupPercent),
  };
}

export function deriveBuy(ref: Reference<RampBuyQuote>, method: RampMethod, amount: Amount): RampBuyQuote {
  const { unitPrice: unit, networkFee } = ref;
  let excl: Decimal;
  let crypto: Decimal;
  if (amount.fiatAmount !== undefined) {
    excl = cents(decimal(amount.fiatAmount));
    crypto = excl.minus(networkFee).div(unit).round(ref.cryptoDigits, DOWN);
  } else {
    crypto = decimal(amount.cryptoAmount).round(ref.cryptoDigits, HALF_UP);
    excl = cents(crypto.times(unit).plus(networkFee), UP);
  }
  const exclEur = cents(excl.times(ref.eurPerUnit));
  checkLimits(method, exclEur);
  if (!crypto.gt(0)) throw new OutsideLimits('low');
  const { processing, markup } = charges(ref, excl);
  const incl = excl.plus(processing).plus(markup);
  return {
    ...ref.quote,
    crypto_amount: toNumber(crypto),
    crypto_unit_price: toNumber(unit),
    fiat_amount_incl_fees: toNumber(cents(incl.times(ref.eurPerUnit))),
    fiat_amount_excl_fees: toNumber(exclEur),
    fiat_amount_incl_fees_local: toNumber(incl),
    fiat_amount_excl_fees_local: toNumber(excl),
    markup_fiat_value: toNumber(markup),
    processing_fee: toNumber(processing),
  };
}

export function deriveSell(ref: Reference<RampSellQuote>, method: RampMethod, amount: Amount): RampSellQuote {
  const { unitPrice: unit, networkFee } = ref;
  let incl: Decimal;
  let crypto: Decimal;
  if (amount.cryptoAmount !== undefined) {
    crypto = decimal(amount.cryptoAmount).round(ref.cryptoDigits, HALF_UP);
    incl = cents(crypto.minus(networkFee).times(unit), DOWN);
  } else {
    incl = cents(decimal(amount.fiatAmount));
    crypto = incl.div(unit).plus(networkFee).round(ref.cryptoDigits, UP);
  }
  const inclEur = cents(incl.times(ref.eurPerUnit));
  checkLimits(method, inclEur);
  const { processing, markup } = charges(ref, incl);
  const excl = incl.minus(processing).minus(markup);
  if (!excl.gt(0) || !incl.gt(0)) throw new OutsideLimits('low');
  return {
    ...ref.quote,
    crypto_amount: toNumber(crypto),
    crypto_unit_price: toNumber(unit),
    fiat_amount_incl_fees: toNumber(inclEur),
    fiat_amount_excl_fees: toNumber(cents(excl.times(ref.eurPerUnit))),
    fiat_amount_incl_fees_local: toNumber(incl),
    fiat_amount_excl_fees_local: toNumber(excl),
    markup_fiat_value: toNumber(markup),
    processing_fee: toNumber(processing),
  };
}

/** The fields a shopper sees, compared between a derived quote and an upstream one. */
const compared = [
  'crypto_amount',
  'fiat_amount_incl_fees_local',
  'fiat_amount_excl_fees_local',
  'processing_fee',
  'markup_fiat_value',
] as const;

/** The largest relative difference between the fields a shopper sees (0 when they are equal). */
export function relativeDifference(
  derived: RampBuyQuote | RampSellQuote,
  upstream: RampBuyQuote | RampSellQuote,
): number {
  let worst = decimal(0);
  for (const field of compared) {
    const a = orZero(derived[field]);
    const b = orZero(upstream[field]);
    if (a.eq(b)) continue;
    // A fee part is judged against the total it is part of, so one cent on a 0.35 fee is not "3 %".
    const scale = field === 'crypto_amount' ? b.abs() : orZero(upstream.fiat_amount_incl_fees_local).abs();
    const diff = scale.eq(0) ? decimal(1) : a.minus(b).abs().div(scale);
    if (diff.gt(worst)) worst = diff;
  }
  return toNumber(worst);
}

/** Digits after the point a decimal is written with (0.0012 → 4). */
const decimalsOf = (value: Decimal) => Math.max(0, value.c.length - value.e - 1);

/** What a reference needs from the request that priced it. */
export interface ReferenceContext {
  side: Side;
  fiat: string;
  crypto: string;
  markupPercent: number;
  method: RampMethod;
}

/** The fiat amount the reference priced: what its limits and fees were reckoned on. */
const basisOf = (side: Side, quote: RampBuyQuote | RampSellQuote) =>
  decimal((side === 'buy' ? quote.fiat_amount_excl_fees_local : quote.fiat_amount_incl_fees_local) ?? 0);

/**
 * Reads the amount-independent parts of an upstream quote and checks that the model reproduces the quote's own
 * amount exactly. Undefined when it does not (a fee table that does not match the catalog, a shape without local
 * amounts): that combination is then priced by the upstream only.
 */
export function learnReference<Q extends RampBuyQuote | RampSellQuote>(
  quote: Q,
  context: ReferenceContext,
): Reference<Q> | undefined {
  const { side, fiat, method } = context;
  const basis = basisOf(side, quote);
  const eur = decimal((side === 'buy' ? quote.fiat_amount_excl_fees : quote.fiat_amount_incl_fees) ?? 0);
  if (!basis.gt(0) || quote.fiat_amount_excl_fees_local == null || quote.fiat_amount_incl_fees_local == null)
    return undefined;
  const eurPerUnit = fiat === 'EUR' ? decimal(1) : eur.div(basis);
  if (!eurPerUnit.gt(0)) return undefined;
  const networkFee =
    side === 'buy'
      ? orZero((quote as RampBuyQuote).network_fee_local ?? (quote.network_fee ? undefined : 0))
      : orZero(quote.network_fee);
  if (side === 'buy' && (quote as RampBuyQuote).network_fee_local == null && quote.network_fee)
    return undefined;
  const terms = catalogTerms(method, fiat, eurPerUnit, context.markupPercent);
  const base = {
    side,
    quote,
    fiat,
    crypto: context.crypto,
    unitPrice: decimal(quote.crypto_unit_price),
    networkFee,
    eurPerUnit,
    ...terms,
    cryptoDigits: Math.max(digitsOf(context.crypto, 'crypto'), decimalsOf(decimal(quote.crypto_amount))),
  };
  // The base fee converted with a rate read from rounded amounts may be a cent off: the reference says which.
  for (const step of [0, -1, 1, -2, 2]) {
    const ref: Reference<Q> = { ...base, baseFee: terms.baseFee.plus(decimal(step).times(HUNDREDTH)) };
    if (ref.baseFee.lt(0)) continue;
    if (reproduces(ref, method)) return ref;
  }
  return undefined;
}

/** Whether deriving the reference's own amount gives the reference back (every field a shopper sees). */
function reproduces<Q extends RampBuyQuote | RampSellQuote>(ref: Reference<Q>, method: RampMethod): boolean {
  const amount: Amount = { fiatAmount: basisOf(ref.side, ref.quote).toFixed() };
  try {
    const again =
      ref.side === 'buy'
        ? deriveBuy(ref as Reference<RampBuyQuote>, { ...method, minEur: null, maxEur: null }, amount)
        : deriveSell(ref as Reference<RampSellQuote>, { ...method, minEur: null, maxEur: null }, amount);
    return relativeDifference(again, ref.quote) === 0;
  } catch {
    return false;
  }
}
