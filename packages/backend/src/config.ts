/** The backend's configuration, parsed from the environment with zod; fails fast naming each bad variable. */
import { z } from 'zod';
import { loadProductsSync } from './products.ts';
import type { EngineSettings } from './quotes/engine.ts';

const upstreamVars = [
  'RAMP_API_URL',
  'RAMP_WIDGET_URL',
  'RAMP_PUBLIC_KEY',
  'RAMP_SECRET_KEY',
  'PAY_API_URL',
  'PAY_API_KEY',
  'PAY_WEBHOOK_SECRET',
] as const;

/** Keys of the sandbox's form (see packages/sandbox/README.md): one merchant, id `demo`. */
export const sandboxKeys = {
  RAMP_PUBLIC_KEY: 'pk_sandbox_demo',
  RAMP_SECRET_KEY: 'sk_sandbox_demo',
  PAY_API_KEY: 'pay_sandbox_demo',
  PAY_WEBHOOK_SECRET: 'whsec_sandbox_demo',
} as const;

const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));
const secret = (name: string) => z.string().min(16, `${name} must be at least 16 characters`);

const baseSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
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
          ctx.addIssue({ code: 'custom', message: `"${raw}" is not an origin like https://shop.example` });
        }
      }
      return origins;
    }),
  MARKUP: z.coerce
    .number()
    .min(0, 'MARKUP must be between 0 and 5')
    .max(5, 'MARKUP must be between 0 and 5')
    .default(0),
  PRODUCTS_FILE: z.string().min(1).optional(),
  CHECKOUT_TOKEN_SECRET: secret('CHECKOUT_TOKEN_SECRET').optional(),
  ADMIN_TOKEN: secret('ADMIN_TOKEN').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  /** PostgreSQL for several instances (`postgres://user:pass@host:5432/db`); unset: SQLite under DATA_DIR. */
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
    .optional(),
  /** Hours finished idempotency records and webhook dedupe records are kept (the ledger is kept for ever). */
  RETENTION_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 365)
    .default(24),
  /** Redis shared by several instances: upstream budget, client limits, quote cache, order-status fan-out. */
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' })
    .optional(),
  /**
   * With Redis unreachable: unset → answer 503 for what needs it; N → each instance falls back to its own
   * budget of UPSTREAM_BUDGET ÷ N (N = how many instances run) and its own limiter and cache.
   */
  REDIS_FALLBACK_INSTANCES: z.coerce.number().int().min(1).max(1000).optional(),
  DEFAULT_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'DEFAULT_COUNTRY must be a 2-letter country code')
    .transform((value) => value.toUpperCase())
    .default('DE'),
  /** Upstream ramp calls per second this backend allows itself (the upstream's limit is 100 for the merchant). */
  UPSTREAM_BUDGET: z.coerce.number().int().min(1).max(100).default(90),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Derive quotes for any amount from each combination's latest upstream quote (`off`: every quote upstream). */
  QUOTE_DERIVE: z.enum(['on', 'off']).default('on'),
  /** How long an upstream quote prices other amounts without asking again (ms). */
  QUOTE_DERIVE_FRESH_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** How long it still prices when the upstream cannot answer (budget spent, timeout, 5xx) (ms). */
  QUOTE_DERIVE_MAX_STALE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Share of the upstream budget spent keeping busy combinations' quotes fresh (0–1). */
  QUOTE_REFRESH_SHARE: z.coerce.number().min(0).max(1).default(0.3),
  /** Share of the upstream budget spent checking derived quotes against the upstream (0–1; 0 = off). */
  QUOTE_SAMPLER_SHARE: z.coerce.number().min(0).max(1).default(0.05),
  /** Relative difference between a derived and an upstream quote past which a combination is upstream-only. */
  QUOTE_DRIFT_THRESHOLD: z.coerce.number().positive().max(1).default(0.005),
  /** Requests per minute one client (IP) may send to the public routes. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** One line per request on stdout (request id, method, path, status, time); `off` in tests. */
  ACCESS_LOG: z.enum(['on', 'off']).default('on'),
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
        if (!url.safeParse(raw).success)
          ctx.addIssue({ code: 'custom', message: `"${raw}" is not an http(s) URL` });
      }
      return urls.map((raw) => raw.replace(/\/+$/, ''));
    }),
  MERCHANT_WEBHOOK_SECRET: z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/=]{24,}$/,
      'MERCHANT_WEBHOOK_SECRET must be whsec_ and at least 24 base64 characters',
    )
    .optional(),
  RAMP_API_URL: url.optional(),
  RAMP_WIDGET_URL: url.optional(),
  RAMP_PUBLIC_KEY: z.string().min(1).optional(),
  RAMP_SECRET_KEY: z.string().min(1).optional(),
  PAY_API_URL: url.optional(),
  PAY_API_KEY: z.string().min(1).optional(),
  PAY_WEBHOOK_SECRET: z.string().min(1).optional(),
});

/** Every variable the backend reads (`.env.example` documents each). */
export const envVariables = Object.keys(baseSchema.shape) as ReadonlyArray<keyof typeof baseSchema.shape>;

export interface Config {
  mode: 'sandbox' | 'live';
  port: number;
  publicUrl: string;
  allowedOrigins: string[];
  markup: number;
  productsFile: string;
  checkoutTokenSecret: string;
  adminToken: string;
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
  /** The quote engine (quotes/engine.ts). */
  quoteEngine: EngineSettings;
  rateLimitPerMinute: number;
  accessLog: boolean;
  ramp: { apiUrl: string; widgetUrl: string; publicKey: string; secretKey: string };
  /**
   * Fulfilment events: the receivers and their Standard Webhooks secret. An app that mounts us hears them in
   * process through `createCheckout(config, { onEvent })`: a function is not configuration.
   */
  events: { webhookUrls: string[]; webhookSecret: string | undefined };
  payments: { apiUrl: string; apiKey: string; webhookSecret: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The backend's own origin at `port` under each local name: `localhost`, `127.0.0.1` and `[::1]`. */
export const loopbackOrigins = (port: number) =>
  ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`);

const defaultProductsFile = new URL('../data/products.json', import.meta.url).pathname;

/**
 * Reads the configuration. With no upstream variable set it runs on the sandbox (mounted at
 * `${PUBLIC_URL}/sandbox`); with some but not all set it refuses, listing what is missing, so it never
 * falls back to the sandbox by accident when keys are given.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = baseSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  // Read from the raw environment, so one message names the bad variables and the missing ones together.
  const given = upstreamVars.filter((name) => env[name] !== undefined);
  const mode = given.length === 0 ? 'sandbox' : 'live';
  if (mode === 'live') {
    for (const name of upstreamVars) {
      if (env[name] === undefined) problems.push(`${name} is missing (the other upstream variables are set)`);
    }
    if (!env['PUBLIC_URL']) problems.push('PUBLIC_URL is missing (needed for return and webhook URLs)');
    if (!env['CHECKOUT_TOKEN_SECRET']) problems.push('CHECKOUT_TOKEN_SECRET is missing');
    if (!env['ADMIN_TOKEN']) problems.push('ADMIN_TOKEN is missing');
    if (!(env['ALLOWED_ORIGINS'] ?? '').split(',').some((part) => part.trim()))
      problems.push('ALLOWED_ORIGINS is missing (the storefront origins)');
  }
  if (env['MERCHANT_WEBHOOK_URL']?.trim() && !env['MERCHANT_WEBHOOK_SECRET'])
    problems.push(
      'MERCHANT_WEBHOOK_SECRET is missing (MERCHANT_WEBHOOK_URL is set): events are always signed',
    );
  // The catalog is what orders are priced from: a missing or broken file is refused now, not at the first order.
  const productsFile = env['PRODUCTS_FILE'] || defaultProductsFile;
  try {
    loadProductsSync(productsFile);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const vars = parsed.data;

  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`;
  const sandboxBase = `${publicUrl}/sandbox`;
  const origins = vars.ALLOWED_ORIGINS.length ? vars.ALLOWED_ORIGINS : [new URL(publicUrl).origin];
  return {
    mode,
    port: vars.PORT,
    publicUrl,
    // A first run is opened at whichever local address people type; live mode trusts ALLOWED_ORIGINS only.
    allowedOrigins: mode === 'sandbox' ? [...new Set([...origins, ...loopbackOrigins(vars.PORT)])] : origins,
    markup: vars.MARKUP,
    productsFile,
    checkoutTokenSecret: vars.CHECKOUT_TOKEN_SECRET ?? 'sandbox-checkout-token-secret-not-for-production',
    adminToken: vars.ADMIN_TOKEN ?? 'sandbox-admin-token-not-for-production',
    dataDir: vars.DATA_DIR,
    databaseUrl: vars.DATABASE_URL,
    retentionMs: vars.RETENTION_HOURS * 3_600_000,
    redisUrl: vars.REDIS_URL,
    redisFallbackInstances: vars.REDIS_FALLBACK_INSTANCES,
    defaultCountry: vars.DEFAULT_COUNTRY,
    upstreamBudget: vars.UPSTREAM_BUDGET,
    upstreamTimeoutMs: vars.UPSTREAM_TIMEOUT_MS,
    quoteEngine: {
      enabled: vars.QUOTE_DERIVE === 'on',
      freshMs: vars.QUOTE_DERIVE_FRESH_MS,
      maxStaleMs: Math.max(vars.QUOTE_DERIVE_MAX_STALE_MS, vars.QUOTE_DERIVE_FRESH_MS),
      refreshShare: vars.QUOTE_REFRESH_SHARE,
      samplerShare: vars.QUOTE_SAMPLER_SHARE,
      driftThreshold: vars.QUOTE_DRIFT_THRESHOLD,
    },
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    accessLog: vars.ACCESS_LOG === 'on',
    ramp: {
      apiUrl: vars.RAMP_API_URL ?? `${sandboxBase}/ramp`,
      widgetUrl: vars.RAMP_WIDGET_URL ?? `${sandboxBase}/ramp`,
      publicKey: vars.RAMP_PUBLIC_KEY ?? sandboxKeys.RAMP_PUBLIC_KEY,
      secretKey: vars.RAMP_SECRET_KEY ?? sandboxKeys.RAMP_SECRET_KEY,
    },
    events: { webhookUrls: vars.MERCHANT_WEBHOOK_URL, webhookSecret: vars.MERCHANT_WEBHOOK_SECRET },
    payments: {
      apiUrl: vars.PAY_API_URL ?? `${sandboxBase}/pay-api`,
      apiKey: vars.PAY_API_KEY ?? sandboxKeys.PAY_API_KEY,
      webhookSecret: vars.PAY_WEBHOOK_SECRET ?? sandboxKeys.PAY_WEBHOOK_SECRET,
    },
  };
}
