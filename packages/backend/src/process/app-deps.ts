/**
 * The deps of one app, built from a config: the real upstream clients over HTTP (one upstream budget shared by all
 * ramp calls of this process), the quote engine, pricing, readiness, the outbox and its endpoints. `createRuntime`
 * and the Workers entry call `createDeps`; tests call it with a memory store.
 */
import { ledgerOf } from '../app.ts';
import { createReadinessChecks } from '../checks/readiness.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { createEndpoints } from '../events/endpoints.ts';
import type { OnEvent } from '../events/fulfilment-events.ts';
import { createOutbox, hookTarget } from '../events/outbox.ts';
import { Lifecycle } from '../lifecycle.ts';
import { claimOwners } from '../middleware/claim-owners.ts';
import { createQuoteEngine } from '../quotes/engine/quote-engine.ts';
import { createFxRates } from '../quotes/fx.ts';
import { createPricing } from '../quotes/pricing.ts';
import { type Keyring, singleKey } from '../secrets/keyring.ts';
import type { SharedState } from '../shared/redis.ts';
import type { Store } from '../store/store.ts';
import { type Budget, UpstreamBudget } from '../upstream/budget.ts';
import { createPaymentsClient } from '../upstream/payments-client.ts';
import { createRampClient } from '../upstream/ramp-client.ts';
import { RedisBudget } from '../upstream/redis-budget.ts';
import { metricsOf, watchSources } from './observability.ts';

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

/** MERCHANT_WEBHOOK_SECRET's keyring: events.webhookSecret is the current one (an app may set it in code), the previous ones come from the env. */
export function merchantKeyring(config: Config): Keyring | undefined {
  return config.events.webhookSecret
    ? {
        ...(config.secrets.merchantWebhook ?? singleKey(config.events.webhookSecret)),
        current: config.events.webhookSecret,
      }
    : undefined;
}
