/**
 * `POST /api/quotes/buy` and `/sell`: the input validated, the question asked of the pricing pipeline
 * (quotes/pricing.ts: the method and crypto checks, the limits, the memo, the total with fees inside, the view),
 * and one normalised quote out, counted by where it came from.
 */
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import type { Priced } from '../quotes/pricing.ts';
import { buyQuoteBody, quoteSchema, sellQuoteBody } from '../quotes/schemas.ts';

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
  const { pricing, metrics } = deps;
  /** Counts the answer by where it came from (a repeat given from the answer memo is `cached`). */
  const counted = (side: 'buy' | 'sell', { quote, source }: Priced) => {
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
      const { paymentMethod, ...body } = c.req.valid('json');
      const priced = await pricing.quote('buy', { ...body, method: paymentMethod });
      return c.json(counted('buy', priced), 200);
    })
    .openapi(sellRoute, async (c) => {
      const { payoutMethod, ...body } = c.req.valid('json');
      const priced = await pricing.quote('sell', { ...body, method: payoutMethod });
      return c.json(counted('sell', priced), 200);
    });
}
