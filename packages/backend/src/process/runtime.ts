/**
 * Builds a running backend from a config: the real upstream clients over HTTP, the store, the clock, the app,
 * and in sandbox mode the sandbox mounted in the same app at `/sandbox` (imported only here, dynamically, so
 * production code never loads it). `command.ts`, `createCheckout` and the demo server call `createRuntime`; tests call
 * `createDeps` with a memory store.
 */
import type { Hono } from 'hono';
import { createApp, ledgerOf } from '../app.ts';
import { environmentLine } from '../checks/environment.ts';
import { createReadinessChecks } from '../checks/readiness.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type Config, checkConfig, loadConfig } from '../config.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { createDeliveryWorker } from '../events/delivery-worker.ts';
import { createEndpoints } from '../events/endpoints.ts';
import type { OnEvent } from '../events/fulfilment-events.ts';
import { createOutbox, hookTarget } from '../events/outbox.ts';
import { Lifecycle } from '../lifecycle.ts';
import { configureLogging, flushLogs, logger } from '../logger.ts';
import { claimOwners } from '../middleware/claim-owners.ts';
import { handleError, handleNotFound } from '../middleware/error-handler.ts';
import { createOrderFollower, type OrderFollower } from '../orders/follower.ts';
import { createQuoteEngine } from '../quotes/engine/quote-engine.ts';
import { createFxRates } from '../quotes/fx.ts';
import { createPricing } from '../quotes/pricing.ts';
import { type Keyring, singleKey } from '../secrets/keyring.ts';
import { connectShared, type SharedState } from '../shared/redis.ts';
import { createSqlStore } from '../store/sql-store.ts';
import type { Store } from '../store/store.ts';
import { type Budget, UpstreamBudget } from '../upstream/budget.ts';
import { createPaymentsClient } from '../upstream/payments-client.ts';
import { createRampClient } from '../upstream/ramp-client.ts';
import { RedisBudget } from '../upstream/redis-budget.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { metricsOf, startObservability, watchSources } from './observability.ts';
import { startWarmUp } from './warm-up.ts';

export interface DepsOverrides {
  store: Store;
  /** Redis shared by several instances (see shared/redis.ts). */
  shared?: SharedState | undefined;
  clock?: Clock;
  /** The fetch of the ramp client (the bench times upstream calls with it). */
  rampFetch?: typeof fetch;
  /** The fetch of the payments client (a Worker on the sandbox serves its own URLs in process with it). */
  paymentsFetch?: typeof fetch;
  /** The in-process hook that hears fulfilment events (a delivery target beside MERCHANT_WEBHOOK_URL). */
  onEvent?: OnEvent | undefined;
}

/**
 * The current value of each rotated secret is the one in its own field (`checkoutTokenSecret`,
 * `payments.webhookSecret`, `ramp.secretKey`), which an app mounting the backend may set in code; the previous
 * values come from the environment (`secrets`).
 */
function withCurrentSecrets(config: Config): Config {
  const { secrets } = config;
  return {
    ...config,
    secrets: {
      ...secrets,
      checkoutToken: { ...secrets.checkoutToken, current: config.checkoutTokenSecret },
      payWebhook: { ...secrets.payWebhook, current: config.payments.webhookSecret },
      rampSecret: { ...secrets.rampSecret, current: config.ramp.secretKey },
    },
  };
}

/** The deps of one app: one upstream budget shared by all ramp calls of this process. */
export function createDeps(given: Config, overrides: DepsOverrides): AppDeps {
  const config = withCurrentSecrets(given);
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
  const metrics = metricsOf(config, overrides.store);
  const fx = createFxRates();
  const ramp = createRampClient({
    apiUrl: config.ramp.apiUrl,
    widgetUrl: config.ramp.widgetUrl,
    publicKey: config.ramp.publicKey,
    secretKey: config.ramp.secretKey,
    timeoutMs: config.upstreamTimeoutMs,
    budget,
    clock,
    sharedCache: shared?.cache,
    observe: metrics.enabled ? metrics.upstreamCall : undefined,
    reports: fx,
    ...(overrides.rampFetch ? { fetch: overrides.rampFetch } : {}),
  });
  // The engine's references stay in this process; the budget it reads is the shared one with REDIS_URL.
  const quotes = createQuoteEngine({ ramp, budget, clock, settings: config.quoteEngine });
  const readiness = createReadinessChecks({
    config,
    store: overrides.store,
    shared,
    budget,
    clock,
    observe: metrics.enabled ? metrics.upstreamCall : undefined,
  });
  const endpoints = createEndpoints({
    store: overrides.store,
    clock,
    configured: config.events.webhookUrls,
    configuredSecrets: () => merchantKeyring(config),
  });
  const deps: AppDeps = {
    config,
    metrics,
    readiness,
    clock,
    lifecycle: new Lifecycle(() => readiness.markDraining()),
    store: overrides.store,
    shared,
    claimOwners: claimOwners(config, shared),
    endpoints,
    outbox: createOutbox(overrides.store, async (event, via) => [
      ...(await endpoints.targetsFor(event, via)),
      ...(overrides.onEvent ? [hookTarget] : []),
    ]),
    ramp,
    fx,
    quotes,
    pricing: createPricing({ ramp, fx, quotes, clock, markup: config.markup }),
    // The payments API has no documented rate limit, so it does not spend the ramp budget.
    payments: createPaymentsClient({
      apiUrl: config.payments.apiUrl,
      apiKey: config.payments.apiKey,
      timeoutMs: config.upstreamTimeoutMs,
      observe: metrics.enabled ? metrics.upstreamCall : undefined,
      ...(overrides.paymentsFetch ? { fetch: overrides.paymentsFetch } : {}),
    }),
  };
  deps.budget = budget;
  deps.ledger = ledgerOf(deps);
  watchSources(deps, budget);
  return deps;
}

export interface Runtime {
  app: Hono<AppEnv>;
  deps: AppDeps;
  /** Marks the instance as shutting down: /readyz answers 503 from now on (call it first in a graceful stop). */
  markDraining(): void;
  /** What is unfinished now: requests in flight, open status streams, event deliveries being sent. */
  inFlight(): { requests: number; streams: number; deliveries: number };
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

/**
 * No upstream keys, and no sandbox to stand in for the upstream: the package is optional and was left out
 * (`npm install --omit=optional`, or the backend's tarball installed alone).
 */
export class SandboxMissing extends Error {
  constructor(options?: ErrorOptions) {
    super(
      'No upstream keys are set, so the backend would run on the offline sandbox, but @crypto-checkout/sandbox ' +
        'is not installed: install it (npm install @crypto-checkout/sandbox) or set the seven upstream variables ' +
        '(RAMP_* and PAY_*, see --help) to run live.',
      options,
    );
    this.name = 'SandboxMissing';
  }
}

/** The sandbox package, loaded only in sandbox mode; its absence is named (SandboxMissing), never a stack trace. */
export async function loadSandbox(): Promise<typeof import('@crypto-checkout/sandbox')> {
  try {
    return await import('@crypto-checkout/sandbox');
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // Only the package itself missing; a module missing inside it is a broken install, to be seen as it is.
    if (code === 'ERR_MODULE_NOT_FOUND' && /'@crypto-checkout\/sandbox'/.test(message ?? ''))
      throw new SandboxMissing({ cause: error });
    throw error;
  }
}

export interface RuntimeOptions {
  /** Hears every fulfilment event in process (awaited; a throw is retried like a failed delivery). */
  onEvent?: OnEvent | undefined;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  // Before anything opens: a missing sandbox leaves no store or worker behind.
  const sandboxPackage = config.mode === 'sandbox' ? await loadSandbox() : undefined;
  const { observability } = config;
  configureLogging({
    level: observability.logLevel,
    format: observability.logFormat,
    instance: observability.instance,
  });
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
  if (config.mode === 'live' && config.admin.credentials.some((credential) => credential.legacy))
    logger.warn(
      '[admin] ADMIN_TOKEN is in use, as the write credential "admin": give each holder a named credential in ADMIN_CREDENTIALS (README "Admin access") and remove it.',
    );
  // Expired idempotency and dedupe records go at start and every hour after.
  const prune = () =>
    store.prune().catch((error: Error) => logger.warn(`[store] pruning failed: ${error.message}`));
  void prune();
  const pruning = setInterval(prune, 3_600_000).unref();
  const backend = createApp(deps);
  const worker = startBackground(deps, { onEvent: options.onEvent });
  const follower = startFollower(deps);
  const warming = startWarmUp(deps);
  // /metrics's own listener (METRICS_PORT), and the line naming storage, Redis and upstream (mounted or not).
  const observing = await startObservability(deps);
  logger.info(`checkout backend started: ${environmentLine(deps.readiness.environment())}`, {
    ...deps.readiness.environment(),
    ...(observing.metricsUrl ? { metrics: observing.metricsUrl } : {}),
  });
  const close = async () => {
    clearInterval(pruning);
    await warming?.stop();
    await observing.close();
    await follower?.stop();
    await worker.stop();
    await closeDeps(deps);
  };
  const markDraining = () => deps.lifecycle.drain();
  const inFlight = () => ({
    requests: deps.lifecycle.requests,
    streams: deps.lifecycle.openStreams,
    deliveries: worker.inFlight(),
  });
  if (!sandboxPackage) {
    return { app: backend, deps, markDraining, inFlight, close };
  }
  const app = await withSandbox(backend, sandboxPackage, config.publicUrl);
  return { app, deps, markDraining, inFlight, close };
}

/** MERCHANT_WEBHOOK_SECRET's keyring: events.webhookSecret is the current one (an app may set it in code), the previous ones come from the env. */
function merchantKeyring(config: Config): Keyring | undefined {
  return config.events.webhookSecret
    ? {
        ...(config.secrets.merchantWebhook ?? singleKey(config.events.webhookSecret)),
        current: config.events.webhookSecret,
      }
    : undefined;
}

/**
 * What runs beside the app: the delivery worker (started, watched by /readyz) and the quote engine's timers.
 * `createRuntime` and the Workers entry both start them.
 */
export function startBackground(
  deps: AppDeps,
  options: { onEvent?: OnEvent | undefined; fetch?: typeof fetch },
) {
  const { config } = deps;
  const worker = createDeliveryWorker({
    outbox: deps.outbox,
    clock: deps.clock,
    secrets: merchantKeyring(config),
    resolve: deps.endpoints.resolve,
    onEvent: options.onEvent,
    observe: deps.metrics.deliveryAttempt,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  worker.start();
  deps.quotes.start();
  deps.readiness.watchWorker(worker);
  return worker;
}

/**
 * The follower of unfinished orders (orders/follower.ts), started: the command and a mounted checkout run it (a
 * Worker does not: a Durable Object keeps no timers; docs/money.md says so).
 */
export function startFollower(deps: AppDeps): OrderFollower | undefined {
  if (!deps.ledger) return undefined;
  const follower = createOrderFollower(
    { store: deps.store, clock: deps.clock, ledger: deps.ledger, budget: deps.budget },
    deps.config.orderFollow ?? { everyMs: 30_000, share: 0.1 },
  );
  follower.start();
  return follower;
}

/**
 * The backend with the sandbox mounted at `/sandbox` as its upstream (sandbox mode). `fetch`: how the sandbox
 * sends its webhooks (a Worker serves its own URLs in process).
 */
export async function withSandbox(
  backend: Hono<AppEnv>,
  sandboxPackage: typeof import('@crypto-checkout/sandbox'),
  publicUrl: string,
  fetch?: typeof globalThis.fetch,
): Promise<Hono<AppEnv>> {
  const sandbox = sandboxPackage.createSandbox({
    baseUrl: `${publicUrl}/sandbox`,
    mountPath: '/sandbox',
    defaultWebhookUrl: `${publicUrl}/api/webhooks/payments`,
    ...(fetch ? { fetch } : {}),
  });
  // The sandbox is mounted in front so the backend's middleware (CORS, rate limit, body limit) leaves it be.
  const { Hono } = await import('hono');
  const app = new Hono<AppEnv>()
    .get('/sandbox/', (c) => c.redirect('/sandbox', 301))
    .route('/sandbox', sandbox.app)
    .route('/', backend);
  app.onError(handleError);
  app.notFound(handleNotFound);
  return app;
}

/**
 * The app's fetch for a host that hands it whole URLs (a Next.js catch-all route, Bun, Deno): a request under
 * PUBLIC_URL's path (`/checkout/api/orders`) is served as `/api/orders`. One already below it (Express strips
 * its mount path) is served as it comes.
 */
function underPublicPath(app: Hono<AppEnv>, base: string): Checkout['fetch'] {
  const prefix = base.replace(/\/$/, '');
  if (!prefix) return (request, env) => app.fetch(request, env);
  return (request, env) => {
    const url = new URL(request.url);
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return app.fetch(request, env);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    const { method, headers, body, signal } = request;
    return app.fetch(new Request(url, { method, headers, body, signal, duplex: 'half' } as RequestInit), env);
  };
}

/** The one line that says the upstream is the sandbox (the command's banner and a mounted checkout). */
export const sandboxNotice = (publicUrl: string) =>
  `UPSTREAM: the offline SANDBOX (no RAMP_*/PAY_* variables are set); no real money moves. Sandbox: ${publicUrl}/sandbox`;

async function closeDeps(deps: AppDeps): Promise<void> {
  deps.quotes.close();
  await deps.ramp.close();
  await deps.store.close();
  await deps.shared?.close();
}

/** Who sent a request, as a fetch handler's host knows it (`checkout.fetch(request, { clientAddress })`). */
export interface CheckoutFetchClient {
  /** The connection's peer: an IPv4 or IPv6 address (anything else counts as none). */
  clientAddress?: string | undefined;
}

/** A mounted checkout: the Hono app, its web-standard `fetch`, and `close` for a graceful shutdown. */
export interface Checkout {
  /** For a Hono app: `app.route('/checkout', checkout.app)`. */
  app: Hono<AppEnv>;
  /**
   * For anything that takes a fetch handler (Next.js route handlers, Bun, Deno, `@hono/node-server`). The second
   * argument tells who sent the request: `{ clientAddress }` (Bun's `server.requestIP(request)?.address`, Deno's
   * `info.remoteAddr.hostname`), or `@hono/node-server`'s bindings as they come. Without it every request counts
   * as one client (one rate limit, one wrong-credential count) and live mode warns once.
   */
  fetch: (request: Request, client?: CheckoutFetchClient | object) => Response | Promise<Response>;
  config: Config;
  /** Marks the instance as shutting down: its /readyz answers 503 from now on (first step of a graceful stop). */
  markDraining(): void;
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
  checkConfig(config);
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
  // SQLite is one process per DATA_DIR, mounted or not: a second process on it is refused (DataDirInUse), as the
  // command refuses it; the lock is released by close().
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  let runtime: Runtime;
  try {
    runtime = await createRuntime({ ...config, events }, { ...options, onEvent });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Said once, as the command's banner does: a mounted checkout on the sandbox must not pass for a live one.
  if (config.mode === 'sandbox') logger.warn(sandboxNotice(config.publicUrl));
  // Out now, beside the app's own start lines, rather than with the next batch.
  flushLogs();
  return {
    app: runtime.app,
    fetch: underPublicPath(runtime.app, new URL(config.publicUrl).pathname),
    config: runtime.deps.config,
    markDraining: runtime.markDraining,
    async close() {
      try {
        await runtime.close();
      } finally {
        lock?.release();
      }
    },
  };
}
