/**
 * A sell quote for a crypto amount. The upstream prices sells by fiat amount only, so: with a fresh quote of the
 * combination the engine prices the crypto amount itself, exactly as the upstream's model does; without one, a
 * reference fiat amount is priced first (shared by every shopper for a few seconds), then either the engine can
 * price the crypto amount from it, or the fiat the crypto is worth at the reference's price is derived, its
 * limits checked, and that amount priced, so the fees are the real ones (an estimate: `estimate: true`).
 */
import { amountString, decimal } from '../money.ts';
import type { RampMethod, RampSellQuote } from '../schemas/upstream-ramp.ts';
import type { SellQuoteRequest } from '../upstream/ramp-client.ts';
import type { EngineQuote, QuoteEngine } from './engine/types.ts';
import type { FxRate } from './fx.ts';

/** The fiat value a crypto-amount sell is first priced at, to learn the rate (EUR). */
const SELL_REFERENCE_EUR = 100;

export interface SellByCrypto {
  /** The quote; `worth` is the fiat the crypto was priced at (its value before fees). */
  quote: EngineQuote<RampSellQuote>;
  worth: string;
  /** Priced from a reference, not by the engine's model of this amount: the figures are estimates. */
  estimate: boolean;
}

export interface SellByCryptoInput {
  quotes: Pick<QuoteEngine, 'sell' | 'deriveOnly'>;
  /** The request without its amount (method slug, fiat, crypto, markup). */
  request: Omit<SellQuoteRequest, 'fiatAmount' | 'cryptoAmount'>;
  method: RampMethod;
  cryptoAmount: string;
  /** The fiat's EUR value, if known (the reference amount in the fiat). */
  fx: FxRate | undefined;
  /** Maps what pricing throws to our errors (limits, QUOTE_UNAVAILABLE). */
  refused: (error: unknown) => never;
  /** Thrown when the crypto is worth nothing after the network fee. */
  tooLow: () => Error;
}

export async function sellByCrypto(input: SellByCryptoInput): Promise<SellByCrypto> {
  const { quotes, request, method, cryptoAmount, fx, refused } = input;
  const price = (fiatAmount: string) => quotes.sell({ ...request, fiatAmount }, method).catch(refused);
  const deriveNow = () => {
    try {
      return quotes.deriveOnly('sell', { ...request, cryptoAmount }, method);
    } catch (error) {
      return refused(error);
    }
  };
  const referenceEur = Math.min(
    Math.max(SELL_REFERENCE_EUR, (method.minEur ?? 0) * 1.5),
    method.maxEur ?? Number.POSITIVE_INFINITY,
  );
  let direct = deriveNow();
  const reference = direct
    ? undefined
    : await price(
        fx
          ? amountString(decimal(referenceEur).div(fx.eurPerUnit), request.fiat)
          : String(SELL_REFERENCE_EUR),
      );
  direct ??= deriveNow();
  if (direct || !reference) {
    const derived = direct as EngineQuote<RampSellQuote>;
    return { quote: derived, worth: String(derived.quote.fiat_amount_incl_fees_local), estimate: false };
  }
  // What the crypto is worth after the network fee, at the reference's price: never more than it fetches.
  const sent = decimal(cryptoAmount).minus(reference.quote.network_fee ?? 0);
  const worth = amountString(sent.gt(0) ? sent.times(reference.quote.crypto_unit_price) : 0, request.fiat, {
    mode: 'down',
  });
  if (!decimal(worth).gt(0)) throw input.tooLow();
  return { quote: await price(worth), worth, estimate: true };
}
