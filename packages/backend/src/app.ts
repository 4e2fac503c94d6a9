/** `createApp(deps)`: the backend's Hono app. `server.ts` is the Node entry that builds the deps. */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from './deps.ts';
import { handleError, handleNotFound } from './errors.ts';
import { adminRoutes } from './routes/admin.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { checkoutTokenRoutes } from './routes/checkout-tokens.ts';
import { depositAddressRoutes } from './routes/deposit-addresses.ts';
import { docsRoutes } from './routes/docs.ts';
import { orderRoutes } from './routes/orders.ts';
import { productRoutes } from './routes/products.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { rampSessionRoutes } from './routes/ramp-sessions.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { widgetBundleRoutes } from './routes/widget-bundle.ts';

export function createApp(deps: AppDeps) {
  const api = new Hono<AppEnv>()
    .route('/products', productRoutes(deps))
    .route('/catalog', catalogRoutes(deps))
    .route('/quotes', quoteRoutes(deps))
    .route('/ramp-sessions', rampSessionRoutes(deps))
    .route('/checkout-tokens', checkoutTokenRoutes(deps))
    .route('/orders', orderRoutes(deps))
    .route('/deposit-addresses', depositAddressRoutes(deps))
    .route('/webhooks', webhookRoutes(deps))
    .route('/admin', adminRoutes(deps))
    .route('/', docsRoutes(deps));

  const app = new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ ok: true, upstream: deps.config.mode }))
    .route('/widget', widgetBundleRoutes(deps))
    .route('/api', api);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
