/** The environment's schema: every variable the backend reads, its rule and its default. */
import { z } from 'zod';
import { secretVariables } from '../secrets/config.ts';
import { splitTrustedProxies } from '../trusted-proxies.ts';
import { observabilityVars } from './observability.ts';
import { countryMessage, notAnOrigin, notAUrl, numeric, rules, secret, url } from './rules.ts';

/** The seven upstream variables: none set is the sandbox, all set is live, some is refused. */
export const upstreamVars = [
  'RAMP_API_URL',
  'RAMP_WIDGET_URL',
  'RAMP_PUBLIC_KEY',
  'RAMP_SECRET_KEY',
  'PAY_API_URL',
  'PAY_API_KEY',
  'PAY_WEBHOOK_SECRET',
] as const;

export const baseSchema = z.object({
  PORT: numeric(rules.port).default(8787),
  /** Where shoppers and the upstream reach this backend (return routes, webhooks). */
  PUBLIC_URL: url.optional(),
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const raw of (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        try {
          const parsed = new URL(raw);
          if (parsed.origin === 'null') throw new Error('opaque');
          origins.push(parsed.origin);
        } catch {
          ctx.addIssue({ code: 'custom', message: notAnOrigin(raw) });
        }
      }
      return origins;
    }),
  MARKUP: numeric(rules.markup).default(0),
  PRODUCTS_FILE: z.string().min(1).optional(),
  CHECKOUT_TOKEN_SECRET: secret('CHECKOUT_TOKEN_SECRET').optional(),
  ADMIN_TOKEN: secret('ADMIN_TOKEN').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  /** PostgreSQL for several instances (`postgres://user:pass@host:5432/db`); unset: SQLite under DATA_DIR. */
  DATABASE_URL: rules.databaseUrl.optional(),
  /** Hours finished idempotency records and webhook dedupe records are kept (the ledger is kept for ever). */
  RETENTION_HOURS: numeric(rules.retentionHours).default(24),
  /** Redis shared by several instances: upstream budget, client limits, quote cache, order-status fan-out. */
  REDIS_URL: rules.redisUrl.optional(),
  /**
   * With Redis unreachable: unset → answer 503 for what needs it; N → each instance falls back to its own
   * budget of UPSTREAM_BUDGET ÷ N (N = how many instances run) and its own limiter and cache.
   */
  REDIS_FALLBACK_INSTANCES: numeric(rules.redisFallbackInstances).optional(),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, countryMessage)
    .transform((value) => value.toUpperCase())
    .default('DE'),
  /** Upstream ramp calls per second this backend allows itself (the upstream's limit is 100 for the merchant). */
  UPSTREAM_BUDGET: numeric(rules.upstreamBudget).default(90),
  UPSTREAM_TIMEOUT_MS: numeric(rules.upstreamTimeoutMs).default(10_000),
  /** After SIGTERM: how long requests are still served while /readyz fails, so a load balancer moves away (ms). */
  SHUTDOWN_DRAIN_MS: numeric(rules.shutdownDrainMs).default(3000),
  /** After SIGTERM: the most the whole shutdown may take before the process exits anyway, with code 1 (ms). */
  SHUTDOWN_TIMEOUT_MS: numeric(rules.shutdownTimeoutMs).default(30_000),
  /** Derive quotes for any amount from each combination's latest upstream quote (`off`: every quote upstream). */
  QUOTE_DERIVE: z.enum(['on', 'off']).default('on'),
  /** How long an upstream quote prices other amounts without asking again (ms). */
  QUOTE_DERIVE_FRESH_MS: numeric(rules.quoteFreshMs).default(10_000),
  /** How long it still prices when the upstream cannot answer (budget spent, timeout, 5xx) (ms). */
  QUOTE_DERIVE_MAX_STALE_MS: numeric(rules.quoteMaxStaleMs).default(60_000),
  /** Share of the upstream budget spent keeping busy combinations' quotes fresh (0–1). */
  QUOTE_REFRESH_SHARE: numeric(rules.share).default(0.3),
  /** Share of the upstream budget spent checking derived quotes against the upstream (0–1; 0 = off). */
  QUOTE_SAMPLER_SHARE: numeric(rules.share).default(0.05),
  /** Relative difference between a derived and an upstream quote past which a combination is upstream-only. */
  QUOTE_DRIFT_THRESHOLD: numeric(rules.driftThreshold).default(0.005),
  // Orders without a browser (docs/money.md): how often each unfinished order is read again from the upstream, and
  // the share of the upstream budget those reads may take.
  /** How often the background follower reads each unfinished order from the upstream (ms). */
  ORDER_FOLLOW_MS: numeric(rules.orderFollowMs).default(30_000),
  /** Share of the upstream budget the follower may take (0–1; 0 = off: orders move only on webhooks and pages). */
  ORDER_FOLLOW_SHARE: numeric(rules.share).default(0.1),
  /** Requests per minute one client (IP) may send to the public routes. */
  RATE_LIMIT_PER_MINUTE: numeric(rules.rateLimitPerMinute).default(120),
  /** Proxies whose X-Forwarded-For names the client: addresses, CIDR ranges, loopback, private (none: nobody's). */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value) => splitTrustedProxies(value))
    .pipe(rules.trustedProxies),
  /** One line per request on stdout (request id, method, path, status, time); `off` in tests. */
  ACCESS_LOG: z.enum(['on', 'off']).default('on'),
  /** Whether the access log keeps successful probes and scrapes (/healthz, /readyz, /metrics); failed ones always are. */
  ACCESS_LOG_PROBES: z.enum(['on', 'off']).default('off'),
  /** The merchant console at /console (docs/console.md); `off` serves nothing there. */
  CONSOLE: z.enum(['on', 'off']).default('on'),
  /** How long a console sign-in lasts, in minutes (its session cookie and the stored session expire together). */
  CONSOLE_SESSION_MINUTES: numeric(
    z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60),
  ).default(480),
  /** Where fulfilment events go (comma-separated URLs), signed per Standard Webhooks with the secret below. */
  MERCHANT_WEBHOOK_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const urls = (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      for (const raw of urls) {
        if (!url.safeParse(raw).success) ctx.addIssue({ code: 'custom', message: notAUrl(raw) });
      }
      return urls.map((raw) => raw.replace(/\/+$/, ''));
    }),
  MERCHANT_WEBHOOK_SECRET: rules.webhookSecret.optional(),
  RAMP_API_URL: url.optional(),
  RAMP_WIDGET_URL: url.optional(),
  RAMP_PUBLIC_KEY: z.string().min(1).optional(),
  RAMP_SECRET_KEY: z.string().min(1).optional(),
  PAY_API_URL: url.optional(),
  PAY_API_KEY: z.string().min(1).optional(),
  PAY_WEBHOOK_SECRET: z.string().min(1).optional(),

  // --- Secret rotation and scoped admin access (secrets/config.ts) ---------------------------------------
  ...secretVariables,
  ...observabilityVars(),
});

/** Every variable the backend reads (`.env.example` documents each). */
export const envVariables = Object.keys(baseSchema.shape) as ReadonlyArray<keyof typeof baseSchema.shape>;
