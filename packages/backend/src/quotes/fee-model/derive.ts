/**
 * Derived quotes: a quote for any amount, either input direction, computed from one upstream quote of the same
 * (side, method, country, fiat, crypto) with a fee model (docs/upstream.md#fees-and-rounding; the sandbox
 * README's "Quote model" writes its variants out). The documented reading:
 *
 *   processing = amount × fee% + base fee in the fiat (at least the minimum fee), rounded to the cent
 *   markup     = amount × markup%, rounded to the cent
 *   buy:  paid = amount + processing + markup;  crypto = ⌊(amount − network fee in fiat) ÷ unit price⌋
 *   sell: paid out = value − processing − markup;  crypto to send = ⌈value ÷ unit price + network fee⌉
 *
 * The upstream does not document on which amount the percentage applies, in which currency the fee is reckoned
 * or how it rounds, so a `FeeModel` says which (quotes/fee-model/learn.ts fits it to the upstream's own answers).
 *
 * `amount` is what the method's limits apply to (buy: before fees; sell: the value of the crypto). What a quote
 * carries that does not depend on the amount (unit price, network fee, the fiat's EUR rate) is read from the
 * reference. Pure, and exact (big.js via money.ts): never a float.
 */
import { type Decimal, decimal, toNumber } from '../../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../../schemas/upstream-ramp.ts';

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

/** How an upstream reckons its fees, where the documents leave it open (docs/upstream.md#fees-and-rounding). */
export interface FeeModel {
  /**
   * The percentage taken from the amount priced (buy: before fees, sell: the crypto's value), or from the total
   * the shopper sees (buy: what is paid, sell: what is paid out), solved in closed form.
   */
  on: 'priced' | 'total';
  /**
   * Reckoned in EUR at this rate (EUR per unit of the fiat) and the fee converted to the fiat to the nearest
   * cent; `baseFee` and `minFee` are then EUR. Undefined: reckoned in the fiat.
   */
  eurPerUnit: Decimal | undefined;
  /** How the processing fee and the markup are rounded to the cent: 0 down, 1 to the nearest, 3 up. */
  rounding: 0 | 1 | 3;
}

/** The documented reading: the percentage of the amount priced, in the fiat, to the nearest cent. */
export const documentedModel: FeeModel = { on: 'priced', eurPerUnit: undefined, rounding: 1 };

/** What the fees of an amount are reckoned from (a reference's, or the catalog's for an estimate). */
export interface FeeTerms {
  /** The method's fixed fee in the fiat (to the cent); in EUR when the model reckons in EUR. */
  baseFee: Decimal;
  /** The least processing fee, in the fiat; in EUR when the model reckons in EUR. */
  minFee: Decimal;
  feePercent: Decimal;
  markupPercent: Decimal;
  /** Absent: the documented reading (`documentedModel`). */
  model?: FeeModel | undefined;
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
  /**
   * How many upstream answers at amounts not seen before the fee model gave before seeing them (quotes/fee-model/learn.ts):
   * until one did, a model that merely fits may be the wrong one, so a total the shopper typed is checked with
   * the upstream.
   */
  confirmedBy: number;
  /**
   * Other fee terms the same answers fit (the models they cannot tell apart yet). Where one of them gives other
   * fees than this reference, an amount is priced by the upstream, whose answer rules the wrong ones out.
   */
  rivals: readonly FeeTerms[];
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

const ONE = decimal(1);

/**
 * The processing fee and markup of the amount priced. The documented reading is the fast path (it prices every
 * derived quote); a learned model takes the percentage from the other side of the fees or reckons in EUR.
 */
export function charges(ref: FeeTerms, amount: Decimal, side: Side = 'buy') {
  const model = ref.model;
  if (!model || (model.on === 'priced' && !model.eurPerUnit && model.rounding === HALF_UP)) {
    const fee = amount.times(ref.feePercent).times(HUNDREDTH).plus(ref.baseFee);
    return {
      processing: cents(fee.gt(ref.minFee) ? fee : ref.minFee),
      markup: cents(amount.times(ref.markupPercent).times(HUNDREDTH)),
    };
  }
  const markup = cents(amount.times(ref.markupPercent).times(HUNDREDTH), model.rounding);
  const share = ref.feePercent.times(HUNDREDTH);
  const percentage = (base: Decimal, markupPart: Decimal) =>
    model.on === 'priced'
      ? base.times(share).plus(ref.baseFee)
      : side === 'buy'
        ? share.times(base.plus(markupPart)).plus(ref.baseFee).div(ONE.minus(share))
        : share.times(base.minus(markupPart)).plus(ref.baseFee).div(ONE.plus(share));
  const rate = model.eurPerUnit;
  if (rate) {
    const fee = percentage(cents(amount.times(rate)), cents(markup.times(rate)));
    const eur = cents(fee.gt(ref.minFee) ? fee : ref.minFee, model.rounding);
    return { processing: cents(eur.div(rate)), markup };
  }
  const fee = percentage(amount, markup);
  return { processing: cents(fee.gt(ref.minFee) ? fee : ref.minFee, model.rounding), markup };
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
  const { processing, markup } = charges(terms, basis, side);
  return side === 'buy' ? basis.plus(processing).plus(markup) : basis.minus(processing).minus(markup);
}

/** Cents either side of the linear estimate searched for the exact basis (rounding moves it by at most two). */
const SEARCH_CENTS = 5;

/** A whole number of cents as an amount. */
const centsAmount = (count: number) => decimal((count / 100).toFixed(CENTS));

/**
 * The fee terms as floats, for the estimate only (a starting point: the search then works in exact decimals):
 * the fixed part and the share of the amount the fees come to, as the amount priced's lines.
 */
const estimateTerms = new WeakMap<
  FeeTerms,
  { base: number; min: number; share: number; markup: number; side: Side; reach: number }
>();
function roughTerms(terms: FeeTerms, side: Side) {
  let rough = estimateTerms.get(terms);
  if (!rough || rough.side !== side) {
    const rate = terms.model?.eurPerUnit ? toNumber(terms.model.eurPerUnit) : 1;
    let base = toNumber(terms.baseFee) / rate;
    const min = toNumber(terms.minFee) / rate;
    let fee = toNumber(terms.feePercent) / 100;
    const markup = toNumber(terms.markupPercent) / 100;
    if (terms.model?.on === 'total') {
      // buy: fee = (p(x + m·x) + F) / (1 − p); sell: fee = (p(x − m·x) + F) / (1 + p)
      const divisor = side === 'buy' ? 1 - fee : 1 + fee;
      fee = (fee * (side === 'buy' ? 1 + markup : 1 - markup)) / divisor;
      base /= divisor;
    }
    // A fee reckoned in EUR moves in steps of an EUR cent: the search looks that much further either side.
    const reach = SEARCH_CENTS + (terms.model?.eurPerUnit ? Math.ceil(1 / rate) : 0);
    rough = { base, min, share: fee + markup, markup, side, reach };
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
 * it only says where to look, within SEARCH_CENTS either side (further for a fee reckoned in EUR, which moves by an
 * EUR cent at a time), and every total compared is exact. A buy's total
 * grows by at least a cent with each cent of basis, so from the estimate it walks to the answer (two or three
 * totals, where trying the whole window took eleven; the quote route's profile had this search as its largest
 * part for an amount typed freely). A sell's total can stand still or, when the fee and the markup both round up
 * at one cent, step back: every cent of the window is tried.
 */
export function basisFor(side: Side, terms: FeeTerms, total: Decimal): Decimal | undefined {
  const target = cents(total);
  const { base, min: least, share, markup, reach } = roughTerms(terms, side);
  if (side === 'sell' && !terms.feePercent.plus(terms.markupPercent).lt(100)) return undefined;
  const typed = toNumber(target);
  const estimate =
    side === 'buy'
      ? Math.min((typed - base) / (1 + share), (typed - least) / (1 + markup))
      : Math.max((typed + base) / (1 - share), (typed + least) / (1 - markup));
  const start = Math.floor(estimate * 100);
  const lowest = Math.max(start - reach, 1);
  const highest = start + reach;
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
  const { processing, markup } = charges(ref, excl, 'buy');
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
  const { processing, markup } = charges(ref, incl, 'sell');
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
