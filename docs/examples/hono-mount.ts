// PUBLIC_URL=http://localhost:3000/checkout PORT=3000 node --import tsx hono-mount.ts

import { createCheckout } from '@crypto-checkout/backend';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const checkout = await createCheckout();
const app = new Hono().route('/checkout', checkout.app);
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) });
