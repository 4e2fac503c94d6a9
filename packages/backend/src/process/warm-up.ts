/**
 * The instance's warm start (quotes/warm-start/warm-start.ts), started from its deps and watched by `/readyz`:
 * `createRuntime` starts it once the app and its background work run, and stops it on close. Not on the offline
 * sandbox mounted in this process (sandbox mode): it answers at once, no shopper is served from it, and warming
 * up would only delay a developer's start.
 */
import type { AppDeps } from '../deps.ts';
import { logger } from '../logger.ts';
import { startWarmStart, type WarmStart } from '../quotes/warm-start/warm-start.ts';

export function startWarmUp(deps: AppDeps): WarmStart | undefined {
  const { config, budget } = deps;
  if (!budget || config.mode === 'sandbox') return undefined;
  const warming = startWarmStart({
    engine: deps.quotes,
    pricing: deps.pricing,
    ramp: deps.ramp,
    fx: deps.fx,
    budget,
    clock: deps.clock,
    shared: deps.shared,
    markup: config.markup,
    defaultCountry: config.defaultCountry,
    keepMs: config.quoteEngine.maxStaleMs,
    // SQLite's data directory is this backend's own; with DATABASE_URL it may be no one's.
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    log: (line) => logger.info(line),
  });
  deps.readiness.watchWarmStart(warming);
  return warming;
}
