/**
 * A priced quote as the shopper sees it (the `Quote` but for its stamps: where it came from and how long it
 * holds, added when it is sent): the amounts on both sides, the rate and the fee parts in the shopper's fiat.
 * What each amount is: quotes/breakdown.ts.
 */
import { AppError } from '../errors.ts';
import { amountString, ratioString } from '../money.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';
import { buyBreakdown, sellBreakdown } from './breakdown.ts';
import type { EngineQuote } from './engine/types.ts';
import type { Quote } from './schemas.ts';

/** A quote but for where it came from and how long it holds (its stamps). */
export type QuoteView = Omit<Quote, 'source' | 'pricedAt' | 'expiresAt'>;

export function buyView(
  { quote }: EngineQuote<RampBuyQuote>,
  method: RampMethod,
  fiat: string,
  crypto: string,
  input: 'fiat' | 'crypto',
): QuoteView {
  const { amount, paid, processing, network, markup, total } = buyBreakdown(quote, fiat);
  const cryptoCurrency = quote.crypto_currency ?? crypto;
  return {
    side: 'buy',
    input,
    estimate: false,
    fiat: { currency: fiat, amount, total: paid },
    crypto: {
      currency: cryptoCurrency,
      // What arrives: never shown as more than the upstream's own figure.
      amount: amountString(quote.crypto_amount, cryptoCurrency, { kind: 'crypto', mode: 'down' }),
    },
    rate: ratioString(quote.crypto_unit_price, 8),
    fees: { processing, network, markup, total, currency: fiat },
    paymentMethod: quote.payment_method ?? method.slug,
    paymentGroup: quote.payment_group ?? method.group,
  };
}

/** A sell quote in the shopper's fiat; `asked` is the crypto's value the quote was priced at. */
export function sellView(
  { quote }: EngineQuote<RampSellQuote>,
  asked: string,
  method: RampMethod,
  fiat: string,
  crypto: string,
  input: 'fiat' | 'crypto',
  cryptoAmount?: string,
  estimate = input === 'crypto',
): QuoteView {
  const amounts = sellBreakdown(quote, asked, fiat);
  if (!amounts) {
    throw new AppError('QUOTE_UNAVAILABLE', `The ramp service did not say what would arrive in ${fiat}.`);
  }
  const { value, received, processing, network, markup, total } = amounts;
  const cryptoCurrency = quote.crypto_currency ?? crypto;
  return {
    side: 'sell',
    input,
    estimate,
    fiat: { currency: fiat, amount: value, total: received },
    crypto: {
      currency: cryptoCurrency,
      amount:
        cryptoAmount === undefined
          ? // What the shopper must send: never shown as less than the upstream asks.
            amountString(quote.crypto_amount, cryptoCurrency, { kind: 'crypto', mode: 'up' })
          : amountString(cryptoAmount, cryptoCurrency, { kind: 'crypto' }),
    },
    rate: ratioString(quote.crypto_unit_price, 8),
    fees: { processing, network, markup, total, currency: fiat },
    paymentMethod: method.slug,
    paymentGroup: method.group,
  };
}
