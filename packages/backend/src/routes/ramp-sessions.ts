/**
 * `POST /api/ramp-sessions`: a signed ramp widget URL (docs/upstream.md#ramp-widget-url) for the widget to embed. The secret key
 * signs it here; the browser only ever sees the public key and the signature.
 *
 * `fiatAmount` means what it means in a quote: what the shopper pays (buy) or receives (sell), fees inside. The
 * ramp page takes the amount it prices (buy: before fees; sell: the crypto's value), so with a method the URL
 * carries the amount solved from it (quotes/pricing.ts `sessionAmount`), and the page's total is the one the
 * shopper saw.
 */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { countryFromHeaders } from '../catalog/country.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { amountString, positiveDecimal, refuseExcessDecimals } from '../money.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { isAllowedUrl } from '../origins.ts';
import { countryCode, cryptoCode, currencyCode, methodId } from '../schemas/codes.ts';

/**
 * The shopper's language as the ramp page takes it (docs/upstream.md#ramp-widget-url, `language`): an ISO 639-1
 * code, Brazilian Portuguese as `pt-BR` (the only regional form the upstream documents); a language with no
 * two-letter code goes unsaid (the page's default, English).
 */
export const rampLanguage = z
  .string()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/, 'must be a BCP 47 language tag')
  .max(35)
  .transform((tag) => {
    const [language = '', region] = tag.toLowerCase().split('-');
    if (language.length !== 2) return undefined;
    return language === 'pt' && region === 'br' ? 'pt-BR' : language;
  });

export const rampSessionBody = z
  .object({
    side: z.enum(['buy', 'sell']),
    method: methodId.optional().describe('Payment group (buy) or payout method (sell) from the catalog'),
    country: countryCode.optional().describe('Else from request headers, else DEFAULT_COUNTRY'),
    fiat: currencyCode,
    crypto: cryptoCode,
    fiatAmount: positiveDecimal
      .optional()
      .describe(
        'What the shopper pays (buy) or receives (sell), fees inside, as quoted (`Quote.fiat.total`); with a ' +
          '`method`, the page is handed the amount that gives this total',
      ),
    cryptoAmount: positiveDecimal.optional(),
    walletAddress: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9:,_.-]{10,300}$/, 'must be a wallet address (or SYMBOL:address,…)')
      .optional()
      .describe('Required to buy: where the crypto goes'),
    email: z.email().max(254).optional(),
    language: rampLanguage
      .optional()
      .describe("The shopper's locale (BCP 47): the buy page speaks its language where the ramp has it"),
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
    refuseExcessDecimals(ctx, 'fiatAmount', body.fiatAmount, body.fiat, 'fiat');
    refuseExcessDecimals(ctx, 'cryptoAmount', body.cryptoAmount, body.crypto, 'crypto');
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
      'AMOUNT_TOO_LOW',
      'AMOUNT_TOO_HIGH',
      'RETURN_URL_NOT_ALLOWED',
      'UPSTREAM_ERROR',
      'UPSTREAM_BUSY',
      'UPSTREAM_TIMEOUT',
    ),
  },
});

export function rampSessionRoutes(deps: AppDeps) {
  const { config, ramp, pricing } = deps;
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
    const method = wanted ? await pricing.sessionMethod(body.side, country, wanted, body.fiat) : undefined;
    const fiatAmount =
      body.fiatAmount === undefined || body.cryptoAmount !== undefined
        ? undefined
        : method
          ? await pricing.sessionAmount({ ...body, country, fiatAmount: body.fiatAmount }, method)
          : // Without a method the page picks one and adds its fees: the amount goes as it came.
            amountString(body.fiatAmount, body.fiat);
    const url =
      body.side === 'buy'
        ? ramp.signWidgetUrl('buy', {
            apiKey: config.ramp.publicKey,
            currencyCode: body.crypto,
            walletAddress: body.walletAddress,
            method: body.method,
            baseCurrencyCode: body.fiat,
            baseCurrencyAmount: fiatAmount,
            // The widget takes at most 6 decimals here (docs/upstream.md#ramp-widget-url).
            quoteCurrencyAmount:
              body.cryptoAmount === undefined
                ? undefined
                : amountString(body.cryptoAmount, body.crypto, { kind: 'crypto', maxDigits: 6 }),
            baseCountry: country,
            email: body.email,
            markup: config.markup || undefined,
            redirectUrl: body.returnUrl,
            responseUrl,
            // Buy only: the sell page's documented parameters have no language.
            language: body.language,
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
