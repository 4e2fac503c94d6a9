/** `POST /api/checkout-tokens/verify`: what a merchant-minted checkout token charges, as the backend reads it. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../deps.ts';
import { validate } from '../middleware/validate.ts';
import { describeRoute } from '../schemas/openapi-registry.ts';
import { verifyCheckoutToken } from '../tokens.ts';

export const verifyCheckoutTokenBody = z.object({ token: z.string().min(1).max(4096) });

export const checkoutTokenViewSchema = z.object({
  product: z.object({
    name: z.string(),
    description: z.string(),
    image: z.string().nullable(),
    price: z.string(),
    currency: z.string(),
    reference: z.string().optional(),
  }),
  expiresAt: z.string(),
});

export const checkoutTokenDocs = [
  describeRoute({
    method: 'post',
    path: '/api/checkout-tokens/verify',
    tag: 'Orders',
    summary: 'What a merchant-minted checkout token charges',
    request: { body: verifyCheckoutTokenBody },
    responses: { 200: { description: 'The product the token stands for', schema: checkoutTokenViewSchema } },
    errors: ['VALIDATION_FAILED', 'TOKEN_INVALID', 'TOKEN_EXPIRED'],
  }),
];

export function checkoutTokenRoutes(deps: AppDeps) {
  const { config, clock } = deps;
  return new Hono<AppEnv>().post('/verify', validate('json', verifyCheckoutTokenBody), (c) => {
    const payload = verifyCheckoutToken(c.req.valid('json').token, config.checkoutTokenSecret, clock.now());
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
    return c.json(view);
  });
}
