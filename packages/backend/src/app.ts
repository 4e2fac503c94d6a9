/** `createApp(deps)`: the backend's Hono app. `runtime.ts` builds the deps; `cli.ts` serves it. */
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppDeps, AppEnv } from './deps.ts';
import { handleError, handleNotFound } from './errors.ts';
import { accessLog } from './middleware/access-log.ts';
import { clientRateLimit } from './middleware/rate-limit.ts';
import { isServerOnly, limitBody, originGuard, publicCors, securityHeaders } from './middleware/security.ts';
import { createOrderLedger } from './order-ledger.ts';
import { createProductCatalog } from './products.ts';
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

const bodyLimit8k = limitBody(8 * 1024);
const webhookBodyLimit = limitBody(64 * 1024);

export function createApp(deps: AppDeps) {
  // One ledger (with its status hub) shared by the routes that read or move orders.
  const ledger = createOrderLedger(deps);
  // One catalog reader (one mtime cache) for the products and order routes.
  const catalog = createProductCatalog(deps.config.productsFile, deps.config.publicUrl);
  const api = new Hono<AppEnv>()
    .route('/products', productRoutes(deps, catalog))
    .route('/catalog', catalogRoutes(deps))
    .route('/quotes', quoteRoutes(deps))
    .route('/ramp-sessions', rampSessionRoutes(deps))
    .route('/checkout-tokens', checkoutTokenRoutes(deps))
    .route('/orders', orderRoutes(deps, ledger, catalog))
    .route('/deposit-addresses', depositAddressRoutes(deps))
    .route('/webhooks', webhookRoutes(deps, ledger))
    .route('/admin', adminRoutes(deps))
    .route('/', docsRoutes(deps));

  const { config } = deps;
  const rateLimit = clientRateLimit(
    config.rateLimitPerMinute,
    deps.shared
      ? { redis: deps.shared.redis, fallback: deps.shared.fallbackInstances !== undefined }
      : undefined,
  );
  const app = new Hono<AppEnv>()
    .use('*', requestId({ headerName: 'X-Request-Id' }))
    .use('*', (c, next) => {
      // Mounted under a prefix (`app.route('/checkout', …)`), this middleware's route is `/checkout/*`.
      const mount = c.req.routePath.replace(/\/?\*$/, '');
      c.set('path', c.req.path.slice(mount.length) || '/');
      return next();
    })
    .use('*', config.accessLog ? accessLog() : (_c, next) => next())
    .use('*', securityHeaders(config))
    .use('/api/*', publicCors(config))
    .use('/api/*', originGuard(config))
    // Server-only routes are not limited per IP: the upstream retries webhooks from few addresses.
    .use('/api/*', (c, next) => (isServerOnly(c.get('path')) ? next() : rateLimit(c, next)))
    // Webhook payloads are bigger than anything a shopper sends, but still small. GET, HEAD and OPTIONS
    // requests are not read, so they skip the check (which would otherwise copy every request into a new one).
    .use('/api/*', (c, next) => {
      if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
      return (c.get('path').startsWith('/api/webhooks') ? webhookBodyLimit : bodyLimit8k)(c, next);
    })
    .get('/healthz', (c) =>
      c.json({ ok: true, upstream: deps.config.mode, upstreamDrift: deps.ramp.drift().length }),
    )
    .route('/widget', widgetBundleRoutes(deps))
    .route('/api', api);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
