/** What modules record through (`Metrics`) and what is read at scrape time (`MetricSources`). */
import type { Registry } from 'prom-client';
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
