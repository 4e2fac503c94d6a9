/**
 * What the backend counts for Prometheus (METRICS=on), on prom-client, in a registry of this app's own (two apps
 * in one process never mix their series). Series are named the Prometheus way: a `checkout_` prefix, `_total` for
 * counters, base units (`_seconds`, `_ratio`), and only bounded label values (route templates, upstream paths
 * without query, enumerations; never an id or a raw path). Node's own process metrics (event-loop lag, heap, RSS,
 * GC) come from prom-client's defaults, unprefixed as every Node exporter names them.
 *
 * Modules record through the methods below (counted where it happens); what already has a counter of its own
 * (the upstream budget, the quote engine, the outbox, the store's pool, readiness) is read when Prometheus
 * scrapes, so it costs nothing between scrapes. With METRICS=off every method is a no-op (`noMetrics`).
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { httpSeries } from './http-series.ts';
import { orderSeries } from './order-series.ts';
import { quoteSeries } from './quote-series.ts';
import { securitySeries } from './security-series.ts';
import { storeSeries } from './store-series.ts';
import type { MetricSources, Metrics } from './types.ts';
import { upstreamSeries } from './upstream-series.ts';

export type {
  DeliveryOutcome,
  MetricSources,
  Metrics,
  QuoteSide,
  QuoteSource,
  WebhookOutcome,
} from './types.ts';

const nothing = () => undefined;

/** METRICS=off: every record is a no-op, nothing is registered. */
export const noMetrics: Metrics = {
  enabled: false,
  registry: undefined,
  httpRequest: nothing,
  upstreamCall: nothing,
  quoteAnswered: nothing,
  quoteRefused: nothing,
  orderCreated: nothing,
  orderStatusChanged: nothing,
  webhookReceived: nothing,
  deliveryAttempt: nothing,
  previousSecretAccepted: nothing,
  cspViolation: nothing,
  streamOpened: () => nothing,
  watch: nothing,
};

export interface MetricsOptions {
  /** Constant labels of `checkout_info`. */
  info: { upstreamMode: string; storage: string };
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const sources: MetricSources = {};

  new Gauge({
    name: 'checkout_info',
    help: 'Always 1; its labels say which upstream mode and storage this instance runs with.',
    labelNames: ['upstream_mode', 'storage'],
    registers: [registry],
  })
    .labels(options.info.upstreamMode, options.info.storage)
    .set(1);

  // Registered in this order, which is the order /metrics lists them in.
  const http = httpSeries(registry);
  const upstream = upstreamSeries(registry, sources);
  const quotes = quoteSeries(registry, sources);
  const orders = orderSeries(registry, sources);
  const security = securitySeries(registry);
  storeSeries(registry, sources);
  return {
    enabled: true,
    registry,
    ...http,
    ...upstream,
    ...quotes,
    ...orders,
    ...security,
    watch(more) {
      Object.assign(sources, more);
    },
  };
}
