/**
 * `POST /api/quotes/buy` and `/sell`: validated input, the method checked against the country's catalog, limits
 * checked before any upstream call, markup from config only, and one normalised quote out.
 *
 * Fees inside: `fiatAmount` is what the shopper pays (buy) or receives (sell); the amount the upstream is asked
 * to price is solved from it (quotes/totals.ts). The limits are checked on that total: the method's EUR limits
 * apply to the amount before fees (buy) or the crypto's value (sell), turned into totals in the fiat.
 *
 * FX for the limit check (method limits are EUR): EUR is exact; other fiats use the rate the ramp's own
 * quotes revealed (`fiat_amount_excl_fees` EUR ÷ `_local`, learned from every quote in that fiat), else a
 * rough rate from the catalog's per-currency fee tables, checked with a tolerance so a rough rate never refuses
 * a valid amount. With no rate at all the upstream checks the limits and its refusal is mapped to the same codes.
 */
import { createRoute } from '@hono/zod-openapi';
import type { Context, TypedResponse } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { amountString, decimal, positiveDecimal, ratioString } from '../money.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { buyBreakdown, sellBreakdown } from '../quotes/breakdown.ts';
import { OutsideLimits } from '../quotes/derive.ts';
import type { EngineQuote } from '../quotes/engine.ts';
import { keep, recall } from '../quotes/recently-used.ts';
import { priceTotal, totalLimits } from '../quotes/totals.ts';
import { countryCode, cryptoCode, currencyCode, methodId } from '../schemas/codes.ts';
import {
  isOffered,
  type RampBuyQuote,
  type RampMethod,
  type RampSellQuote,
} from '../schemas/upstream-ramp.ts';
import { refusalKind, UpstreamRefusal } from '../upstream/http.ts';
import type { BuyQuoteRequest, SellQuoteRequest } from '../upstream/ramp-client.ts';

/** How long the widget may show a quote before asking again. */
const QUOTE_REFRESH_MS = 30_000;
/** A rough FX rate (from fee tables) refuses only amounts this far outside the limits. */
const ROUGH_FX_TOLERANCE = 0.05;
/** The fiat value a crypto-amount sell is first priced at, to learn the rate (EUR). */
const SELL_REFERENCE_EUR = 100;
/** Answers kept per method for totals asked again (see `given`): a method's round amounts, and room to spare. */
const ANSWERS_KEPT = 32;

type AnyQuoteRequest = BuyQuoteRequest | SellQuoteRequest;

/** A derived answer kept for the same request asked again: its JSON, and what it holds for. */
interface GivenAnswer {
  /** The answer's JSON up to its stamps (see `quoteJson`): the same for every repeat. */
  head: string;
  /** The engine's token for the reference it was derived from. */
  from: object;
  /** When the reference was priced, as the answer writes it. */
  pricedAt: string;
  /** The amount the engine priced (the request amount whose total was asked). */
  basis: string;
  /** The ramp's rates version when it was given (the limits were checked with them). */
  fx: number;
}

/** A quote but for where it came from and how long it holds (the stamps, last in its JSON). */
type QuoteView = Omit<Quote, 'source' | 'pricedAt' | 'expiresAt'>;

const exactlyOneAmount = <T extends { fiatAmount?: string | undefined; cryptoAmount?: string | undefined }>(
  body: T,
  ctx: z.RefinementCtx,
) => {
  if ((body.fiatAmount === undefined) === (body.cryptoAmount === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [body.fiatAmount === undefined ? 'fiatAmount' : 'cryptoAmount'],
      message: 'give exactly one of fiatAmount and cryptoAmount',
    });
  }
};

const quoteFields = {
  country: countryCode,
  fiat: currencyCode,
  crypto: cryptoCode,
  fiatAmount: positiveDecimal
    .optional()
    .describe(
      'What the shopper typed, in `fiat`, fees inside: buy, what they pay in total; sell, what they receive ' +
        '(a decimal string)',
    ),
  cryptoAmount: positiveDecimal.optional().describe('What the shopper typed, in `crypto` (a decimal string)'),
};

// z.object drops unknown keys: a client-sent `markup` or `price` never reaches the handler.
export const buyQuoteBody = z
  .object({ paymentMethod: methodId.describe('Payment group from the catalog'), ...quoteFields })
  .superRefine(exactlyOneAmount)
  .meta({ id: 'BuyQuoteBody' });
export const sellQuoteBody = z
  .object({ payoutMethod: methodId.describe('Payout method id from the catalog'), ...quoteFields })
  .superRefine(exactlyOneAmount)
  .meta({ id: 'SellQuoteBody' });

export const quoteSchema = z
  .object({
    side: z.enum(['buy', 'sell']),
    input: z.enum(['fiat', 'crypto']),
    estimate: z.boolean(),
    fiat: z.object({
      currency: z.string(),
      amount: z
        .string()
        .describe("What the ramp prices: buy, the amount before fees; sell, the crypto's value before fees"),
      total: z
        .string()
        .describe(
          'What the shopper pays (buy) or receives (sell), fees inside: the `fiatAmount` asked for (on a buy, ' +
            'a cent or two less where fee rounding steps over it); for a crypto amount, its true total',
        ),
    }),
    crypto: z.object({ currency: z.string(), amount: z.string() }),
    rate: z.string().describe('Price of 1 crypto unit in fiat'),
    fees: z.object({
      processing: z.string(),
      network: z.string(),
      markup: z.string(),
      total: z.string(),
      currency: z.string(),
    }),
    paymentMethod: z.string(),
    paymentGroup: z.string(),
    source: z
      .enum(['upstream', 'derived'])
      .describe(
        "`upstream`: the ramp priced this amount. `derived`: computed with the ramp's fee model from its latest " +
          'quote for the same method, country, fiat and crypto (the same price model; the ramp page quotes the ' +
          'final price).',
      ),
    pricedAt: z
      .string()
      .describe('When the ramp priced the quote (for a derived quote: the quote it came from)'),
    expiresAt: z.string(),
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof quoteSchema>;

const quoteResponses = {
  200: jsonResponse(quoteSchema, 'The quote'),
  ...errorResponses(
    'BAD_REQUEST',
    'VALIDATION_FAILED',
    'METHOD_UNAVAILABLE',
    'AMOUNT_TOO_LOW',
    'AMOUNT_TOO_HIGH',
    'QUOTE_UNAVAILABLE',
    'UPSTREAM_ERROR',
    'UPSTREAM_BUSY',
    'UPSTREAM_TIMEOUT',
  ),
};

const buyRoute = createRoute({
  method: 'post',
  path: '/buy',
  tags: ['Ramp'],
  summary: 'Price buying crypto with fiat',
  description:
    'Exactly one of fiatAmount/cryptoAmount. Limits are checked before any upstream call. Markup comes from ' +
    'MARKUP; a client-sent markup or price is ignored.',
  request: { body: jsonBody(buyQuoteBody) },
  responses: quoteResponses,
});

const sellRoute = createRoute({
  method: 'post',
  path: '/sell',
  tags: ['Ramp'],
  summary: 'Price selling crypto for fiat',
  description:
    'The upstream prices sells by fiat amount: a quote for a crypto amount is derived from a reference quote ' +
    'and marked `estimate: true`.',
  request: { body: jsonBody(sellQuoteBody) },
  responses: quoteResponses,
});

/** The method a shopper picked, if the country offers it enabled and it takes the fiat. */
function pickMethod(
  methods: readonly RampMethod[],
  id: string,
  fiat: string,
  side: 'buy' | 'sell',
): RampMethod {
  const candidates = methods.filter((method) => isOffered(method, id));
  if (candidates.length === 0) {
    throw new AppError(
      'METHOD_UNAVAILABLE',
      `The ${side === 'buy' ? 'payment' : 'payout'} method is not offered in this country.`,
    );
  }
  const method = candidates.find((candidate) => candidate.currencies.includes(fiat));
  if (!method) throw new AppError('METHOD_UNAVAILABLE', `The method does not take ${fiat}.`);
  return method;
}

interface Limits {
  details: {
    min: string | null;
    max: string | null;
    currency: string;
    minEur: string | null;
    maxEur: string | null;
  };
}

/**
 * The method's limits: in EUR on the amount the upstream prices (`minEur`, `maxEur`), and as totals the shopper
 * may type in their fiat when a rate is known (`min`, `max`; quotes/totals.ts), else the EUR ones.
 */
function limitDetails(
  side: 'buy' | 'sell',
  method: RampMethod,
  fiat: string,
  eurPerUnit: number | undefined,
  markup: number,
): Limits['details'] {
  const eur = (limit: number | null) => (limit === null ? null : amountString(limit, 'EUR'));
  if (eurPerUnit === undefined)
    return {
      min: eur(method.minEur),
      max: eur(method.maxEur),
      currency: 'EUR',
      minEur: eur(method.minEur),
      maxEur: eur(method.maxEur),
    };
  const totals = totalLimits(side, method, fiat, decimal(eurPerUnit), markup);
  return {
    min: totals.min && amountString(totals.min, fiat, { mode: 'up' }),
    max: totals.max && amountString(totals.max, fiat, { mode: 'down' }),
    currency: fiat,
    minEur: eur(method.minEur),
    maxEur: eur(method.maxEur),
  };
}

/** AMOUNT_TOO_LOW / AMOUNT_TOO_HIGH with the limits in `details`. */
function outOfLimits(side: 'low' | 'high', details: Limits['details']): AppError {
  const [code, bound, limit] =
    side === 'low'
      ? (['AMOUNT_TOO_LOW', 'below', 'minimum'] as const)
      : (['AMOUNT_TOO_HIGH', 'above', 'maximum'] as const);
  const value = side === 'low' ? details.min : details.max;
  return new AppError(code, `The amount is ${bound} the method's ${limit} of ${value} ${details.currency}.`, {
    details,
  });
}
const tooLow = (details: Limits['details']) => outOfLimits('low', details);
const tooHigh = (details: Limits['details']) => outOfLimits('high', details);

export function quoteRoutes(deps: AppDeps) {
  const { ramp, config, clock, quotes } = deps;

  const details = (side: 'buy' | 'sell', method: RampMethod, fiat: string) =>
    limitDetails(side, method, fiat, ramp.fx(fiat)?.eurPerUnit, config.markup);

  /** Refuses a total outside the method's limits, when a rate tells us (see the file comment). */
  function checkLimits(side: 'buy' | 'sell', method: RampMethod, fiat: string, amount: string): void {
    const fx = ramp.fx(fiat);
    if (!fx) return;
    const limits = totalLimits(side, method, fiat, decimal(fx.eurPerUnit), config.markup);
    const value = decimal(amount);
    const slack = fx.exact ? 0 : ROUGH_FX_TOLERANCE;
    // The details (limits in the shopper's fiat) only for a refusal: most amounts pass.
    if (limits.min && value.lt(limits.min.times(1 - slack))) throw tooLow(details(side, method, fiat));
    if (limits.max && value.gt(limits.max.times(1 + slack))) throw tooHigh(details(side, method, fiat));
  }

  /** An upstream refusal to price: its limits → our limit codes, anything else → QUOTE_UNAVAILABLE. */
  function mapRefusal(error: unknown, side: 'buy' | 'sell', method: RampMethod, fiat: string): never {
    if (error instanceof OutsideLimits) {
      throw error.side === 'low' ? tooLow(details(side, method, fiat)) : tooHigh(details(side, method, fiat));
    }
    if (error instanceof UpstreamRefusal && error.upstreamStatus < 500) {
      const kind = refusalKind(error.upstreamMessage);
      if (kind === 'amount_too_low') throw tooLow(details(side, method, fiat));
      if (kind === 'amount_too_high') throw tooHigh(details(side, method, fiat));
      throw new AppError(
        'QUOTE_UNAVAILABLE',
        'This quote is not available right now; try another amount or method.',
      );
    }
    throw error;
  }

  /** A crypto the ramp does not list is the client's mistake (422), not a refused quote (502). */
  /** The codes the ramp lists (iso and tags, upper case), once per `get_supported` answer. */
  const cryptoCodes = new WeakMap<object, Set<string>>();
  async function checkCrypto(code: string): Promise<void> {
    const supported = await ramp.supported();
    let codes = cryptoCodes.get(supported);
    if (!codes) {
      codes = new Set(
        supported.supported_cryptos.flatMap((crypto) =>
          [crypto.iso, ...(crypto.tags ?? [])].map((tag) => tag.toUpperCase()),
        ),
      );
      cryptoCodes.set(supported, codes);
    }
    if (!codes.has(code)) {
      throw new AppError('VALIDATION_FAILED', 'crypto: is not supported', {
        issues: [{ path: 'crypto', message: 'is not supported' }],
      });
    }
  }

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

  /**
   * A quote's JSON: the view, then where it came from (a derived one: the quote it came from) and when it expires,
   * counted from now like any quote. The stamps are written last onto the view's JSON (`head`), so a repeat sends
   * the kept head with new stamps instead of serialising the quote again.
   */
  const headOf = (view: QuoteView) => JSON.stringify(view).slice(0, -1);
  const quoteJson = (head: string, source: Quote['source'], pricedAt: string) =>
    `${head},"source":"${source}","pricedAt":"${pricedAt}","expiresAt":"${expiresAt()}"}`;
  const sendQuote = (c: Context, json: string) =>
    c.newResponse(json, 200, { 'Content-Type': 'application/json' }) as Response &
      TypedResponse<Quote, 200, 'json'>;
  const priced = (c: Context, view: QuoteView, quote: Pick<EngineQuote<unknown>, 'source' | 'pricedAt'>) =>
    sendQuote(c, quoteJson(headOf(view), quote.source, new Date(quote.pricedAt).toISOString()));

  /**
   * Answers given for a total, by method and the rest of the request: most shoppers type one of a few round
   * amounts, and the answer to the same request is the same while the combination is priced by the same
   * reference (the engine checks it, and counts the repeat as a derived answer) and the rates the limits are
   * checked with have not moved (`ramp.fxVersion`). The limits, the fee model and the view are then skipped: a
   * repeated quote's CPU went from about 188 to 142 µs (the bench's mix of round amounts, closed loop). At most
   * ANSWERS_KEPT per method, the least recently asked first: the round amounts stay, and an amount typed once goes
   * soon (256 kept the CLI's RSS at 1,000/s some 5 MB higher).
   */
  const given = new WeakMap<RampMethod, Map<string, GivenAnswer>>();
  const givenKey = (body: { country: string; fiat: string; crypto: string }, total: string) =>
    `${body.country} ${body.fiat} ${body.crypto} ${total}`;

  function givenAgain(side: 'buy' | 'sell', method: RampMethod, key: string, request: AnyQuoteRequest) {
    // Recalled before it is checked: one that no longer holds is replaced by the answer priced instead.
    const kept = given.get(method);
    const entry = kept && recall(kept, key);
    if (!entry || entry.fx !== ramp.fxVersion()) return undefined;
    if (!quotes.repeated(side, { ...request, fiatAmount: entry.basis }, entry.from, method)) return undefined;
    return quoteJson(entry.head, 'derived', entry.pricedAt);
  }

  /** Answers with a quote priced for a total, kept for the same total asked again when it was derived. */
  function give(
    c: Context,
    method: RampMethod,
    key: string,
    quote: EngineQuote<unknown> & { basis: string },
    view: QuoteView,
  ) {
    const head = headOf(view);
    const pricedAt = new Date(quote.pricedAt).toISOString();
    if (quote.source === 'derived' && quote.from) {
      let kept = given.get(method);
      if (!kept) {
        kept = new Map();
        given.set(method, kept);
      }
      const { from, basis } = quote;
      keep(kept, key, { head, from, pricedAt, basis, fx: ramp.fxVersion() }, ANSWERS_KEPT);
    }
    return sendQuote(c, quoteJson(head, quote.source, pricedAt));
  }

  function buyView(
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

  /** A sell quote in the shopper's fiat (see quotes/breakdown.ts for what each amount is). */
  function sellView(
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

  return openApiRoutes()
    .openapi(buyRoute, async (c) => {
      const body = c.req.valid('json');
      const [methods] = await Promise.all([ramp.paymentMethods(body.country), checkCrypto(body.crypto)]);
      const method = pickMethod(methods, body.paymentMethod, body.fiat, 'buy');
      const request = {
        method: method.group,
        region: body.country,
        fiat: body.fiat,
        crypto: body.crypto,
        markup: config.markup,
      };
      const refused = (error: unknown) => mapRefusal(error, 'buy', method, body.fiat);
      const fiatAmount = body.fiatAmount;
      if (fiatAmount !== undefined) {
        const key = givenKey(body, fiatAmount);
        const again = givenAgain('buy', method, key, request);
        if (again) return sendQuote(c, again);
        checkLimits('buy', method, body.fiat, fiatAmount);
        const quote = await priceTotal('buy', { ...request, fiatAmount }, method, {
          quotes,
          eurPerUnit: ramp.fx(body.fiat)?.eurPerUnit,
        }).catch(refused);
        return give(c, method, key, quote, buyView(quote, method, body.fiat, body.crypto, 'fiat'));
      }
      const quote = await quotes.buy({ ...request, cryptoAmount: body.cryptoAmount }, method).catch(refused);
      return priced(c, buyView(quote, method, body.fiat, body.crypto, 'crypto'), quote);
    })
    .openapi(sellRoute, async (c) => {
      const body = c.req.valid('json');
      const [methods] = await Promise.all([ramp.payoutMethods(body.country), checkCrypto(body.crypto)]);
      const method = pickMethod(methods, body.payoutMethod, body.fiat, 'sell');
      const request = { method: method.slug, fiat: body.fiat, crypto: body.crypto, markup: config.markup };
      const refused = (error: unknown) => mapRefusal(error, 'sell', method, body.fiat);
      const price = (fiatAmount: string) => quotes.sell({ ...request, fiatAmount }, method).catch(refused);

      if (body.fiatAmount !== undefined) {
        const key = givenKey(body, body.fiatAmount);
        const again = givenAgain('sell', method, key, request);
        if (again) return sendQuote(c, again);
        checkLimits('sell', method, body.fiat, body.fiatAmount);
        const quote = await priceTotal('sell', { ...request, fiatAmount: body.fiatAmount }, method, {
          quotes,
          eurPerUnit: ramp.fx(body.fiat)?.eurPerUnit,
        }).catch(refused);
        return give(
          c,
          method,
          key,
          quote,
          sellView(quote, quote.basis, method, body.fiat, body.crypto, 'fiat'),
        );
      }
      // A crypto amount: price a reference fiat amount (shared by every shopper for a few seconds), derive the
      // fiat the crypto is worth, check the limits, then price that amount so the fees are the real ones.
      const cryptoAmount = body.cryptoAmount as string;
      // With a fresh quote of this combination (or once the reference below is priced), the engine prices the
      // crypto amount itself, exactly as the upstream's model does.
      const deriveNow = () => {
        try {
          return quotes.deriveOnly('sell', { ...request, cryptoAmount }, method);
        } catch (error) {
          return refused(error);
        }
      };
      const fx = ramp.fx(body.fiat);
      const referenceEur = Math.min(
        Math.max(SELL_REFERENCE_EUR, (method.minEur ?? 0) * 1.5),
        method.maxEur ?? Number.POSITIVE_INFINITY,
      );
      let direct = deriveNow();
      const reference = direct
        ? undefined
        : await price(
            fx
              ? amountString(decimal(referenceEur).div(fx.eurPerUnit), body.fiat)
              : String(SELL_REFERENCE_EUR),
          );
      direct ??= deriveNow();
      if (direct || !reference) {
        const derived = direct as EngineQuote<RampSellQuote>;
        const worth = String(derived.quote.fiat_amount_incl_fees_local);
        return priced(
          c,
          sellView(derived, worth, method, body.fiat, body.crypto, 'crypto', cryptoAmount, false),
          derived,
        );
      }
      // What the crypto is worth after the network fee, at the reference's price: never more than it fetches.
      const sent = decimal(cryptoAmount).minus(reference.quote.network_fee ?? 0);
      const worth = amountString(sent.gt(0) ? sent.times(reference.quote.crypto_unit_price) : 0, body.fiat, {
        mode: 'down',
      });
      if (!decimal(worth).gt(0)) throw tooLow(details('sell', method, body.fiat));
      const quote = await price(worth);
      return priced(c, sellView(quote, worth, method, body.fiat, body.crypto, 'crypto', cryptoAmount), quote);
    });
}
