/** `createApp(deps)`: the backend's Hono app. `runtime.ts` builds the deps; `command.ts` serves it. */
import { $ } from '@hono/zod-openapi';
import { requestId } from 'hono/request-id';
import { adminAccess, wrongCredentialCount } from './admin/access.ts';
import { createAuditLog } from './admin/audit.ts';
import { createConsoleSessions, mountOf } from './admin/console-sessions.ts';
import { createLockouts } from './admin/lockouts.ts';
import { cspReportPath } from './csp/storefront-csp.ts';
import type { AppDeps } from './deps.ts';
import { inRequest, logRequest } from './logger.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { accessLog } from './middleware/access-log.ts';
import { resolveClientAddress } from './middleware/client-address.ts';
import { handleError, handleNotFound } from './middleware/error-handler.ts';
import { hostBodyGuard } from './middleware/host-body.ts';
import { clientRateLimit } from './middleware/rate-limit.ts';
import {
  isServerOnly,
  isStaticAsset,
  limitBody,
  originGuard,
  publicCors,
  securityHeaders,
} from './middleware/security.ts';
import { type OpenApiDocument, openApiDocument, openApiRoutes } from './openapi.ts';
import { createOrderLedger } from './orders/ledger.ts';
import { createRampOrders } from './orders/ramp-orders.ts';
import { createProductCatalog } from './products.ts';
import { createRefunds } from './refunds/refunds.ts';
import { adminRoutes } from './routes/admin/index.ts';
import { refundAdminRoutes } from './routes/admin/refunds.ts';
import { adminAccessRoutes } from './routes/admin-access.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { checkoutTokenRoutes } from './routes/checkout-tokens.ts';
import { consoleRoutes } from './routes/console.ts';
import { cspReportRoutes } from './routes/csp-reports.ts';
import { depositAddressRoutes } from './routes/deposit-addresses.ts';
import { apiDescription, docsRoutes } from './routes/docs.ts';
import { flagRoutes } from './routes/flags.ts';
import { healthRoutes } from './routes/health.ts';
import { orderRoutes } from './routes/orders.ts';
import { productRoutes } from './routes/products.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { rampSessionRoutes } from './routes/ramp-sessions.ts';
import { refundClaimRoutes } from './routes/refund-claim.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { widgetBundleRoutes } from './routes/widget-bundle.ts';

const bodyLimit8k = limitBody(8 * 1024);
const webhookBodyLimit = limitBody(64 * 1024);
// A Reporting API body can hold several reports, each with the page's whole policy.
const cspReportBodyLimit = limitBody(16 * 1024);

/** The ledger of `deps`' orders (createDeps makes one, which the follower of unfinished orders shares). */
export const ledgerOf = (deps: Omit<AppDeps, 'ledger'>) =>
  createOrderLedger(
    {
      store: deps.store,
      clock: deps.clock,
      payments: deps.payments,
      outbox: deps.outbox,
      fanout: deps.shared?.fanout,
      metrics: deps.metrics,
    },
    { policy: deps.config.paymentPolicy },
  );

export function createApp(deps: AppDeps) {
  // One ledger (with its status hub) shared by the routes that read or move orders.
  const ledger = deps.ledger ?? ledgerOf(deps);
  const rampOrders = createRampOrders(deps);
  // One catalog reader (one mtime cache) for the products and order routes.
  const catalog = createProductCatalog(deps.config.productsFile, deps.config.publicUrl);
  const audit = createAuditLog(deps.store, deps.clock);
  const lockouts = createLockouts(deps);
  const consoleSettings = deps.config.console ?? { enabled: true, sessionMinutes: 480 };
  const sessions = consoleSettings.enabled
    ? createConsoleSessions({
        store: deps.store,
        clock: deps.clock,
        sessionMinutes: consoleSettings.sessionMinutes,
        credentials: deps.config.admin.credentials,
        publicUrl: deps.config.publicUrl,
      })
    : undefined;
  // The reference is read from the routes once every one of them is mounted (on first request).
  let document: OpenApiDocument | undefined;
  const reference = (): OpenApiDocument =>
    (document ??= openApiDocument(app, {
      title: 'crypto-checkout backend API',
      version: '0.1.0',
      description: apiDescription,
      serverUrl: deps.config.publicUrl,
    }));
  // One refunds keeper (one keyed lock per order) for the admin's routes, the claim page and the order view.
  const refunds = createRefunds({
    store: deps.store,
    outbox: deps.outbox,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
  });
  const api = openApiRoutes()
    .route('/products', productRoutes(deps, catalog))
    .route('/catalog', catalogRoutes(deps))
    .route('/flags', flagRoutes(deps))
    .route('/quotes', quoteRoutes(deps))
    .route('/ramp-sessions', rampSessionRoutes(deps))
    .route('/checkout-tokens', checkoutTokenRoutes(deps))
    .route('/orders', orderRoutes(deps, ledger, catalog, refunds))
    .route('/deposit-addresses', depositAddressRoutes(deps))
    .route('/csp-reports', cspReportRoutes(deps))
    .route('/webhooks', webhookRoutes(deps, ledger, rampOrders))
    // Every admin route: a named credential with the scope it needs, writes recorded (admin/access.ts).
    .use('/admin/*', adminAccess(deps, audit, lockouts, sessions))
    .route('/admin', adminRoutes(deps, ledger))
    .route('/admin', refundAdminRoutes(deps, refunds))
    .route('/admin', adminAccessRoutes(audit, lockouts))
    .route('/', docsRoutes(reference));

  const { config } = deps;
  const rateLimit = clientRateLimit(
    config.rateLimitPerMinute,
    deps.shared
      ? { redis: deps.shared.redis, fallback: deps.shared.fallbackInstances !== undefined }
      : undefined,
  );
  const app = $(
    openApiRoutes()
      .use('*', requestId({ headerName: 'X-Request-Id' }))
      // Every line the rest of the request causes (upstream failures, a wrong admin token) carries its id.
      // Counted while in flight: a forced shutdown says how many it cut.
      .use('*', async (c, next) => {
        deps.lifecycle.requests += 1;
        try {
          await inRequest(c.get('requestId'), next);
        } finally {
          deps.lifecycle.requests -= 1;
        }
      })
      .use('*', (c, next) => {
        // Mounted under a prefix (`app.route('/checkout', …)`), this middleware's route is `/checkout/*`.
        const mount = c.req.routePath.replace(/\/?\*$/, '');
        c.set('path', c.req.path.slice(mount.length) || '/');
        return next();
      })
      // Who sent it: the peer, or the client a proxy in TRUSTED_PROXIES names (the limits and the audit read it).
      .use(
        '*',
        resolveClientAddress({
          trustedProxies: config.trustedProxies ?? [],
          warnWhenAlike: config.mode === 'live',
        }),
      )
      .use(
        '*',
        config.accessLog || deps.metrics.enabled
          ? accessLog({
              log: config.accessLog ? logRequest : undefined,
              probes: config.accessLogProbes,
              metrics: deps.metrics.enabled ? deps.metrics : undefined,
            })
          : (_c, next) => next(),
      )
      // Mounted behind a host's body parser (express.json()): the body is gone unless the host kept req.rawBody.
      .use('/api/*', hostBodyGuard)
      .use('*', securityHeaders(config))
      .use('/api/*', publicCors(config))
      .use('/api/*', originGuard(config))
      // Server-only routes are not limited per IP: the upstream retries webhooks from few addresses.
      // Static assets are not limited either: a country list shows a dozen flags at a time, each cached a year.
      // Nor is the catalog: it is served from memory, precompressed, so a refusal would cost what the answer
      // does (the limiter is a large share of its CPU: `npm run bench -- profile`), and what it builds is bounded (one per country
      // the ramp serves, from upstream lists fetched within the budget).
      .use('/api/*', (c, next) => {
        const path = c.get('path');
        return isServerOnly(path) || isStaticAsset(path) || path === '/api/catalog'
          ? next()
          : rateLimit(c, next);
      })
      // Webhook payloads are bigger than anything a shopper sends, but still small. GET, HEAD and OPTIONS
      // requests are not read, so they skip the check (which would otherwise copy every request into a new one).
      .use('/api/*', (c, next) => {
        if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
        const path = c.get('path');
        if (path === cspReportPath) return cspReportBodyLimit(c, next);
        return (path.startsWith('/api/webhooks') ? webhookBodyLimit : bodyLimit8k)(c, next);
      }),
  )
    .route('/', healthRoutes(deps))
    .route('/widget', widgetBundleRoutes(deps))
    .route('/refunds', refundClaimRoutes(deps, refunds))
    .route('/api', api);
  // The merchant console (CONSOLE=off: nothing at /console).
  if (sessions) {
    app.route('/console', consoleRoutes(deps, audit, sessions, wrongCredentialCount(deps, lockouts)));
    // A route of the mounted sub-app cannot end in a slash: `/console/` is sent to the page.
    app.get('/console/', (c) => c.redirect(`${mountOf(c)}/console`, 301));
  }
  // /metrics on the app's port, behind METRICS_TOKEN (with METRICS_PORT it has a listener of its own instead).
  const { metrics: metricsSettings } = config.observability;
  if (deps.metrics.registry && metricsSettings.port === undefined)
    app.route('/', metricsRoutes(deps.metrics.registry, metricsSettings.token));
  // Last: a host that mounts this app (`new Hono().route('/checkout', app)`) uses its own notFound, not ours.
  app.all('*', handleNotFound);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

export type AppType = ReturnType<typeof createApp>;
