/** `POST /api/checkout-tokens/verify`: what a merchant-minted checkout token charges, as the backend reads it. */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { errorResponses, jsonBody, jsonResponse, openApiRoutes } from '../openapi.ts';
import { acceptedSecrets } from '../secrets/keyring.ts';
import { notePreviousSecret } from '../secrets/previous-use.ts';
import { openCheckoutToken } from '../tokens.ts';

export const verifyCheckoutTokenBody = z.object({ token: z.string().min(1).max(4096) });

export const checkoutTokenViewSchema = z
  .object({
    product: z.object({
      name: z.string(),
      description: z.string(),
      image: z.string().nullable(),
      price: z.string(),
      currency: z.string(),
      reference: z.string().optional(),
    }),
    expiresAt: z.string(),
  })
  .meta({ id: 'VerifiedCheckoutToken' });

const verifyRoute = createRoute({
  method: 'post',
  path: '/verify',
  tags: ['Orders'],
  summary: 'What a merchant-minted checkout token charges',
  request: { body: jsonBody(verifyCheckoutTokenBody) },
  responses: {
    200: jsonResponse(checkoutTokenViewSchema, 'The product the token stands for'),
    ...errorResponses('VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'BAD_REQUEST'),
  },
});

export function checkoutTokenRoutes(deps: AppDeps) {
  const { config, clock, metrics } = deps;
  return openApiRoutes().openapi(verifyRoute, (c) => {
    const { payload, secret } = openCheckoutToken(
      c.req.valid('json').token,
      acceptedSecrets(config.secrets.checkoutToken, clock.now()),
      clock.now(),
    );
    notePreviousSecret(
      metrics,
      'CHECKOUT_TOKEN_SECRET_PREVIOUS',
      config.secrets.checkoutToken,
      secret,
      'a checkout token',
    );
    const view: z.output<typeof checkoutTokenViewSchema> = {
      product: {
        name: payload.name,
        description: payload.description ?? '',
        image: payload.imageUrl ?? null,
        price: payload.price,
        currency: payload.currency,
        ...(payload.reference ? { reference: payload.reference } : {}),
      },
      expiresAt: new Date(payload.exp * 1000).toISOString(),
    };
    return c.json(view, 200);
  });
}
