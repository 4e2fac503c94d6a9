/**
 * Builds a running backend from a config: the real upstream clients over HTTP, the store, the clock, the app,
 * and in sandbox mode the sandbox mounted in the same app at `/sandbox` (imported only here, dynamically, so
 * production code never loads it). `command.ts`, `createCheckout` and the demo server call `createRuntime`; tests call
 * `createDeps` with a memory store.
 */
import type { Hono } from 'hono';
import { createApp } from './app.ts';
import { type Clock, systemClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import type { AppDeps, AppEnv } from './deps.ts';
import { handleError, handleNotFound } from './errors.ts';
import { createDeliveryWorker } from './events/delivery-worker.ts';
import type { OnEvent } from './events/fulfilment-events.ts';
import { createOutbox, hookTarget } from './events/outbox.ts';
import { logger } from './logger.ts';
import { createQuoteEngine } from './quotes/engine.ts';
import { connectShared, type SharedState } from './shared/redis.ts';
import { createSqlStore } from './store/sql-store.ts';
import type { Store } from './store/store.ts';
import { type Budget, UpstreamBudget } from './upstream/budget.ts';
import { createPaymentsClient } from './upstream/payments-client.ts';
import { createRampClient } from './upstream/ramp-client.ts';
import { RedisBudget } from './upstream/redis-budget.ts';

export interface DepsOverrides {
  store: Store;
  /** Redis shared by several instances (see shared/redis.ts). */
  shared?: SharedState | undefined;
  clock?: Clock;
  /** The fetch of the ramp client (the bench times upstream calls with it). */
  rampFetch?: typeof fetch;
  /** The in-process hook that hears fulfilment events (a delivery target beside MERCHANT_WEBHOOK_URL). */
  onEvent?: OnEvent | undefined;
}

/** The deps of one app: one upstream budget shared by all ramp calls of this process. */
export function createDeps(config: Config, overrides: DepsOverrides): AppDeps {
  const clock = overrides.clock ?? systemClock;
  const { shared } = overrides;
  const budget: Budget = shared
    ? new RedisBudget({
        redis: shared.redis,
        perSecond: config.upstreamBudget,
        // A call ends by its timeout at the latest; a token outlives an instance killed mid-call by no more.
        holdMs: config.upstreamTimeoutMs + 1000,
        fallbackInstances: shared.fallbackInstances,
      })
    : new UpstreamBudget({ perSecond: config.upstreamBudget });
  const ramp = createRampClient({
    apiUrl: config.ramp.apiUrl,
    widgetUrl: config.ramp.widgetUrl,
    publicKey: config.ramp.publicKey,
    secretKey: config.ramp.secretKey,
    timeoutMs: config.upstreamTimeoutMs,
    budget,
    clock,
    sharedCache: shared?.cache,
    ...(overrides.rampFetch ? { fetch: overrides.rampFetch } : {}),
  });
  return {
    config,
    clock,
    store: overrides.store,
    shared,
    outbox: createOutbox(overrides.store, () => [
      ...config.events.webhookUrls,
      ...(overrides.onEvent ? [hookTarget] : []),
    ]),
    ramp,
    // The engine's references stay in this process; the budget it reads is the shared one with REDIS_URL.
    quotes: createQuoteEngine({ ramp, budget, clock, settings: config.quoteEngine }),
    // The payments API has no documented rate limit, so it does not spend the ramp budget.
    payments: createPaymentsClient({
      apiUrl: config.payments.apiUrl,
      apiKey: config.payments.apiKey,
      timeoutMs: config.upstreamTimeoutMs,
    }),
  };
}

export interface Runtime {
  app: Hono<AppEnv>;
  deps: AppDeps;
  close(): Promise<void>;
}

/** The configured store: PostgreSQL with DATABASE_URL, else SQLite under DATA_DIR; migrated, old JSON imported. */
export function openStore(config: Config) {
  return createSqlStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    retentionMs: config.retentionMs,
  });
}

export interface RuntimeOptions {
  /** Hears every fulfilment event in process (awaited; a throw is retried like a failed delivery). */
  onEvent?: OnEvent | undefined;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const store = await openStore(config);
  let shared: SharedState | undefined;
  try {
    shared = config.redisUrl
      ? await connectShared(config.redisUrl, config.redisFallbackInstances)
      : undefined;
  } catch (error) {
    await store.close();
    throw error;
  }
  const deps = createDeps(config, { store, shared, onEvent: options.onEvent });
  // Expired idempotency and dedupe records go at start and every hour after.
  const prune = () =>
    store.prune().catch((error: Error) => logger.warn(`[store] pruning failed: ${error.message}`));
  void prune();
  const pruning = setInterval(prune, 3_600_000).unref();
  const backend = createApp(deps);
  const worker = createDeliveryWorker({
    outbox: deps.outbox,
    clock: deps.clock,
    secret: config.events.webhookSecret,
    onEvent: options.onEvent,
  });
  worker.start();
  deps.quotes.start();
  const close = async () => {
    clearInterval(pruning);
    await worker.stop();
    await closeDeps(deps);
  };
  if (config.mode !== 'sandbox') {
    return { app: backend, deps, close };
  }
  const { createSandbox } = await import('@crypto-checkout/sandbox');
  const sandbox = createSandbox({
    baseUrl: `${config.publicUrl}/sandbox`,
    mountPath: '/sandbox',
    defaultWebhookUrl: `${config.publicUrl}/api/webhooks/payments`,
  });
  // The sandbox is mounted in front so the backend's middleware (CORS, rate limit, body limit) leaves it be.
  const { Hono } = await import('hono');
  const app = new Hono<AppEnv>()
    .get('/sandbox/', (c) => c.redirect('/sandbox', 301))
    .route('/sandbox', sandbox.app)
    .route('/', backend);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return { app, deps, close };
}

async function closeDeps(deps: AppDeps): Promise<void> {
  deps.quotes.close();
  await deps.ramp.close();
  await deps.store.close();
  await deps.shared?.close();
}

/** A mounted checkout: the Hono app, its web-standard `fetch`, and `close` for a graceful shutdown. */
export interface Checkout {
  /** For a Hono app: `app.route('/checkout', checkout.app)`. */
  app: Hono<AppEnv>;
  /** For anything that takes a fetch handler (Next.js route handlers, Bun, Deno, `@hono/node-server`). */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  config: Config;
  close(): Promise<void>;
}

/** What `createCheckout` takes beside the config. */
export interface CheckoutOptions extends RuntimeOptions {}

/**
 * A config with `onEvent` inside `events`, as `createCheckout` first took it. Still accepted (moved to the
 * options, with a warning once at start), so an app written for it keeps hearing its events.
 */
export type LegacyCheckoutConfig = Config & {
  events: Config['events'] & {
    /** @deprecated Give it beside the config: `createCheckout(config, { onEvent })`. */
    onEvent?: OnEvent | undefined;
  };
};

/**
 * The backend to mount in an app the merchant already has, configured like the CLI (`loadConfig(process.env)`
 * by default). Set PUBLIC_URL to where it is mounted (`https://shop.example/checkout`): return pages, webhook
 * URLs and the sandbox are addressed from it. `options.onEvent` hears every fulfilment event in process.
 */
export async function createCheckout(
  config: Config | LegacyCheckoutConfig = loadConfig(),
  options: CheckoutOptions = {},
): Promise<Checkout> {
  const { onEvent: legacyOnEvent, ...events } = (config as LegacyCheckoutConfig).events;
  if (legacyOnEvent && options.onEvent) {
    throw new TypeError(
      'createCheckout: onEvent is given twice; keep createCheckout(config, { onEvent }) and drop config.events.onEvent.',
    );
  }
  if (legacyOnEvent) {
    logger.warn(
      '[checkout] config.events.onEvent is deprecated: pass it as createCheckout(config, { onEvent }) (it still works).',
    );
  }
  const onEvent = options.onEvent ?? legacyOnEvent;
  const runtime = await createRuntime({ ...config, events }, { ...options, onEvent });
  return {
    app: runtime.app,
    fetch: (request, env) => runtime.app.fetch(request, env),
    config: runtime.deps.config,
    close: runtime.close,
  };
}
