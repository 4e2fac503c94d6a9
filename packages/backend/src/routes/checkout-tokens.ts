/** `POST /api/checkout-tokens/verify`: what a merchant-minted checkout token charges, as the backend reads it. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../deps.ts';
import { validate } from '../middleware/validate.ts';
import { verifyCheckoutToken } from '../tokens.ts';

export const verifyCheckoutTokenBody = z.object({ token: z.string().min(1).max(4096) });

export function checkoutTokenRoutes(deps: AppDeps) {
  const { config, clock } = deps;
  return new Hono<AppEnv>().post('/verify', validate('json', verifyCheckoutTokenBody), (c) => {
    const payload = verifyCheckoutToken(c.req.valid('json').token, config.checkoutTokenSecret, clock.now());
    return c.json({
      product: {
        name: payload.name,
        description: payload.description ?? '',
        image: payload.imageUrl ?? null,
        price: payload.price,
        currency: payload.currency,
        ...(payload.reference ? { reference: payload.reference } : {}),
      },
      expiresAt: new Date(payload.exp * 1000).toISOString(),
    });
  });
}
