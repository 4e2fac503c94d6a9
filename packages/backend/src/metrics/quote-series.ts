/** The quote series: quotes answered and refused, and the engine's drift (read from its stats at scrape time). */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { EngineStats } from '../quotes/engine/types.ts';
import { mirroredCounter, talliedCounter } from './counters.ts';
import type { MetricSources, Metrics } from './types.ts';

export function quoteSeries(
  registry: Registry,
  sources: MetricSources,
): Pick<Metrics, 'quoteAnswered' | 'quoteRefused'> {
  const quotes = talliedCounter(registry, {
    name: 'checkout_quotes_total',
    help: 'Quotes answered to shoppers, by side and source (upstream, derived, cached).',
    labelNames: ['side', 'source'],
  });
  const quoteChildren = {
    buy: {
      upstream: quotes('buy', 'upstream'),
      derived: quotes('buy', 'derived'),
      cached: quotes('buy', 'cached'),
    },
    sell: {
      upstream: quotes('sell', 'upstream'),
      derived: quotes('sell', 'derived'),
      cached: quotes('sell', 'cached'),
    },
  };
  const refusals = new Counter({
    name: 'checkout_quotes_refused_total',
    help: 'Quote requests turned away, by side and error code (AMOUNT_TOO_LOW, UPSTREAM_BUSY, …).',
    labelNames: ['side', 'reason'],
    registers: [registry],
  });
  const engine = (read: (stats: EngineStats) => number | null) => () => {
    const stats = sources.engine?.();
    const value = stats && read(stats);
    return value ?? undefined;
  };
  mirroredCounter(
    registry,
    'checkout_quote_drift_samples_total',
    'Derived quotes the drift sampler re-priced upstream to compare.',
    engine((s) => s.samples),
  );
  mirroredCounter(
    registry,
    'checkout_quotes_derived_while_upstream_down_total',
    'Quotes derived from an older reference because the upstream could not answer.',
    engine((s) => s.derivedWhileUpstreamDown),
  );
  new Gauge({
    name: 'checkout_quote_drift_ratio',
    help: 'Relative difference between a derived quote and the upstream for the same amount: the largest since start (stat="max") and the latest sample (stat="last").',
    labelNames: ['stat'],
    registers: [registry],
    collect() {
      const stats = sources.engine?.();
      if (!stats) return;
      this.labels('max').set(stats.maxDrift);
      if (stats.lastDrift !== null) this.labels('last').set(stats.lastDrift);
    },
  });
  new Gauge({
    name: 'checkout_quote_drift_threshold_ratio',
    help: 'The drift past which a combination is priced by the upstream only (QUOTE_DRIFT_THRESHOLD).',
    registers: [registry],
    collect() {
      const stats = sources.engine?.();
      if (stats) this.set(stats.driftThreshold);
    },
  });
  new Gauge({
    name: 'checkout_quote_combinations_upstream_only',
    help: 'Combinations the engine prices by the upstream only, by reason (drift: a sample past the threshold; model: the fee model misfits).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const stats = sources.engine?.();
      if (!stats) return;
      let drift = 0;
      let model = 0;
      for (const combo of stats.combinations) {
        if (!combo.upstreamOnly) continue;
        if (combo.reason === 'drift') drift += 1;
        else model += 1;
      }
      this.labels('drift').set(drift);
      this.labels('model').set(model);
    },
  });

  return {
    quoteAnswered(side, source) {
      quoteChildren[side][source].n += 1;
    },
    quoteRefused: (side, reason) => refusals.labels(side, reason).inc(),
  };
}
