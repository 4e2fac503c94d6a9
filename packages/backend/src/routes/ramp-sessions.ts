/**
 * `POST /api/ramp-sessions`: a signed ramp widget URL (facts.md §3) for the widget to embed. The secret key
 * signs it here; the browser only ever sees the public key and the signature.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { amountString, positiveDecimal } from '../money.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { isAllowedUrl } from '../origins.ts';
import { countryCode, cryptoCode, currencyCode, methodId } from '../schemas/codes.ts';
import { isOffered } from '../schemas/upstream-ramp.ts';
import { countryFromHeaders } from './catalog.ts';

export const rampSessionBody = z
  .object({
    side: z.enum(['buy', 'sell']),
    method: methodId.optional().describe('Payment group (buy) or payout method (sell) from the catalog'),
    country: countryCode.optional().describe('Else from request headers, else DEFAULT_COUNTRY'),
    fiat: currencyCode,
    crypto: cryptoCode,
    fiatAmount: positiveDecimal.optional(),
    cryptoAmount: positiveDecimal.optional(),
    walletAddress: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9:,_.-]{10,300}$/, 'must be a wallet address (or SYMBOL:address,…)')
      .optional()
      .describe('Required to buy: where the crypto goes'),
    email: z.email().max(254).optional(),
    returnUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.fiatAmount !== undefined && body.cryptoAmount !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['cryptoAmount'],
        message: 'give at most one of fiatAmount and cryptoAmount',
      });
    }
    if (body.side === 'buy' && !body.walletAddress) {
      ctx.addIssue({ code: 'custom', path: ['walletAddress'], message: 'is required to buy' });
    }
  })
  .meta({ id: 'RampSessionBody' });

export const rampSessionSchema = z
  .object({
    url: z.string().describe('The signed widget URL to load in an iframe'),
    origin: z.string().describe('The widget origin, for postMessage checks'),
    expiresAt: z.string().optional(),
  })
  .meta({ id: 'RampSession' });

const rampSessionRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['Ramp'],
  summary: 'A signed ramp widget URL (buy or sell) to embed',
  request: { body: jsonBody(rampSessionBody) },
  responses: {
    200: jsonResponse(rampSessionSchema, 'The signed URL'),
    ...errorResponses(
      'BAD_REQUEST',
      'VALIDATION_FAILED',
      'METHOD_UNAVAILABLE',
      'RETURN_URL_NOT_ALLOWED',
      'UPSTREAM_ERROR',
      'UPSTREAM_BUSY',
      'UPSTREAM_TIMEOUT',
    ),
  },
});

export function rampSessionRoutes(deps: AppDeps) {
  const { config, ramp } = deps;
  const responseUrl = `${config.publicUrl}/api/webhooks/ramp`;
  // The ramp widget may also send the shopper back to this backend (e.g. its own pages).
  const returnOrigins = [...config.allowedOrigins, new URL(config.publicUrl).origin];

  return openApiRoutes().openapi(rampSessionRoute, async (c) => {
    const body = c.req.valid('json');
    if (body.returnUrl && !isAllowedUrl(body.returnUrl, returnOrigins)) {
      throw new AppError('RETURN_URL_NOT_ALLOWED', 'returnUrl must be on an allowed storefront origin.');
    }
    const country = body.country ?? countryFromHeaders(c) ?? config.defaultCountry;
    const wanted = body.method;
    if (wanted) {
      const methods =
        body.side === 'buy' ? await ramp.paymentMethods(country) : await ramp.payoutMethods(country);
      const offered = methods.filter((method) => isOffered(method, wanted));
      if (!offered.some((method) => method.currencies.includes(body.fiat))) {
        throw new AppError('METHOD_UNAVAILABLE', 'This method is not offered for that country and currency.');
      }
    }
    const fiatAmount = body.fiatAmount === undefined ? undefined : amountString(body.fiatAmount, body.fiat);
    const url =
      body.side === 'buy'
        ? ramp.signWidgetUrl('buy', {
            apiKey: config.ramp.publicKey,
            currencyCode: body.crypto,
            walletAddress: body.walletAddress,
            method: body.method,
            baseCurrencyCode: body.fiat,
            baseCurrencyAmount: fiatAmount,
            // The widget takes at most 6 decimals here (facts.md §3.2).
            quoteCurrencyAmount:
              body.cryptoAmount === undefined
                ? undefined
                : amountString(body.cryptoAmount, body.crypto, { kind: 'crypto', maxDigits: 6 }),
            baseCountry: country,
            email: body.email,
            markup: config.markup || undefined,
            redirectUrl: body.returnUrl,
            responseUrl,
          })
        : ramp.signWidgetUrl('sell', {
            apiKey: config.ramp.publicKey,
            method: body.method,
            baseCountry: country,
            fiatCurrencyCode: body.fiat,
            cryptoCurrencyCode: body.crypto,
            cryptoCurrencyAmount: body.cryptoAmount,
            fiatCurrencyAmount: body.cryptoAmount === undefined ? fiatAmount : undefined,
            email: body.email,
            markup: config.markup || undefined,
            redirectUrl: body.returnUrl,
            responseUrl,
          });
    c.header('Cache-Control', 'no-store');
    return c.json({ url, origin: ramp.widgetOrigin }, 200);
  });
}
