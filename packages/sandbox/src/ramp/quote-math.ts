/**
 * Quote math for on-ramp (buy) and off-ramp (sell) quotes: pure functions of the resolved method, currencies,
 * amounts, markup and time. The model is written out in the README ("Quote model"); every field of a quote can
 * be recomputed from the others and the FX rate.
 */
import type { Crypto, Fiat, MethodSpec } from './catalog.ts';
import { priceIn } from './price-feed.ts';

/**
 * The fields of the off-ramp quote (docs/upstream.md#sell-pricing), which the on-ramp quote has too, in that
 * order.
 */
export interface SellQuote {
  crypto_amount: number;
  crypto_currency: string;
  crypto_unit_price: number;
  /** On-ramp: EUR. Off-ramp: in the crypto, 0 when not applied. */
  network_fee: number;
  fiat_amount_incl_fees: number;
  fiat_amount_excl_fees: number;
  fiat_amount_incl_fees_local: number;
  fiat_amount_excl_fees_local: number;
  fiat_currency: string;
  markup_fiat_value: number;
  processing_fee: number;
}

export interface BuyQuote extends SellQuote {
  network_fee_local: number;
  payment_method: string;
  payment_group: string;
}

export type QuoteResult<T> = { ok: true; quote: T } | { ok: false; message: string };

interface QuoteInput {
  fiat: Fiat;
  crypto: Crypto;
  /** Epoch milliseconds the price feed is read at. */
  at: number;
  /** Percent, 0 to 5 (checked by the caller). */
  markup: number;
  fiatAmount?: number | undefined;
  cryptoAmount?: number | undefined;
}

export interface BuyQuoteInput extends QuoteInput {
  method: MethodSpec & { payment_group: string };
}

export interface SellQuoteInput extends QuoteInput {
  method: MethodSpec;
}

// The small epsilon absorbs binary noise such as 1.005 * 100 = 100.49999999999999.
const scaled = (value: number, decimals: number) => value * 10 ** decimals;
const EPS = 1e-7;
export const round = (value: number, decimals: number) =>
  Math.round(scaled(value, decimals) + Math.sign(value) * EPS) / 10 ** decimals;
export const floorTo = (value: number, decimals: number) =>
  Math.floor(scaled(value, decimals) + EPS) / 10 ** decimals;
export const ceilTo = (value: number, decimals: number) =>
  Math.ceil(scaled(value, decimals) - EPS) / 10 ** decimals;
export const round2 = (value: number) => round(value, 2);

/** Unit prices keep enough digits to be useful: 2 decimals from 1000 up, 4 from 1, else 6. */
export function roundPrice(price: number): number {
  if (price >= 1000) return round(price, 2);
  if (price >= 1) return round(price, 4);
  return round(price, 6);
}

/** A method's fixed fee in the order's fiat: its EUR base fee converted, as the per-currency maps show it. */
export const baseFeeIn = (method: MethodSpec, fiat: Fiat) => round2(method.baseFeeEur / fiat.eur);

function processingFee(method: MethodSpec, fiat: Fiat, amountLocal: number): number {
  const fee = (amountLocal * method.fee) / 100 + baseFeeIn(method, fiat);
  const minimum = method.min_fee ? round2(method.min_fee / fiat.eur) : 0;
  return round2(Math.max(fee, minimum));
}

/**
 * What both directions charge on the fiat amount the method's limits apply to (buy: excl, sell: incl): the
 * amount must lie within the method's EUR limits, then the processing fee and the markup are taken from it.
 */
function chargesOn(
  method: MethodSpec,
  fiat: Fiat,
  amountLocal: number,
  markup: number,
): { ok: true; amountEur: number; fee: number; markupValue: number } | { ok: false; message: string } {
  const amountEur = round2(amountLocal * fiat.eur);
  if (amountEur < method.min_amount)
    return { ok: false, message: `Amount too low: minimum is ${method.min_amount} EUR` };
  if (amountEur > method.max_amount)
    return { ok: false, message: `Amount too high: maximum is ${method.max_amount} EUR` };
  const fee = processingFee(method, fiat, amountLocal);
  return { ok: true, amountEur, fee, markupValue: round2((amountLocal * markup) / 100) };
}

/**
 * On-ramp. The customer pays `fiat_amount_incl_fees_local` = excl + processing_fee + markup_fiat_value and
 * receives `crypto_amount` = (excl − network_fee_local) / crypto_unit_price, rounded down to the coin's decimals.
 * With a crypto amount, excl is the smallest fiat amount (rounded up to the cent) that buys it.
 * Fiat wins when both are given.
 */
export function buyQuote(input: BuyQuoteInput): QuoteResult<BuyQuote> {
  const { method, fiat, crypto, markup } = input;
  const unit = roundPrice(priceIn(crypto, fiat, input.at));
  const networkFee = Number(crypto.network_fee);
  const networkFeeLocal = round2(networkFee / fiat.eur);

  let excl: number;
  let cryptoAmount: number;
  if (input.fiatAmount !== undefined) {
    excl = round2(input.fiatAmount);
    cryptoAmount = floorTo((excl - networkFeeLocal) / unit, crypto.decimals);
  } else if (input.cryptoAmount !== undefined) {
    cryptoAmount = round(input.cryptoAmount, crypto.decimals);
    excl = ceilTo(cryptoAmount * unit + networkFeeLocal, 2);
  } else {
    return { ok: false, message: 'fiat_amount or crypto_amount is required' };
  }

  const charges = chargesOn(method, fiat, excl, markup);
  if (!charges.ok) return charges;
  if (cryptoAmount <= 0) return { ok: false, message: 'Amount too low: it does not cover the network fee' };
  const { amountEur: exclEur, fee, markupValue } = charges;
  const incl = round2(excl + fee + markupValue);
  return {
    ok: true,
    quote: {
      crypto_amount: cryptoAmount,
      crypto_currency: crypto.iso,
      crypto_unit_price: unit,
      network_fee: networkFee,
      network_fee_local: networkFeeLocal,
      fiat_amount_incl_fees: round2(incl * fiat.eur),
      fiat_amount_excl_fees: exclEur,
      fiat_amount_incl_fees_local: incl,
      fiat_amount_excl_fees_local: excl,
      fiat_currency: fiat.iso,
      markup_fiat_value: markupValue,
      processing_fee: fee,
      payment_method: method.slug,
      payment_group: method.payment_group,
    },
  };
}

/** Sell quotes charge the network fee (in crypto) on BTC only; elsewhere it is 0, as in the upstream sample. */
export const sellNetworkFeeApplies = (crypto: Crypto) => crypto.iso === 'BTC';

/**
 * Off-ramp. The crypto sold is worth `fiat_amount_incl_fees_local`; the customer is paid
 * `fiat_amount_excl_fees_local` = incl − processing_fee − markup_fiat_value, and sends
 * `crypto_amount` = incl / crypto_unit_price + network_fee (rounded up to the coin's decimals).
 * With a crypto amount, incl is (crypto_amount − network_fee) × price rounded down to the cent.
 * Crypto wins when both are given (as the sell widget documents for its own parameters).
 */
export function sellQuote(input: SellQuoteInput): QuoteResult<SellQuote> {
  const { method, fiat, crypto, markup } = input;
  const unit = roundPrice(priceIn(crypto, fiat, input.at));
  const networkFee = sellNetworkFeeApplies(crypto)
    ? ceilTo(Number(crypto.network_fee) / fiat.eur / unit, crypto.decimals)
    : 0;

  let incl: number;
  let cryptoAmount: number;
  if (input.cryptoAmount !== undefined) {
    cryptoAmount = round(input.cryptoAmount, crypto.decimals);
    incl = floorTo((cryptoAmount - networkFee) * unit, 2);
  } else if (input.fiatAmount !== undefined) {
    incl = round2(input.fiatAmount);
    cryptoAmount = ceilTo(incl / unit + networkFee, crypto.decimals);
  } else {
    return { ok: false, message: 'fiat_amount or crypto_amount is required' };
  }

  const charges = chargesOn(method, fiat, incl, markup);
  if (!charges.ok) return charges;
  const { amountEur: inclEur, fee, markupValue } = charges;
  const excl = round2(incl - fee - markupValue);
  if (excl <= 0) return { ok: false, message: 'Amount too low: it does not cover the fees' };
  return {
    ok: true,
    quote: {
      crypto_amount: cryptoAmount,
      crypto_currency: crypto.iso,
      crypto_unit_price: unit,
      network_fee: networkFee,
      fiat_amount_incl_fees: inclEur,
      fiat_amount_excl_fees: round2(excl * fiat.eur),
      fiat_amount_incl_fees_local: incl,
      fiat_amount_excl_fees_local: excl,
      fiat_currency: fiat.iso,
      markup_fiat_value: markupValue,
      processing_fee: fee,
    },
  };
}
