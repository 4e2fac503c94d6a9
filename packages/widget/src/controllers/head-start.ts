/**
 * The quote the element's attributes fully specify (buy, sell), sent by the element itself as it starts, beside the
 * catalog: the quote controller comes with the ramp's code, a round trip later on a page that adds the element
 * after the script has loaded (a single-page app), and would only then ask. The controller takes this answer for
 * its first request when that is the same one (quote-controller.ts `isHeadStartOf`), and asks the backend
 * itself otherwise.
 */
import { getQuote } from '../api/client.ts';
import type { Quote, QuoteBody } from '../api/types.ts';

export interface HeadStart {
  /** What was asked (a buy names a payment method, a sell a payout method). */
  body: QuoteBody;
  answer: Promise<Quote>;
}

/** The element's attributes a quote is made of. */
export interface QuoteAttributes {
  api: string;
  mode: string;
  amount: string;
  fiat: string;
  crypto: string;
  country: string;
  paymentMethod: string;
  payoutMethod: string;
}

/** Sends the quote the attributes specify; undefined (nothing sent) when one is missing or the amount is not plain. */
export function headStart(a: QuoteAttributes): HeadStart | undefined {
  const side = a.mode;
  if (side !== 'buy' && side !== 'sell') return undefined;
  const method = side === 'sell' ? a.payoutMethod : a.paymentMethod;
  const { api, amount, fiat, crypto, country } = a;
  if (!(+amount > 0) || !method || !fiat || !crypto || !country) return undefined;
  const body = {
    [side === 'sell' ? 'payoutMethod' : 'paymentMethod']: method,
    country,
    fiat,
    crypto,
    fiatAmount: amount,
  } as QuoteBody;
  const answer = getQuote(api, side, body);
  // Read by the controller, or by nobody (another request came first): never an unhandled rejection.
  answer.catch(() => {});
  return { body, answer };
}
