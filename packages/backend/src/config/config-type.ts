/** What `loadConfig` returns (and `createCheckout(config)` takes), and the error that names each bad setting. */
import type { PaymentPolicy } from '../orders/payment-policy.ts';
import type { EngineSettings } from '../quotes/engine/types.ts';
import type { AdminConfig, SecretsConfig } from '../secrets/config.ts';
import type { ObservabilityConfig } from './observability.ts';

export interface Config {
  mode: 'sandbox' | 'live';
  port: number;
  publicUrl: string;
  allowedOrigins: string[];
  markup: number;
  /** The catalog file; null: no catalog (PRODUCTS_FILE=none), checkouts are priced by checkout tokens only. */
  productsFile: string | null;
  /** The current CHECKOUT_TOKEN_SECRET (what tokens are signed with; `secrets.checkoutToken` verifies). */
  checkoutTokenSecret: string;
  /** The older single ADMIN_TOKEN (the "admin" write credential of `admin`); undefined when not set. */
  adminToken: string | undefined;
  dataDir: string;
  /** PostgreSQL's URL; undefined = SQLite in dataDir. */
  databaseUrl: string | undefined;
  /** How long finished idempotency records and webhook dedupe records are kept. */
  retentionMs: number;
  redisUrl: string | undefined;
  /** Instances to divide the budget by when Redis is down; undefined = 503 instead. */
  redisFallbackInstances: number | undefined;
  defaultCountry: string;
  upstreamBudget: number;
  upstreamTimeoutMs: number;
  /** The command's graceful shutdown (SHUTDOWN_DRAIN_MS, SHUTDOWN_TIMEOUT_MS); a mounted checkout's host decides its own. */
  shutdown?: { drainMs: number; timeoutMs: number } | undefined;
  /** The quote engine (quotes/engine/). */
  quoteEngine: EngineSettings;
  /** The follower of unfinished orders (orders/follower.ts); absent: its defaults. */
  orderFollow?: { everyMs: number; share: number } | undefined;
  /** PAYMENT_TOLERANCE_PERCENT, LATE_PAYMENT_WINDOW (orders/payment-policy.ts); absent: none and a day. */
  paymentPolicy?: PaymentPolicy | undefined;
  rateLimitPerMinute: number;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client; none (undefined): the connection's peer. */
  trustedProxies?: string[] | undefined;
  accessLog: boolean;
  /** ACCESS_LOG_PROBES: log /healthz, /readyz and /metrics requests that succeed too. */
  accessLogProbes?: boolean | undefined;
  /** The merchant console (CONSOLE, CONSOLE_SESSION_MINUTES); absent: on, sessions of 8 hours. */
  console?: { enabled: boolean; sessionMinutes: number } | undefined;
  ramp: { apiUrl: string; widgetUrl: string; publicKey: string; secretKey: string };
  /**
   * Fulfilment events: the receivers and their Standard Webhooks secret. An app that mounts us hears them in
   * process through `createCheckout(config, { onEvent })`: a function is not configuration.
   */
  events: { webhookUrls: string[]; webhookSecret: string | undefined };
  payments: { apiUrl: string; apiKey: string; webhookSecret: string };
  /** Every rotated secret: current and previous values (README "Rotating secrets"). */
  secrets: SecretsConfig;
  /** Named, scoped admin credentials and the limit on wrong ones. */
  admin: AdminConfig;
  /** Logs and metrics (the observability block above). */
  observability: ObservabilityConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
