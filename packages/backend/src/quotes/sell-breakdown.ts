/**
 * A sell quote's amounts in the shopper's fiat, exact to the minor unit (pure; property-tested).
 *
 * The upstream's non-`_local` amounts, `processing_fee` and `markup_fiat_value` are EUR (facts.md §2.4); the
 * `_local` ones may be missing (the docs' samples carry only the first seven fields). The value is the fiat amount
 * we asked to price; what arrives is `_local`, else the EUR amount at the quote's own rate (asked ÷ EUR value), never
 * an EUR amount labelled with another currency. The network fee is in crypto, shown at the quote's unit price. The
 * processing fee is what is left of value − received after the network fee and the markup, so the parts sum to the
 * total: all of it in integers of the fiat's minor unit, turned into decimal strings only at the end.
 */
import { fiatDigits } from '../schemas/money.ts';
import type { RampSellQuote } from '../schemas/upstream-ramp.ts';

export interface SellBreakdown {
  /** What the crypto sold is worth, fees included. */
  value: string;
  /** What arrives, after fees. */
  received: string;
  processing: string;
  network: string;
  markup: string;
  /** processing + network + markup. */
  total: string;
}

/** An integer count of minor units as a decimal string (`12345`, 2 → `"123.45"`), with no float on the way. */
export function fromMinor(units: number, digits: number): string {
  const negative = units < 0;
  const text = String(Math.abs(units)).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits ? `.${text.slice(-digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Undefined when what arrives cannot be told in `fiat` (the caller refuses the quote). */
export function sellBreakdown(quote: RampSellQuote, asked: number, fiat: string): SellBreakdown | undefined {
  const digits = fiatDigits(fiat);
  const minor = (amount: number) => Math.round(amount * 10 ** digits);
  const eurValue = quote.fiat_amount_incl_fees;
  const localPerEur = fiat === 'EUR' ? 1 : eurValue ? asked / eurValue : undefined;
  const local = (eur: number | null | undefined) =>
    eur === null || eur === undefined || localPerEur === undefined ? undefined : eur * localPerEur;
  const receivedLocal = quote.fiat_amount_excl_fees_local ?? local(quote.fiat_amount_excl_fees);
  if (receivedLocal === undefined) return undefined;
  const value = minor(quote.fiat_amount_incl_fees_local ?? asked);
  const received = minor(receivedLocal);
  const network = minor((quote.network_fee ?? 0) * quote.crypto_unit_price);
  const markup = minor(local(quote.markup_fiat_value) ?? 0);
  const processing = Math.max(0, value - received - network - markup);
  const text = (units: number) => fromMinor(units, digits);
  return {
    value: text(value),
    received: text(received),
    processing: text(processing),
    network: text(network),
    markup: text(markup),
    total: text(processing + network + markup),
  };
}
