/**
 * How the metrics meet the rest of the backend: which `Metrics` a config asks for, what is read at scrape time
 * (the budget, the quote engine, the outbox, the store's pool, readiness), and /metrics's own listener.
 * `createDeps` and `createRuntime` call these; `createApp` mounts the route and the request middleware.
 */

import { describeStorage } from '../checks/environment.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { createMetrics, type Metrics, noMetrics } from '../metrics/metrics.ts';
import { serveMetrics } from '../metrics/server.ts';
import type { SqlStore } from '../store/sql-store.ts';
import type { Store } from '../store/store.ts';
import type { Budget } from '../upstream/budget.ts';

/** The deliveries read for the backlog gauges at most (beyond, the count says "at least"). */
const BACKLOG_READ = 10_000;

export function metricsOf(config: Config, store: Store): Metrics {
  if (!config.observability.metrics.enabled) return noMetrics;
  return createMetrics({ info: { upstreamMode: config.mode, storage: describeStorage(config, store).kind } });
}

export function watchSources(deps: AppDeps, budget: Budget): void {
  const { metrics, store, outbox, clock } = deps;
  if (!metrics.enabled) return;
  metrics.watch({
    budget: () => budget.stats(),
    engine: () => deps.quotes.stats(),
    readiness: () => deps.readiness.run(),
    async outbox() {
      // Newest first: the last entry is the oldest event still waiting.
      const entries = await outbox.list({ state: 'pending', limit: BACKLOG_READ });
      let pending = 0;
      for (const entry of entries) {
        for (const delivery of entry.deliveries) if (delivery.state === 'pending') pending += 1;
      }
      const oldest = entries.at(-1);
      const oldestAgeSeconds = oldest ? Math.max(0, (clock.now() - Date.parse(oldest.createdAt)) / 1000) : 0;
      return { pending, oldestAgeSeconds };
    },
    pool: () => (store as Partial<SqlStore>).poolStats?.(),
  });
}

/** Starts /metrics's own listener when METRICS_PORT asks for one. */
export async function startObservability(deps: AppDeps) {
  const { metrics: settings } = deps.config.observability;
  const { registry } = deps.metrics;
  if (!registry || settings.port === undefined)
    return { metricsUrl: undefined, close: async () => undefined };
  const server = await serveMetrics({
    registry,
    token: settings.token,
    port: settings.port,
    host: settings.host,
  });
  return { metricsUrl: server.url, close: server.close };
}
