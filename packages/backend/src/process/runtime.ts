/**
 * Builds a running backend from a config: the store, Redis, the deps (app-deps.ts), the app, what runs beside it,
 * and in sandbox mode the sandbox mounted in the same app at `/sandbox` (sandbox-mount.ts). `command.ts`,
 * `createCheckout` (checkout.ts) and the demo server call `createRuntime`.
 */
import type { Hono } from 'hono';
import { createApp } from '../app.ts';
import { environmentLine } from '../checks/environment.ts';
import type { Config } from '../config.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import type { OnEvent } from '../events/fulfilment-events.ts';
import { configureLogging, logger } from '../logger.ts';
import { connectShared, type SharedState } from '../shared/redis.ts';
import { createDeps } from './app-deps.ts';
import { startBackground, startFollower } from './background.ts';
import { startObservability } from './observability.ts';
import { openStore } from './open-store.ts';
import { loadSandbox, withSandbox } from './sandbox-mount.ts';
import { startWarmUp } from './warm-up.ts';

export interface Runtime {
  app: Hono<AppEnv>;
  deps: AppDeps;
  /** Marks the instance as shutting down: /readyz answers 503 from now on (call it first in a graceful stop). */
  markDraining(): void;
  /** What is unfinished now: requests in flight, open status streams, event deliveries being sent. */
  inFlight(): { requests: number; streams: number; deliveries: number };
  close(): Promise<void>;
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
async function closeDeps(deps: AppDeps): Promise<void> {
  deps.quotes.close();
  await deps.ramp.close();
  await deps.store.close();
  await deps.shared?.close();
}
