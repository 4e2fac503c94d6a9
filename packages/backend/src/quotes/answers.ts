/**
 * Quotes as sent: a view with its stamps (where it came from, when it was priced, when it expires, counted from
 * now like any quote), and the answers given for a total, kept to be given again.
 *
 * Most shoppers type one of a few round amounts, and the answer to the same request is the same while the
 * combination is priced by the same reference (the engine checks it, and counts the repeat as a derived answer)
 * and the rates the limits are checked with have not moved (`fxVersion`). A repeat then skips the limits, the
 * fee model and the view (what it saves: `npm run bench -- profile`). At most ANSWERS_KEPT per method, the
 * least recently asked going first: the round amounts stay, an amount typed once goes soon (more kept costs
 * memory: `npm run bench -- load`).
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import type { RampMethod } from '../schemas/upstream-ramp.ts';
import type { BuyQuoteRequest, SellQuoteRequest } from '../upstream/ramp-client.ts';
import type { EngineQuote, QuoteEngine } from './engine/types.ts';
import type { Quote } from './schemas.ts';
import type { QuoteView } from './views.ts';

/** How long the widget may show a quote before asking again. */
const QUOTE_REFRESH_MS = 30_000;
/** Answers kept per method for totals asked again: a method's round amounts, and room to spare. */
const ANSWERS_KEPT = 32;

/** A derived answer kept for the same request asked again, and what it holds for. */
interface GivenAnswer {
  view: QuoteView;
  /** The engine's token for the reference it was derived from. */
  from: object;
  /** When the reference was priced, as the answer writes it. */
  pricedAt: string;
  /** The amount the engine priced (the request amount whose total was asked). */
  basis: string;
  /** The rates' version when it was given (the limits were checked with them). */
  fx: number;
}

export interface AnswersDeps {
  clock: Clock;
  quotes: Pick<QuoteEngine, 'repeated'>;
  /** Goes up when the rates the limits are checked with have moved (quotes/fx.ts). */
  fxVersion: () => number;
}

/** The key of a total asked for a method: the rest of the request, and the total. */
export const answerKey = (body: { country: string; fiat: string; crypto: string }, total: string) =>
  `${body.country} ${body.fiat} ${body.crypto} ${total}`;

export function createAnswers({ clock, quotes, fxVersion }: AnswersDeps) {
  /** When a quote given now expires, written once per millisecond of the clock (many quotes share one). */
  let stampedAt = Number.NaN;
  let expiry = '';
  const expiresAt = () => {
    const now = clock.now();
    if (now !== stampedAt) {
      stampedAt = now;
      expiry = new Date(now + QUOTE_REFRESH_MS).toISOString();
    }
    return expiry;
  };
  // Written out field by field, not spread: an object of one fixed shape is what JSON.stringify serialises fast, and
  // a repeated answer is mostly this (`npm run bench -- profile`).
  const stamped = (view: QuoteView, source: Quote['source'], pricedAt: string): Quote => ({
    side: view.side,
    input: view.input,
    estimate: view.estimate,
    fiat: view.fiat,
    crypto: view.crypto,
    rate: view.rate,
    fees: view.fees,
    paymentMethod: view.paymentMethod,
    paymentGroup: view.paymentGroup,
    source,
    pricedAt,
    expiresAt: expiresAt(),
  });

  // Per method object: a refreshed method list brings new objects, and their answers start afresh.
  const given = new WeakMap<RampMethod, LRUCache<string, GivenAnswer>>();

  return {
    /** A quote priced now (not kept). */
    priced: (view: QuoteView, quote: Pick<EngineQuote<unknown>, 'source' | 'pricedAt'>): Quote =>
      stamped(view, quote.source, new Date(quote.pricedAt).toISOString()),

    /** The answer given for `key` before, if it still holds (and counted by the engine as derived). */
    again(
      side: 'buy' | 'sell',
      method: RampMethod,
      key: string,
      request: BuyQuoteRequest | SellQuoteRequest,
    ): Quote | undefined {
      const entry = given.get(method)?.get(key);
      if (!entry || entry.fx !== fxVersion()) return undefined;
      if (!quotes.repeated(side, { ...request, fiatAmount: entry.basis }, entry.from, method))
        return undefined;
      return stamped(entry.view, 'derived', entry.pricedAt);
    },

    /** A quote priced for a total, kept for the same total asked again when it was derived. */
    give(method: RampMethod, key: string, quote: EngineQuote<unknown> & { basis: string }, view: QuoteView) {
      const pricedAt = new Date(quote.pricedAt).toISOString();
      if (quote.source === 'derived' && quote.from) {
        let kept = given.get(method);
        if (!kept) {
          kept = new LRUCache({ max: ANSWERS_KEPT });
          given.set(method, kept);
        }
        kept.set(key, { view, from: quote.from, pricedAt, basis: quote.basis, fx: fxVersion() });
      }
      return stamped(view, quote.source, pricedAt);
    },
  };
}

export type Answers = ReturnType<typeof createAnswers>;
