/**
 * The pricing pipeline: one call per question, buy and sell as one path parameterised by side.
 *
 * - `quote(side, question)`: the method checked against the country's catalog (methods.ts) and the crypto against
 *   the ramp's list, a repeat answered from the answer memo (answers.ts), the limits checked before any upstream
 *   call (limits.ts), the total solved with fees inside (totals.ts; a sell for a crypto amount, sell-by-crypto.ts),
 *   and the view (views.ts). Markup from config only.
 * - `sessionMethod` and `sessionAmount`: the method a ramp session names, and the amount its page prices so that
 *   the page's total is the shopper's (fees inside).
 *
 * Routes validate and answer; the trip reads route → pricing → engine (engine/) → ramp client, one way down. The
 * exchange rates come from the FX book (fx.ts), which learns them from what the client reports.
 */
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { amountString } from '../money.ts';
import { isOffered, type RampMethod } from '../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, RampClient } from '../upstream/ramp-client.ts';
import { answerKey, createAnswers } from './answers.ts';
import type { QuoteEngine } from './engine/types.ts';
import { OutsideLimits, type Side } from './fee-model/derive.ts';
import type { FxRates } from './fx.ts';
import { createLimits } from './limits.ts';
import { createCryptoCheck, pickMethod } from './methods.ts';
import type { Quote } from './schemas.ts';
import { sellByCrypto } from './sell-by-crypto.ts';
import { type Answer, priceTotal } from './totals.ts';
import { buyView, sellView } from './views.ts';

export interface PricingDeps {
  ramp: Pick<RampClient, 'supported' | 'paymentMethods' | 'payoutMethods'>;
  fx: Pick<FxRates, 'fx' | 'version'>;
  quotes: QuoteEngine;
  clock: Clock;
  markup: number;
}

/** A shopper's question: the method they picked (a payment group to buy, a payout method to sell), one amount. */
export interface QuoteQuestion {
  country: string;
  fiat: string;
  crypto: string;
  method: string;
  fiatAmount?: string | undefined;
  cryptoAmount?: string | undefined;
}

/** The quote, and whether it was given again from the answer memo (`cached`) rather than priced now. */
export interface Priced {
  quote: Quote;
  source: Quote['source'] | 'cached';
}

/** What a ramp session asks to be priced: `fiatAmount` fees inside, with the method it names. */
export interface SessionQuestion {
  side: Side;
  country: string;
  fiat: string;
  crypto: string;
  fiatAmount: string;
}

export function createPricing(deps: PricingDeps) {
  const { ramp, fx, quotes, clock, markup } = deps;
  const limits = createLimits((fiat) => fx.fx(fiat), markup);
  const checkCrypto = createCryptoCheck(() => ramp.supported());
  const answers = createAnswers({ clock, quotes, fxVersion: () => fx.version() });
  const methodsOf = (side: Side, country: string) =>
    side === 'buy' ? ramp.paymentMethods(country) : ramp.payoutMethods(country);

  async function quote(side: Side, question: QuoteQuestion): Promise<Priced> {
    const { fiat, crypto } = question;
    const [methods] = await Promise.all([methodsOf(side, question.country), checkCrypto(crypto)]);
    const method = pickMethod(methods, question.method, fiat, side);
    // A buy is priced in the shopper's region by payment group; a sell by payout method.
    const request =
      side === 'buy'
        ? { method: method.group, region: question.country, fiat, crypto, markup }
        : { method: method.slug, fiat, crypto, markup };
    const refused = (error: unknown) => limits.refusal(error, side, method, fiat);
    const priced = (quote: Quote): Priced => ({ quote, source: quote.source });

    const fiatAmount = question.fiatAmount;
    if (fiatAmount !== undefined) {
      const key = answerKey(question, fiatAmount);
      const again = answers.again(side, method, key, request);
      if (again) return { quote: again, source: 'cached' };
      limits.check(side, method, fiat, fiatAmount);
      const total = await priceTotal(side, { ...request, fiatAmount }, method, {
        quotes,
        eurPerUnit: fx.fx(fiat)?.eurPerUnit,
      }).catch(refused);
      const view =
        side === 'buy'
          ? buyView(total as Answer<'buy'>, method, fiat, crypto, 'fiat')
          : sellView(total as Answer<'sell'>, total.basis, method, fiat, crypto, 'fiat');
      return priced(answers.give(method, key, total, view));
    }
    const cryptoAmount = question.cryptoAmount as string;
    if (side === 'buy') {
      const engineQuote = await quotes
        .buy({ ...(request as BuyQuoteRequest), cryptoAmount }, method)
        .catch(refused);
      return priced(answers.priced(buyView(engineQuote, method, fiat, crypto, 'crypto'), engineQuote));
    }
    const { quote, worth, estimate } = await sellByCrypto({
      quotes,
      request,
      method,
      cryptoAmount,
      fx: fx.fx(fiat),
      refused,
      tooLow: () => limits.tooLow('sell', method, fiat),
    });
    const view = sellView(quote, worth, method, fiat, crypto, 'crypto', cryptoAmount, estimate);
    return priced(answers.priced(view, quote));
  }

  /** The method a ramp session names, if the country offers it for the fiat. */
  async function sessionMethod(
    side: Side,
    country: string,
    wanted: string,
    fiat: string,
  ): Promise<RampMethod> {
    const methods = await methodsOf(side, country);
    const method = methods.find((m) => isOffered(m, wanted) && m.currencies.includes(fiat));
    if (!method) {
      throw new AppError('METHOD_UNAVAILABLE', 'This method is not offered for that country and currency.');
    }
    return method;
  }

  /** The amount the ramp page prices so that its total is the shopper's `fiatAmount` (fees inside). */
  async function sessionAmount(question: SessionQuestion, method: RampMethod): Promise<string> {
    const request = {
      method: question.side === 'buy' ? method.group : method.slug,
      region: question.country,
      fiat: question.fiat,
      crypto: question.crypto,
      markup,
      fiatAmount: question.fiatAmount,
    };
    const pricing = { quotes, eurPerUnit: fx.fx(question.fiat)?.eurPerUnit };
    try {
      const { basis } = await priceTotal(question.side, request, method, pricing);
      return amountString(basis, question.fiat);
    } catch (error) {
      if (error instanceof OutsideLimits)
        throw new AppError(
          error.side === 'low' ? 'AMOUNT_TOO_LOW' : 'AMOUNT_TOO_HIGH',
          `The amount is outside this method's limits; ask for a quote to see them.`,
        );
      throw error;
    }
  }

  return { quote, sessionMethod, sessionAmount };
}

export type Pricing = ReturnType<typeof createPricing>;
