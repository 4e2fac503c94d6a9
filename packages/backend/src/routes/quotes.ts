/**
 * `POST /api/quotes/buy` and `/sell`: validated input, the method checked against the country's catalog
 * (quotes/methods.ts), limits checked before any upstream call (quotes/limits.ts), markup from config only, and
 * one normalised quote out (quotes/views.ts, quotes/answers.ts).
 *
 * Fees inside: `fiatAmount` is what the shopper pays (buy) or receives (sell); the amount the upstream is asked
 * to price is solved from it (quotes/totals.ts). A sell for a crypto amount: quotes/sell-by-crypto.ts.
 */
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { QuoteSource } from '../metrics/metrics.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { answerKey, createAnswers } from '../quotes/answers.ts';
import { createLimits } from '../quotes/limits.ts';
import { createCryptoCheck, pickMethod } from '../quotes/methods.ts';
import { buyQuoteBody, type Quote, quoteSchema, sellQuoteBody } from '../quotes/schemas.ts';
import { sellByCrypto } from '../quotes/sell-by-crypto.ts';
import { priceTotal } from '../quotes/totals.ts';
import { buyView, sellView } from '../quotes/views.ts';

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

export function quoteRoutes(deps: AppDeps) {
  const { ramp, fx, config, clock, quotes, metrics } = deps;
  const limits = createLimits((fiat) => fx.fx(fiat), config.markup);
  const checkCrypto = createCryptoCheck(() => ramp.supported());
  const answers = createAnswers({ clock, quotes, fxVersion: () => fx.version() });
  /** Counts the answer by where it came from (a repeat given from `answers` is `cached`). */
  const counted = <Q extends Quote>(side: 'buy' | 'sell', quote: Q, source: QuoteSource = quote.source) => {
    metrics.quoteAnswered(side, source);
    return quote;
  };

  const routes = openApiRoutes();
  routes.use('*', async (c, next) => {
    await next();
    // A shopper turned away: by the error code the answer carries (a bounded list, errors.ts).
    if (c.error && metrics.enabled) {
      const code = c.error instanceof AppError ? c.error.code : 'INTERNAL';
      metrics.quoteRefused(c.req.path.endsWith('/sell') ? 'sell' : 'buy', code);
    }
  });
  return routes
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
      const refused = (error: unknown) => limits.refusal(error, 'buy', method, body.fiat);
      const fiatAmount = body.fiatAmount;
      if (fiatAmount !== undefined) {
        const key = answerKey(body, fiatAmount);
        const again = answers.again('buy', method, key, request);
        if (again) return c.json(counted('buy', again, 'cached'), 200);
        limits.check('buy', method, body.fiat, fiatAmount);
        const quote = await priceTotal('buy', { ...request, fiatAmount }, method, {
          quotes,
          eurPerUnit: fx.fx(body.fiat)?.eurPerUnit,
        }).catch(refused);
        return c.json(
          counted(
            'buy',
            answers.give(method, key, quote, buyView(quote, method, body.fiat, body.crypto, 'fiat')),
          ),
          200,
        );
      }
      const quote = await quotes.buy({ ...request, cryptoAmount: body.cryptoAmount }, method).catch(refused);
      return c.json(
        counted('buy', answers.priced(buyView(quote, method, body.fiat, body.crypto, 'crypto'), quote)),
        200,
      );
    })
    .openapi(sellRoute, async (c) => {
      const body = c.req.valid('json');
      const [methods] = await Promise.all([ramp.payoutMethods(body.country), checkCrypto(body.crypto)]);
      const method = pickMethod(methods, body.payoutMethod, body.fiat, 'sell');
      const request = { method: method.slug, fiat: body.fiat, crypto: body.crypto, markup: config.markup };
      const refused = (error: unknown) => limits.refusal(error, 'sell', method, body.fiat);

      if (body.fiatAmount !== undefined) {
        const key = answerKey(body, body.fiatAmount);
        const again = answers.again('sell', method, key, request);
        if (again) return c.json(counted('sell', again, 'cached'), 200);
        limits.check('sell', method, body.fiat, body.fiatAmount);
        const quote = await priceTotal('sell', { ...request, fiatAmount: body.fiatAmount }, method, {
          quotes,
          eurPerUnit: fx.fx(body.fiat)?.eurPerUnit,
        }).catch(refused);
        const view = sellView(quote, quote.basis, method, body.fiat, body.crypto, 'fiat');
        return c.json(counted('sell', answers.give(method, key, quote, view)), 200);
      }
      const cryptoAmount = body.cryptoAmount as string;
      const { quote, worth, estimate } = await sellByCrypto({
        quotes,
        request,
        method,
        cryptoAmount,
        fx: fx.fx(body.fiat),
        refused,
        tooLow: () => limits.tooLow('sell', method, body.fiat),
      });
      const view = sellView(quote, worth, method, body.fiat, body.crypto, 'crypto', cryptoAmount, estimate);
      return c.json(counted('sell', answers.priced(view, quote)), 200);
    });
}
