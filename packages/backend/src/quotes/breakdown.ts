/**
 * A quote's amounts in the shopper's fiat, exact and rounded per currency in money.ts (pure; property-tested).
 *
 * Buy: the upstream's `_local` amounts, `network_fee_local`, `processing_fee` and `markup_fiat_value` are in the
 * request's fiat (docs/upstream.md#buy-pricing). Each part is rounded to the fiat's digits, and the fee total is their exact sum.
 *
 * Sell: the non-`_local` amounts, `processing_fee` and `markup_fiat_value` are EUR (docs/upstream.md#sell-pricing); the `_local` ones
 * may be missing (the docs' samples carry only the first seven fields). The value is the fiat amount we asked to
 * price; what arrives is `_local`, else the EUR amount at the quote's own rate (asked ÷ EUR value), never an EUR
 * amount labelled with another currency. The network fee is in crypto, shown at the quote's unit price. The
 * processing fee is what is left of value − received after the network fee and the markup, so the parts sum to the
 * total and the total is exactly value − received.
 */
import { amountString, type Decimal, decimal, decimalOrUndefined, round } from '../money.ts';
import type { RampBuyQuote, RampSellQuote } from '../schemas/upstream-ramp.ts';

export interface Fees {
  processing: string;
  network: string;
  markup: string;
  /** processing + network + markup, exactly. */
  total: string;
}

export interface BuyBreakdown extends Fees {
  /** What the crypto costs before fees. */
  amount: string;
  /** What the shopper pays, fees included. */
  paid: string;
}

export interface SellBreakdown extends Fees {
  /** What the crypto sold is worth, fees included. */
  value: string;
  /** What arrives, after fees. */
  received: string;
}

/** Three fee parts, each rounded to the fiat's digits, and their exact sum. */
function fees(processing: Decimal, network: Decimal, markup: Decimal, fiat: string): Fees {
  const [p, n, m] = [processing, network, markup].map((part) => round(part, fiat)) as [
    Decimal,
    Decimal,
    Decimal,
  ];
  return {
    processing: amountString(p, fiat),
    network: amountString(n, fiat),
    markup: amountString(m, fiat),
    total: amountString(p.plus(n).plus(m), fiat),
  };
}

const orZero = (value: number | null | undefined) => decimalOrUndefined(value) ?? decimal(0);

export function buyBreakdown(quote: RampBuyQuote, fiat: string): BuyBreakdown {
  return {
    amount: amountString(quote.fiat_amount_excl_fees_local, fiat),
    paid: amountString(quote.fiat_amount_incl_fees_local, fiat),
    ...fees(
      orZero(quote.processing_fee),
      orZero(quote.network_fee_local),
      orZero(quote.markup_fiat_value),
      fiat,
    ),
  };
}

/** Undefined when what arrives cannot be told in `fiat` (the caller refuses the quote). */
export function sellBreakdown(quote: RampSellQuote, asked: string, fiat: string): SellBreakdown | undefined {
  const eurValue = decimalOrUndefined(quote.fiat_amount_incl_fees);
  const localPerEur =
    fiat === 'EUR' ? decimal(1) : eurValue && !eurValue.eq(0) ? decimal(asked).div(eurValue) : undefined;
  const local = (eur: number | null | undefined) => {
    const amount = decimalOrUndefined(eur);
    return amount && localPerEur ? amount.times(localPerEur) : undefined;
  };
  const receivedLocal =
    decimalOrUndefined(quote.fiat_amount_excl_fees_local) ?? local(quote.fiat_amount_excl_fees);
  if (receivedLocal === undefined) return undefined;
  const value = round(decimalOrUndefined(quote.fiat_amount_incl_fees_local) ?? asked, fiat);
  const received = round(receivedLocal, fiat);
  const network = round(orZero(quote.network_fee).times(quote.crypto_unit_price), fiat);
  const markup = round(local(quote.markup_fiat_value) ?? 0, fiat);
  const rest = value.minus(received).minus(network).minus(markup);
  const processing = rest.gt(0) ? rest : decimal(0);
  return {
    value: amountString(value, fiat),
    received: amountString(received, fiat),
    ...fees(processing, network, markup, fiat),
  };
}
