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
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadinessReport } from '../checks/readiness.ts';
import type { EngineStats } from '../quotes/engine/types.ts';
import type { BudgetStats } from '../upstream/budget.ts';
import type { UpstreamOutcome } from '../upstream/http.ts';

export type QuoteSide = 'buy' | 'sell';
/** Where an answered quote came from: the upstream, derived by the engine, or an answer given before (kept). */
export type QuoteSource = 'upstream' | 'derived' | 'cached';
export type WebhookOutcome = 'verified' | 'duplicate' | 'refused' | 'invalid';
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

/** What is read at scrape time. Each is optional: a source left out is not reported. */
export interface MetricSources {
  budget?: () => BudgetStats;
  engine?: () => EngineStats;
  /** Deliveries waiting, and the age of the oldest waiting event (seconds); throws when the store is away. */
  outbox?: () => Promise<{ pending: number; oldestAgeSeconds: number }>;
  /** PostgreSQL's pool (SQLite and memory stores have none). */
  pool?: () => { total: number; idle: number; waiting: number } | undefined;
  readiness?: () => Promise<ReadinessReport>;
}

export interface Metrics {
  readonly enabled: boolean;
  /** The registry /metrics renders (undefined with METRICS=off). */
  readonly registry: Registry | undefined;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  upstreamCall(service: string, endpoint: string, outcome: UpstreamOutcome, seconds: number): void;
  quoteAnswered(side: QuoteSide, source: QuoteSource): void;
  quoteRefused(side: QuoteSide, reason: string): void;
  orderCreated(): void;
  orderStatusChanged(status: string, source: string): void;
  webhookReceived(source: 'payments' | 'ramp', outcome: WebhookOutcome): void;
  deliveryAttempt(target: 'webhook' | 'hook', outcome: DeliveryOutcome): void;
  /** A request accepted by a secret being rotated out (secrets/previous-use.ts): which variable, which key id. */
  previousSecretAccepted(secret: string, keyId: string): void;
  /**
   * A CSP violation a browser reported (csp/reports.ts): its directive and what was blocked, an origin or `inline`,
   * `eval`, `data`… (after `maxCspBlockedOrigins` distinct origins, further ones count as `other`).
   */
  cspViolation(directive: string, blocked: string): void;
  /** A status stream opened; call what it returns when it closes. */
  streamOpened(): () => void;
  /** Adds what is read at scrape time (createDeps and createRuntime call it as they build the parts). */
  watch(sources: MetricSources): void;
}

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

/** Distinct blocked origins a CSP violation series is kept for (label values stay bounded). */
export const maxCspBlockedOrigins = 20;

/** Request durations: a cached quote answers in about a millisecond, an order waits on the upstream. */
const httpBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const upstreamBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A counter whose value is kept elsewhere: set to it at each scrape. */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number | undefined) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === undefined) return;
      this.reset();
      this.inc(value);
    },
  });
}

/** A count on a shopper's request path: a plain addition there, handed to its prom-client child when scraped. */
interface Tally {
  n: number;
}

/**
 * A counter counted per request (requests, quotes): prom-client hashes a child's labels on every `inc`, so each
 * label set's count is a plain number until a scrape (or any read of the registry) adds it to the child.
 */
function talliedCounter(
  registry: Registry,
  config: { name: string; help: string; labelNames: string[] },
): (...labels: string[]) => Tally {
  const tallies: Array<Tally & { child: Counter.Internal }> = [];
  const counter: Counter = new Counter({
    ...config,
    registers: [registry],
    collect() {
      for (const tally of tallies) {
        if (tally.n === 0) continue;
        tally.child.inc(tally.n);
        tally.n = 0;
      }
    },
  });
  return (...labels) => {
    const tally = { n: 0, child: counter.labels(...labels) };
    tallies.push(tally);
    return tally;
  };
}

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

  // --- HTTP ---
  const requests = talliedCounter(registry, {
    name: 'checkout_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['method', 'route', 'status'],
  });
  const durations = new Histogram({
    name: 'checkout_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being ready (a stream: until it starts).',
    labelNames: ['method', 'route'],
    buckets: httpBuckets,
    registers: [registry],
  });
  // Each label set's tally and histogram child, found by one lookup.
  const requestChildren = new Map<string, { count: Tally; time: Histogram.Internal<'method' | 'route'> }>();

  // --- Upstream ---
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

  // --- Quotes ---
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

  // --- Orders, webhooks, events ---
  const ordersCreated = new Counter({
    name: 'checkout_orders_created_total',
    help: 'Payment orders created (upstream order made and recorded).',
    registers: [registry],
  });
  const statusChanges = new Counter({
    name: 'checkout_order_status_changes_total',
    help: 'Order status changes recorded, by the new status and what told it (webhook, sync, …).',
    labelNames: ['status', 'source'],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'checkout_webhooks_received_total',
    help: 'Webhooks received from the upstream, by source and outcome (verified, duplicate, refused: bad signature, invalid: unreadable).',
    labelNames: ['source', 'outcome'],
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'checkout_event_delivery_attempts_total',
    help: 'Fulfilment event delivery attempts, by target kind and outcome (delivered, retry: failed and will be tried again, failed: given up).',
    labelNames: ['target', 'outcome'],
    registers: [registry],
  });
  const previousSecrets = new Counter({
    name: 'checkout_previous_secret_accepted_total',
    help: 'Requests accepted by a secret being rotated out, by variable (CHECKOUT_TOKEN_SECRET_PREVIOUS, PAY_WEBHOOK_SECRET_PREVIOUS, RAMP_SECRET_KEY_PREVIOUS; ADMIN_CREDENTIALS: either entry of a name listed twice) and key id (first 8 hex characters of the SHA-256 of the value). None for a day: the old value can be removed.',
    labelNames: ['secret', 'key_id'],
    registers: [registry],
  });
  const cspViolations = new Counter({
    name: 'checkout_csp_violations_total',
    help: `CSP violations browsers reported to /api/csp-reports, by directive and what was blocked: an origin, or inline, eval, data, blob, trusted-types-sink… as such; after ${maxCspBlockedOrigins} distinct origins, other. A new blocked value is what CheckoutCspNewBlockedSource alerts on.`,
    labelNames: ['directive', 'blocked'],
    registers: [registry],
  });
  const cspOrigins = new Set<string>();
  // Both backlog gauges are collected together (prom-client collects every metric at once): one read serves both.
  let backlog: Promise<{ pending: number; oldestAgeSeconds: number }> | undefined;
  const readBacklog = () => {
    if (!sources.outbox) return undefined;
    backlog ??= sources
      .outbox()
      .catch(() => ({ pending: Number.NaN, oldestAgeSeconds: Number.NaN }))
      .finally(() => {
        backlog = undefined;
      });
    return backlog;
  };
  new Gauge({
    name: 'checkout_event_deliveries_pending',
    help: 'Fulfilment event deliveries waiting in the outbox (shared by all instances; NaN while the store is away).',
    registers: [registry],
    async collect() {
      const read = await readBacklog();
      if (read) this.set(read.pending);
    },
  });
  new Gauge({
    name: 'checkout_event_delivery_oldest_pending_age_seconds',
    help: 'Age of the oldest event with a delivery still waiting (0 when none waits).',
    registers: [registry],
    async collect() {
      const read = await readBacklog();
      if (read) this.set(read.oldestAgeSeconds);
    },
  });
  const streams = new Gauge({
    name: 'checkout_order_status_streams_open',
    help: 'Order status streams (server-sent events) open on this instance.',
    registers: [registry],
  });

  // --- Store, readiness ---
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

  return {
    enabled: true,
    registry,
    httpRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let child = requestChildren.get(key);
      if (!child) {
        child = {
          count: requests(method, route, String(status)),
          time: durations.labels(method, route),
        };
        requestChildren.set(key, child);
      }
      child.count.n += 1;
      child.time.observe(seconds);
    },
    upstreamCall(service, endpoint, outcome, seconds) {
      upstreamCalls.labels(service, endpoint, outcome).inc();
      upstreamTime.labels(service, endpoint, outcome).observe(seconds);
    },
    quoteAnswered(side, source) {
      quoteChildren[side][source].n += 1;
    },
    quoteRefused: (side, reason) => refusals.labels(side, reason).inc(),
    orderCreated: () => ordersCreated.inc(),
    orderStatusChanged: (status, source) => statusChanges.labels(status, source).inc(),
    webhookReceived: (source, outcome) => webhooks.labels(source, outcome).inc(),
    deliveryAttempt: (target, outcome) => deliveries.labels(target, outcome).inc(),
    previousSecretAccepted: (secret, keyId) => previousSecrets.labels(secret, keyId).inc(),
    cspViolation(directive, blocked) {
      let label = blocked;
      if (blocked.includes(':') && !cspOrigins.has(blocked)) {
        if (cspOrigins.size < maxCspBlockedOrigins) cspOrigins.add(blocked);
        else label = 'other';
      }
      cspViolations.labels(directive, label).inc();
    },
    streamOpened() {
      streams.inc();
      let open = true;
      return () => {
        if (open) streams.dec();
        open = false;
      };
    },
    watch(more) {
      Object.assign(sources, more);
    },
  };
}
