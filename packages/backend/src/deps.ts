/** What `createApp` is given: everything with a side effect is injected, so tests swap it. */

import type { AdminCredential } from './admin/credentials.ts';
import type { ReadinessChecks } from './checks/readiness.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Endpoints } from './events/endpoints.ts';
import type { Outbox } from './events/outbox.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { ClaimOwners } from './middleware/idempotency.ts';
import type { OrderLedger } from './orders/ledger.ts';
import type { QuoteEngine } from './quotes/engine/types.ts';
import type { FxRates } from './quotes/fx.ts';
import type { Pricing } from './quotes/pricing.ts';
import type { SharedState } from './shared/redis.ts';
import type { Store } from './store/store.ts';
import type { Budget } from './upstream/budget.ts';
import type { PaymentsClient } from './upstream/payments-client.ts';
import type { RampClient } from './upstream/ramp-client.ts';

export interface AppDeps {
  config: Config;
  ramp: RampClient;
  /** Derives quotes from each combination's latest upstream quote (its timers run once `start()`ed). */
  quotes: QuoteEngine;
  /** The FX book: what the ramp's answers told of exchange rates (quotes/fx.ts). */
  fx: FxRates;
  /** The pricing pipeline the quote and ramp-session routes ask (quotes/pricing.ts). */
  pricing: Pricing;
  payments: PaymentsClient;
  store: Store;
  /** Fulfilment events waiting for (or done with) delivery, in the store. */
  outbox: Outbox;
  /** The webhook endpoints the outbox delivers to (MERCHANT_WEBHOOK_URL's and the admin API's). */
  endpoints: Endpoints;
  clock: Clock;
  /** Redis shared by several instances (REDIS_URL); absent: everything stays in this process. */
  shared?: SharedState | undefined;
  /** Which process made an idempotency claim, and whether it still runs (middleware/claim-owners.ts). */
  claimOwners?: ClaimOwners | undefined;
  /** What /metrics reports (no-ops with METRICS=off). */
  metrics: Metrics;
  /** What /readyz checks; also marks the instance as draining. */
  readiness: ReadinessChecks;
  /** Serving or draining (graceful shutdown): `/readyz` and the status streams read it. */
  lifecycle: Lifecycle;
  /** The orders' ledger, shared by the routes and the follower of unfinished orders; absent: createApp makes one. */
  ledger?: OrderLedger | undefined;
  /** The upstream budget this process spends (shared through Redis with REDIS_URL); the follower takes a share. */
  budget?: Budget | undefined;
}

/** Hono context variables set by our middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** Who sent the request: the peer, or the client a trusted proxy names (middleware/client-address.ts). */
    clientAddress: string;
    /** The request's path below where the app is mounted (`/api/orders`, whatever the merchant's prefix). */
    path: string;
    /** The admin credential a `/api/admin/*` request was let in with (admin/access.ts). */
    adminCredential: AdminCredential;
    /** What an admin write made or touched, for its audit entry (admin/audit.ts `noteAudit`). */
    auditNote: { target?: string; details?: Record<string, unknown> } | undefined;
    /** The nonce of our pages' inline <style> and <script> (Hono's secureHeaders, middleware/security.ts). */
    secureHeadersNonce?: string;
  };
}
