/** The store's pool and readiness series, read at scrape time. */
import { Gauge, type Registry } from 'prom-client';
import type { ReadinessReport } from '../checks/readiness.ts';
import type { MetricSources } from './types.ts';

export function storeSeries(registry: Registry, sources: MetricSources): void {
  new Gauge({
    name: 'checkout_store_pool_connections',
    help: 'PostgreSQL pool connections, by state (idle, busy); absent with SQLite.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = sources.pool?.();
      if (!pool) return;
      this.labels('idle').set(pool.idle);
      this.labels('busy').set(pool.total - pool.idle);
    },
  });
  new Gauge({
    name: 'checkout_store_pool_waiting',
    help: 'Queries waiting for a PostgreSQL pool connection.',
    registers: [registry],
    collect() {
      const pool = sources.pool?.();
      if (pool) this.set(pool.waiting);
    },
  });
  // One readiness run per scrape, read by the three gauges: prom-client collects them side by side, so a gauge set
  // from another's collect would show the previous scrape's checks (none at the first).
  let report: Promise<ReadinessReport> | undefined;
  const readiness = (read: () => Promise<ReadinessReport>) =>
    (report ??= read().finally(() => {
      report = undefined;
    }));
  new Gauge({
    name: 'checkout_readiness_check_ok',
    help: 'Each readiness check as /readyz runs it: 1 passing (or not applicable), 0 failing (the upstream checks are not required: see checkout_upstream_up).',
    labelNames: ['check'],
    registers: [registry],
    async collect() {
      if (!sources.readiness) return;
      for (const [name, check] of Object.entries((await readiness(sources.readiness)).checks)) {
        this.labels(name).set(check.status === 'failing' ? 0 : 1);
      }
    },
  });
  new Gauge({
    name: 'checkout_upstream_up',
    help: "Whether this instance's last probe of the upstream with its keys passed (1) or failed (0), by service (ramp, payments). Not part of readiness: sum it across instances (alerts.yml, CheckoutUpstreamDown).",
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      if (!sources.readiness) return;
      const { checks } = await readiness(sources.readiness);
      this.labels('ramp').set(checks.upstreamRamp.status === 'failing' ? 0 : 1);
      this.labels('payments').set(checks.upstreamPayments.status === 'failing' ? 0 : 1);
    },
  });
  new Gauge({
    name: 'checkout_ready',
    help: 'Whether /readyz would answer 200 (1) or 503 (0) now (an upstream outage leaves it 1).',
    registers: [registry],
    async collect() {
      if (!sources.readiness) return;
      this.set((await readiness(sources.readiness)).ready ? 1 : 0);
    },
  });
}
