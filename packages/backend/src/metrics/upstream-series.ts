/** The upstream series: each call attempt, and the shared budget (read from its stats at scrape time). */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BudgetStats } from '../upstream/budget.ts';
import { mirroredCounter } from './counters.ts';
import type { MetricSources, Metrics } from './types.ts';

const upstreamBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function upstreamSeries(registry: Registry, sources: MetricSources): Pick<Metrics, 'upstreamCall'> {
  const upstreamCalls = new Counter({
    name: 'checkout_upstream_requests_total',
    help: 'Upstream API calls (each attempt), by service, endpoint and outcome (ok, 4xx, 429, 5xx, timeout, network, invalid).',
    labelNames: ['service', 'endpoint', 'outcome'],
    registers: [registry],
  });
  const upstreamTime = new Histogram({
    name: 'checkout_upstream_request_duration_seconds',
    help: 'Time of each upstream call attempt, by service, endpoint and outcome.',
    labelNames: ['service', 'endpoint', 'outcome'],
    buckets: upstreamBuckets,
    registers: [registry],
  });
  const budget = (read: (stats: BudgetStats) => number) => () => {
    const stats = sources.budget?.();
    return stats && read(stats);
  };
  mirroredCounter(
    registry,
    'checkout_upstream_budget_granted_total',
    'Upstream calls the shared budget let through (this instance).',
    budget((s) => s.granted),
  );
  mirroredCounter(
    registry,
    'checkout_upstream_budget_waits_total',
    'Upstream calls that waited for a token of the budget.',
    budget((s) => s.waited),
  );
  mirroredCounter(
    registry,
    'checkout_upstream_budget_refusals_total',
    'Upstream calls the budget refused (answered UPSTREAM_BUSY).',
    budget((s) => s.refused),
  );
  mirroredCounter(
    registry,
    'checkout_upstream_throttled_total',
    'Times the upstream itself answered 429 (should stay 0: the budget is there to prevent it).',
    budget((s) => s.throttledByUpstream),
  );
  new Gauge({
    name: 'checkout_upstream_budget_tokens_in_use',
    help: 'Budget tokens this instance holds now (calls in flight or finished less than a window ago).',
    registers: [registry],
    collect() {
      const stats = sources.budget?.();
      if (stats) this.set(stats.inWindow);
    },
  });
  new Gauge({
    name: 'checkout_upstream_budget_per_second',
    help: 'Upstream calls per second the budget allows (UPSTREAM_BUDGET).',
    registers: [registry],
    collect() {
      const stats = sources.budget?.();
      if (stats) this.set(stats.perSecond);
    },
  });

  return {
    upstreamCall(service, endpoint, outcome, seconds) {
      upstreamCalls.labels(service, endpoint, outcome).inc();
      upstreamTime.labels(service, endpoint, outcome).observe(seconds);
    },
  };
}
