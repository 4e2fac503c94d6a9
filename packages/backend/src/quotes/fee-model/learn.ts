/**
 * Learning a combination's fee model from the upstream's own answers. The upstream documents a fee % and a
 * fixed fee per method but not on which amount the percentage applies, in which currency the fee is reckoned or
 * how it rounds (docs/upstream.md#fees-and-rounding), so the model is fitted: each candidate (the documented
 * reading first, then the percentage on the other side of the fees, reckoned in EUR, rounded up or down, with the
 * catalog's fixed fee or one solved from an answer) is tried against every answer kept for the combination, and
 * the first that reproduces them all exactly (processing fee, markup, total, and the latest answer's every field a
 * shopper sees) prices derived quotes. None fits: the combination is priced by the upstream only.
 *
 * Fitted answers rarely tell the models apart (rounding up and to the nearest agree on many amounts), so a model
 * is `confirmedBy` the answers at new amounts it gave before seeing them, and the other models the answers fit
 * are kept as its `rivals`: where any rival gives other fees for an amount, nothing is derived for it; the
 * upstream prices it, and its answer rules the wrong ones out (quotes/engine/, quotes/totals.ts).
 */
import { type Decimal, decimal, digitsOf, toNumber } from '../../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../../schemas/upstream-ramp.ts';
import {
  type Amount,
  catalogTerms,
  charges,
  deriveBuy,
  deriveSell,
  type FeeModel,
  type FeeTerms,
  type Reference,
  relativeDifference,
  type Side,
} from './derive.ts';

/** What one upstream answer says of the fees at one amount (the amount priced), in the fiat. */
export interface FeeObservation {
  basis: Decimal;
  /** The amount priced in EUR, as the answer gave it (what the fiat's rate is read from). */
  eur: Decimal;
  processing: Decimal;
  markup: Decimal;
  /** Buy: what is paid; sell: what is paid out. */
  total: Decimal;
}

/** Answers kept per combination to fit against (the newest first). */
export const OBSERVATIONS_KEPT = 6;

const CENT = decimal('0.01');
const HALF_CENT = decimal('0.005');
const orZero = (value: number | null | undefined) => decimal(value ?? 0);

/** The fiat amount a quote priced: what its limits and fees were reckoned on. */
const basisOf = (side: Side, quote: RampBuyQuote | RampSellQuote) =>
  decimal((side === 'buy' ? quote.fiat_amount_excl_fees_local : quote.fiat_amount_incl_fees_local) ?? 0);

/** What an answer says of its fees; undefined when it does not say them in the fiat (no `_local` amounts). */
export function observe(side: Side, quote: RampBuyQuote | RampSellQuote): FeeObservation | undefined {
  const incl = quote.fiat_amount_incl_fees_local;
  const excl = quote.fiat_amount_excl_fees_local;
  const eur = side === 'buy' ? quote.fiat_amount_excl_fees : quote.fiat_amount_incl_fees;
  if (incl == null || excl == null || eur == null) return undefined;
  const basis = basisOf(side, quote);
  if (!basis.gt(0)) return undefined;
  return {
    basis,
    eur: decimal(eur),
    processing: orZero(quote.processing_fee),
    markup: orZero(quote.markup_fiat_value),
    total: decimal(side === 'buy' ? incl : excl),
  };
}

/** Whether the terms give each answer's processing fee, markup and total. */
function fits(side: Side, terms: FeeTerms, observations: readonly FeeObservation[]): boolean {
  for (const seen of observations) {
    const { processing, markup } = charges(terms, seen.basis, side);
    if (!processing.eq(seen.processing) || !markup.eq(seen.markup)) return false;
    const total =
      side === 'buy' ? seen.basis.plus(processing).plus(markup) : seen.basis.minus(processing).minus(markup);
    if (!total.eq(seen.total)) return false;
  }
  return true;
}

/**
 * The EUR rate of the fiat the answers agree on: each answer's EUR amount is its local amount at the rate,
 * rounded to the cent, so the rate lies in an interval; of the rates every interval holds, the one written with
 * the fewest digits (FX tables are), e.g. 0.8855 rather than 88.55 ÷ 100.00's neighbours.
 */
export function rateOf(observations: readonly FeeObservation[]): Decimal | undefined {
  let low: Decimal | undefined;
  let high: Decimal | undefined;
  for (const { basis, eur } of observations) {
    const lo = eur.minus(HALF_CENT).div(basis);
    const hi = eur.plus(HALF_CENT).div(basis);
    if (!low || lo.gt(low)) low = lo;
    if (!high || hi.lt(high)) high = hi;
  }
  if (!low || !high || low.gt(high) || !high.gt(0)) return undefined;
  for (let digits = 1; digits <= 12; digits++) {
    const candidate = low.round(digits, 3);
    if (candidate.lte(high) && candidate.gt(0)) return candidate;
  }
  return undefined;
}

const ROUNDINGS = [1, 3, 0] as const;
const SIDES_OF_FEES = ['priced', 'total'] as const;

/** The fixed fee an answer implies under a model (before rounding), in the model's currency. */
function solvedFixedFee(side: Side, model: FeeModel, feePercent: Decimal, seen: FeeObservation): Decimal {
  const share = feePercent.div(100);
  const rate = model.eurPerUnit;
  const basis = rate ? seen.basis.times(rate).round(2) : seen.basis;
  const markup = rate ? seen.markup.times(rate).round(2) : seen.markup;
  const processing = rate ? seen.processing.times(rate) : seen.processing;
  if (model.on === 'priced') return processing.minus(basis.times(share));
  return side === 'buy'
    ? processing.times(decimal(1).minus(share)).minus(share.times(basis.plus(markup)))
    : processing.times(decimal(1).plus(share)).minus(share.times(basis.minus(markup)));
}

/** The candidate terms, most likely first: the documented reading, then the rest. */
function* candidates(
  side: Side,
  method: RampMethod,
  fiat: string,
  eurPerUnit: Decimal,
  markupPercent: number,
  newest: FeeObservation,
  rate: Decimal | undefined,
): Generator<FeeTerms> {
  const catalog = catalogTerms(method, fiat, eurPerUnit, markupPercent);
  const near = (fee: Decimal, steps: readonly number[]) =>
    steps.map((step) => fee.round(2).plus(CENT.times(step))).filter((fee) => !fee.lt(0));
  // The documented reading; the catalog's fixed fee converted at a rate read from rounded amounts may be a cent off.
  for (const baseFee of near(catalog.baseFee, [0, -1, 1, -2, 2])) yield { ...catalog, baseFee };
  // The EUR figure charged as the same figure in every fiat (a fixed fee set per currency).
  const figure = decimal(method.fixedFeeByCurrency['EUR'] ?? method.fixedFeeEur);
  for (const on of SIDES_OF_FEES) {
    for (const rounding of ROUNDINGS) {
      for (const inEur of fiat === 'EUR' || !rate ? [false] : [false, true]) {
        const model: FeeModel = { on, eurPerUnit: inEur ? rate : undefined, rounding };
        const solved = solvedFixedFee(side, model, catalog.feePercent, newest);
        // A fixed fee set in the fiat (the figure, or as one answer implies it: the fee reckoned in EUR blurs it by
        // up to an EUR cent in the fiat), reckoned in EUR unrounded.
        const inFiat = () => {
          const blur = Math.min(10, Math.ceil(1 / toNumber(rate as Decimal)));
          const steps = Array.from({ length: 2 * blur + 1 }, (_, index) => index - blur);
          const local = solvedFixedFee(side, { ...model, eurPerUnit: undefined }, catalog.feePercent, newest);
          return [figure, ...near(local, steps)].map((fee) => fee.times(rate as Decimal));
        };
        const fixed = inEur
          ? [...near(decimal(method.fixedFeeEur), [0, -1, 1]), ...inFiat(), ...near(solved, [0, -1, 1])]
          : [...near(catalog.baseFee, [0, -1, 1, -2, 2]), figure, ...near(solved, [0, -1, 1])];
        const minFee = inEur ? decimal(method.minFeeEur) : catalog.minFee;
        for (const baseFee of fixed) yield { ...catalog, baseFee, minFee, model };
      }
    }
  }
}

/** Rivals kept at most (they only shrink as answers come in). */
const RIVALS_KEPT = 24;

const termsKey = (terms: FeeTerms) =>
  `${terms.model?.on}|${terms.model?.eurPerUnit}|${terms.model?.rounding}|${terms.baseFee}|${terms.minFee}|${terms.feePercent}|${terms.markupPercent}`;

const feeTermsOf = ({ baseFee, minFee, feePercent, markupPercent, model }: FeeTerms): FeeTerms => ({
  baseFee,
  minFee,
  feePercent,
  markupPercent,
  model,
});

/** Whether every rival of the reference gives the same fees as the reference for the amount priced `basis`. */
export function unanimousAt(reference: Reference<unknown>, basis: Decimal): boolean {
  if (!reference.rivals.length) return true;
  const ours = charges(reference, basis, reference.side);
  return reference.rivals.every((rival) => {
    const theirs = charges(rival, basis, reference.side);
    return theirs.processing.eq(ours.processing) && theirs.markup.eq(ours.markup);
  });
}

/** What a reference needs from the request that priced it. */
export interface ReferenceContext {
  side: Side;
  fiat: string;
  crypto: string;
  markupPercent: number;
  method: RampMethod;
}

/** Digits after the point a decimal is written with (0.0012 → 4). */
const decimalsOf = (value: Decimal) => Math.max(0, value.c.length - value.e - 1);

/** A reference and the answers its model was fitted to (the newest first). */
export interface Learned<Q> {
  reference: Reference<Q> | undefined;
  observations: FeeObservation[];
}

/**
 * Reads the amount-independent parts of an upstream quote and fits the fee model to it and to the answers kept
 * from before (`history`, at other amounts; the previous model is tried first). When the newest answer and the
 * older ones fit no model together (the upstream changed its fees), the newest alone is fitted. The reference is
 * undefined when no model reproduces the quote (a shape without local amounts, fees the family cannot express):
 * that combination is then priced by the upstream only.
 */
export function learnFrom<Q extends RampBuyQuote | RampSellQuote>(
  quote: Q,
  context: ReferenceContext,
  history: readonly FeeObservation[] = [],
  previous?: FeeTerms,
): Learned<Q> {
  const { side, fiat, method } = context;
  const newest = observe(side, quote);
  if (!newest) return { reference: undefined, observations: [] };
  const eurPerUnit = fiat === 'EUR' ? decimal(1) : newest.eur.div(newest.basis);
  if (!eurPerUnit.gt(0)) return { reference: undefined, observations: [newest] };
  const buyQuote = quote as RampBuyQuote;
  if (side === 'buy' && buyQuote.network_fee_local == null && quote.network_fee)
    return { reference: undefined, observations: [newest] };
  const networkFee =
    side === 'buy'
      ? orZero(buyQuote.network_fee_local ?? (quote.network_fee ? undefined : 0))
      : orZero(quote.network_fee);
  const base = {
    side,
    quote,
    fiat,
    crypto: context.crypto,
    unitPrice: decimal(quote.crypto_unit_price),
    networkFee,
    eurPerUnit,
    cryptoDigits: Math.max(digitsOf(context.crypto, 'crypto'), decimalsOf(decimal(quote.crypto_amount))),
  };
  const others = history.filter((seen) => !seen.basis.eq(newest.basis)).slice(0, OBSERVATIONS_KEPT - 1);
  const all = [newest, ...others];
  const made = (terms: FeeTerms, observations: FeeObservation[], rivals: FeeTerms[], confirmedBy: number) => {
    const reference: Reference<Q> = {
      ...base,
      ...feeTermsOf(terms),
      confirmedBy,
      rivals,
    };
    return reproduces(reference, method) ? { reference, observations } : undefined;
  };
  // The model kept from before still fits: its rivals can only have become fewer.
  if (previous && fits(side, previous, all)) {
    const { rivals = [], confirmedBy = 0 } = previous as Partial<Reference<Q>>;
    // An answer at an amount not seen before that the model gave without seeing it confirms it.
    const predicted = history.some((seen) => seen.basis.eq(newest.basis)) ? 0 : 1;
    const kept = made(
      previous,
      all,
      rivals.filter((rival) => fits(side, rival, all)),
      confirmedBy + predicted,
    );
    if (kept) return kept;
  }
  const sets = others.length ? [all, [newest]] : [[newest]];
  for (const observations of sets) {
    const rate = fiat === 'EUR' ? undefined : rateOf(observations);
    const tried = new Set<string>();
    const fitting: FeeTerms[] = [];
    for (const terms of candidates(side, method, fiat, eurPerUnit, context.markupPercent, newest, rate)) {
      const key = termsKey(terms);
      if (tried.has(key)) continue;
      tried.add(key);
      if (fits(side, terms, observations)) fitting.push(terms);
    }
    for (const [index, terms] of fitting.entries()) {
      const rivals = fitting.filter((_, other) => other !== index).slice(0, RIVALS_KEPT);
      const learned = made(terms, observations, rivals, 0);
      if (learned) return learned;
    }
  }
  return { reference: undefined, observations: [newest] };
}

/** The reference of one upstream quote alone (its model confirmed by that answer only). */
export function learnReference<Q extends RampBuyQuote | RampSellQuote>(
  quote: Q,
  context: ReferenceContext,
): Reference<Q> | undefined {
  return learnFrom(quote, context).reference;
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
