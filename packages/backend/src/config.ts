/**
 * The backend's configuration, parsed from the environment with zod; fails fast naming each bad variable. A config
 * object given in code (`createCheckout(config)`) is held to the same rules, with the same messages.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { instanceName } from './logger.ts';
import type { PaymentPolicy } from './orders/payment-policy.ts';
import { loadProductsSync } from './products.ts';
import type { EngineSettings } from './quotes/engine/types.ts';
import {
  type AdminConfig,
  adminConfig,
  type SecretsConfig,
  secretProblems,
  secretsConfig,
  secretVariables,
} from './secrets/config.ts';
import { liveSecretProblems, type VariableSource } from './secrets/samples.ts';
import { badTrustedProxies, splitTrustedProxies } from './trusted-proxies.ts';

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
const notAnOrigin = (raw: string) => `"${raw}" is not an origin like https://shop.example`;
const notAUrl = (raw: string) => `"${raw}" is not an http(s) URL`;

/**
 * Each setting's rule, once: the environment's schema applies it after turning text into a number, the config
 * object's schema (`configSchema`) applies it as it is, so both refuse the same values with the same message.
 */
const rules = {
  port: z.number().int().min(0).max(65535),
  markup: z.number().min(0, 'MARKUP must be between 0 and 5').max(5, 'MARKUP must be between 0 and 5'),
  databaseUrl: z.url({
    protocol: /^postgres(ql)?$/,
    error: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
  }),
  retentionHours: z
    .number()
    .min(1)
    .max(24 * 365),
  redisUrl: z.url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' }),
  redisFallbackInstances: z.number().int().min(1).max(1000),
  upstreamBudget: z.number().int().min(1).max(100),
  upstreamTimeoutMs: z.number().int().min(100).max(120_000),
  shutdownDrainMs: z.number().int().min(0).max(600_000),
  shutdownTimeoutMs: z.number().int().min(1000).max(600_000),
  quoteFreshMs: z.number().int().min(100).max(600_000),
  quoteMaxStaleMs: z.number().int().min(100).max(3_600_000),
  share: z.number().min(0).max(1),
  driftThreshold: z.number().positive().max(1),
  orderFollowMs: z.number().int().min(1000).max(3_600_000),
  rateLimitPerMinute: z.number().int().min(1).max(1_000_000),
  trustedProxies: z.array(z.string()).superRefine((entries, ctx) => {
    for (const bad of badTrustedProxies(entries))
      ctx.addIssue({
        code: 'custom',
        message: `"${bad}" is not an address, a CIDR range (10.0.0.0/8), loopback, private nor linklocal`,
      });
  }),
  webhookSecret: z
    .string()
    .regex(
      /^whsec_[A-Za-z0-9+/=]{24,}$/,
      'MERCHANT_WEBHOOK_SECRET must be whsec_ and at least 24 base64 characters',
    ),
};
const countryMessage = 'DEFAULT_COUNTRY must be a 2-letter country code';
/** A number read from the environment's text, then held to `rule`. */
const numeric = <T extends z.ZodType<number, number>>(rule: T) => z.coerce.number().pipe(rule);

// --- Observability (issue 26): logs, metrics. Kept together so each concern's variables stay in one block. ---

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** How lines are written, what /metrics serves and to whom. */
export interface ObservabilityConfig {
  logLevel: (typeof logLevels)[number];
  /** `json`: one JSON object a line; `pretty`: readable lines; `auto`: pretty in a terminal outside production. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** Names this instance in every log line (`instance`). */
  instance: string;
  metrics: {
    enabled: boolean;
    /** Bearer token /metrics asks for (on the app's port, or on METRICS_PORT too when both are set). */
    token: string | undefined;
    /** Serves /metrics on a listener of its own instead of the app's port. */
    port: number | undefined;
    host: string;
  };
}

function observabilityVars() {
  return {
    /** fatal | error | warn | info | debug | trace | silent. */
    LOG_LEVEL: z.enum(logLevels).default('info'),
    LOG_FORMAT: z.enum(['json', 'pretty', 'auto']).default('auto'),
    INSTANCE_NAME: z.string().min(1).max(200).optional(),
    METRICS: z.enum(['on', 'off']).default('off'),
    METRICS_TOKEN: secret('METRICS_TOKEN').optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  };
}

type ObservabilityVars = z.output<z.ZodObject<ReturnType<typeof observabilityVars>>>;

/** Problems no single variable shows: metrics on, but neither protected by a token nor on a port of its own. */
function observabilityProblems(env: Record<string, string | undefined>): string[] {
  if (env['METRICS'] !== 'on' || env['METRICS_TOKEN'] || env['METRICS_PORT']) return [];
  return [
    'METRICS=on needs METRICS_TOKEN (a bearer token for /metrics) or METRICS_PORT (a listener of its own, on METRICS_HOST)',
  ];
}

function observabilityOf(vars: ObservabilityVars & { PORT: number }): ObservabilityConfig {
  return {
    logLevel: vars.LOG_LEVEL,
    logFormat: vars.LOG_FORMAT,
    instance: instanceName(vars.INSTANCE_NAME, vars.PORT),
    metrics: {
      enabled: vars.METRICS === 'on',
      token: vars.METRICS_TOKEN,
      port: vars.METRICS_PORT,
      host: vars.METRICS_HOST,
    },
  };
}

// --- end of observability ---

const baseSchema = z.object({
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
  // The payment policy (docs/money.md, orders/payment-policy.ts): how short an order may be and still count as
  // paid, and how long after expiry a payment is still matched to its order (as paid late).
  /** Percent of the amount due an underpayment may miss and still count as paid (0–50; default 0: none). */
  PAYMENT_TOLERANCE_PERCENT: z
    .string()
    .trim()
    .regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage such as 0.5 (at most 4 decimals)')
    .refine((value) => Number(value) <= 50, 'must be at most 50')
    .default('0'),
  /** How long after expiry a payment is matched to its order as paid late: `90m`, `24h`, `2d` (default `24h`). */
  LATE_PAYMENT_WINDOW: z
    .string()
    .trim()
    .regex(/^\d{1,4}(m|h|d)$/, 'must be minutes, hours or days: 90m, 24h, 2d')
    .transform(
      (value) =>
        Number(value.slice(0, -1)) *
        { m: 60_000, h: 3_600_000, d: 86_400_000 }[value.slice(-1) as 'm' | 'h' | 'd'],
    )
    .default(86_400_000),
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

const origin = z.string().refine(
  (raw) => {
    try {
      return new URL(raw).origin === raw;
    } catch {
      return false;
    }
  },
  { error: (issue) => notAnOrigin(String(issue.input)) },
);
const urlOf = z
  .string()
  .refine((raw) => url.safeParse(raw).success, { error: (issue) => notAUrl(String(issue.input)) });

/** The shape `loadConfig` returns, each field under the rule of the variable it comes from. */
const configSchema = z.object({
  mode: z.enum(['sandbox', 'live']),
  port: rules.port,
  publicUrl: urlOf,
  allowedOrigins: z.array(origin),
  markup: rules.markup,
  productsFile: z.string().min(1).nullable(),
  checkoutTokenSecret: secret('CHECKOUT_TOKEN_SECRET'),
  adminToken: secret('ADMIN_TOKEN').optional(),
  dataDir: z.string().min(1),
  databaseUrl: rules.databaseUrl.optional(),
  retentionMs: z
    .number()
    .min(3_600_000)
    .max(24 * 365 * 3_600_000),
  redisUrl: rules.redisUrl.optional(),
  redisFallbackInstances: rules.redisFallbackInstances.optional(),
  defaultCountry: z.string().regex(/^[A-Z]{2}$/, countryMessage),
  upstreamBudget: rules.upstreamBudget,
  upstreamTimeoutMs: rules.upstreamTimeoutMs,
  shutdown: z.object({ drainMs: rules.shutdownDrainMs, timeoutMs: rules.shutdownTimeoutMs }).optional(),
  quoteEngine: z.object({
    enabled: z.boolean(),
    freshMs: rules.quoteFreshMs,
    maxStaleMs: rules.quoteMaxStaleMs,
    refreshShare: rules.share,
    samplerShare: rules.share,
    driftThreshold: rules.driftThreshold,
  }),
  orderFollow: z.object({ everyMs: rules.orderFollowMs, share: rules.share }).optional(),
  paymentPolicy: z.object({ tolerancePercent: z.string(), lateWindowMs: z.number().int().min(0) }).optional(),
  rateLimitPerMinute: rules.rateLimitPerMinute,
  trustedProxies: rules.trustedProxies.optional(),
  accessLog: z.boolean(),
  accessLogProbes: z.boolean().optional(),
  console: z
    .object({
      enabled: z.boolean(),
      sessionMinutes: z
        .number()
        .int()
        .min(5)
        .max(7 * 24 * 60),
    })
    .optional(),
  ramp: z.object({
    apiUrl: urlOf,
    widgetUrl: urlOf,
    publicKey: z.string().min(1),
    secretKey: z.string().min(1),
  }),
  events: z.object({
    webhookUrls: z.array(urlOf),
    webhookSecret: rules.webhookSecret.optional(),
    // Where createCheckout first took its onEvent option; still accepted there (runtime.ts moves it out).
    onEvent: z
      .custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function')
      .optional(),
  }),
  payments: z.object({
    apiUrl: urlOf,
    apiKey: z.string().min(1),
    webhookSecret: z.string().min(1),
  }),
  // Built by loadConfig from the *_PREVIOUS and ADMIN_CREDENTIALS variables (secrets/config.ts checks them there).
  secrets: z.custom<SecretsConfig>(
    (value) => typeof value === 'object' && value !== null,
    'missing: spread loadConfig()',
  ),
  observability: z.custom<ObservabilityConfig>(
    (value) => typeof value === 'object' && value !== null,
    'missing: spread loadConfig()',
  ),
  admin: z.custom<AdminConfig>(
    (value) => typeof value === 'object' && value !== null,
    'missing: spread loadConfig()',
  ),
} satisfies Record<keyof Config, z.ZodType>);

const unsignedEvents =
  'MERCHANT_WEBHOOK_SECRET is missing (MERCHANT_WEBHOOK_URL is set): events are always signed';

/**
 * Holds a config object given in code (`createCheckout(config)`) to the rules the environment's values meet,
 * with the same messages, so a mistake stops it at once rather than failing every order later. Returns the same
 * object; throws ConfigError naming each field (`events.webhookUrls: …`).
 */
export function checkConfig(config: Config): Config {
  const parsed = configSchema.safeParse(config);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
  const events = (config as Partial<Config> | undefined)?.events;
  if (Array.isArray(events?.webhookUrls) && events.webhookUrls.length && !events.webhookSecret)
    problems.push(`events.webhookSecret: ${unsignedEvents}`);
  const productsFile = (config as Partial<Config> | undefined)?.productsFile;
  if (typeof productsFile === 'string' && productsFile) {
    try {
      loadProductsSync(productsFile);
    } catch (error) {
      problems.push(`productsFile: ${(error as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * Reads `.env` in `dir` (the working directory) into `process.env` with Node's own parser
 * (`process.loadEnvFile`, the format of `node --env-file`). A variable already in the environment wins over the
 * file. Returns the file's path, or undefined when there is none. Node's rather than dotenv's: no dependency, the
 * format operators meet in `node --env-file`, present since Node 20.12 (our floor is 20.19) and stable in later
 * lines; the format is dotenv's (quotes, `export`, `#` comments, multi-line quoted values).
 */
export function readEnvFile(dir: string = process.cwd()): string | undefined {
  const file = path.resolve(dir, '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

/**
 * Where each variable `env` took from the `.env` file `file` was set (`/srv/shop/.env line 39`), for messages
 * that name it; undefined for a variable the environment set (it wins over the file) or the file does not set.
 */
export function envFileSource(file: string, env: Record<string, string | undefined>): VariableSource {
  const text = readFileSync(file, 'utf8');
  const values = parseEnv(text);
  const lines = new Map<string, number>();
  // The last assignment is the one the parser keeps.
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name) lines.set(name, index + 1);
  }
  return (name) => {
    const line = lines.get(name);
    return line !== undefined && values[name] === env[name] ? `${file} line ${line}` : undefined;
  };
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * What an operator should hear at start about a configuration that runs but is likely wrong: live keys with an
 * `http:` PUBLIC_URL, or a PUBLIC_URL on this machine that is not where the backend listens (`port`), so every
 * payment link and return page would point at nothing.
 */
export function startWarnings(config: Config, port: number): string[] {
  const warnings: string[] = [];
  const publicUrl = new URL(config.publicUrl);
  if (config.mode === 'live' && publicUrl.protocol === 'http:')
    warnings.push(
      `PUBLIC_URL ${config.publicUrl} is http: with live keys set: shoppers' return pages and the upstream's ` +
        'webhooks would travel unencrypted. Serve it over HTTPS (behind a TLS proxy) and set PUBLIC_URL to the https:// address.',
    );
  if (loopbackHosts.has(publicUrl.hostname)) {
    const publicPort = Number(publicUrl.port || (publicUrl.protocol === 'https:' ? 443 : 80));
    if (publicPort !== port)
      warnings.push(
        `PUBLIC_URL ${config.publicUrl} is on this machine at port ${publicPort}, but the backend listens on ` +
          `${port}: payment links and return pages would point at nothing. Set PUBLIC_URL to the address shoppers use.`,
      );
    else if (publicUrl.pathname !== '/')
      warnings.push(
        `PUBLIC_URL ${config.publicUrl} has a path, but this command serves at the root of port ${port}: ` +
          'payment links and return pages would point at nothing. Drop the path, or mount createCheckout() under it.',
      );
  }
  return warnings;
}

/** The backend's own origin at `port` under each local name: `localhost`, `127.0.0.1` and `[::1]`. */
export const loopbackOrigins = (port: number) =>
  ['localhost', '127.0.0.1', '[::1]'].map((host) => `http://${host}:${port}`);

const defaultProductsFile = new URL('../data/products.json', import.meta.url).pathname;

/** PRODUCTS_FILE's value for "no catalog": every checkout is priced by a checkout token your server mints. */
export const noCatalog = 'none';

const noCatalogChosen =
  'PRODUCTS_FILE is not set, and live mode does not sell the sample catalog. Fix: set PRODUCTS_FILE to your catalog (a JSON file, see data/products.json), or PRODUCTS_FILE=none for checkouts priced by checkout tokens only.';

/** Whether `file` is the sample catalog shipped with the backend (the file itself, or a copy of it). */
function isSampleCatalog(file: string): boolean {
  try {
    return (
      realpathSync(file) === realpathSync(defaultProductsFile) ||
      readFileSync(file, 'utf8').trim() === readFileSync(defaultProductsFile, 'utf8').trim()
    );
  } catch {
    return false;
  }
}

export interface LoadConfigOptions {
  /** Where each variable was set (`envFileSource`), so a refusal names the `.env` line to change. */
  source?: VariableSource;
}

/**
 * Reads the configuration. With no upstream variable set it runs on the sandbox (mounted at
 * `${PUBLIC_URL}/sandbox`); with some but not all set it refuses, listing what is missing, so it never
 * falls back to the sandbox by accident when keys are given.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  const source = options.source ?? (() => undefined);
  const named = (name: string) => {
    const where = source(name);
    return where ? `${name} (${where})` : name;
  };
  const parsed = baseSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        // `PAY_WEBHOOK_SECRET_PREVIOUS (.env line 110) value 2: …` for the second value of a list.
        const [name = 'env', ...rest] = issue.path.map(String);
        const where = source(name);
        const item = rest.length ? ` value ${Number(rest[0]) + 1}` : '';
        return `${name}${where ? ` (${where})` : ''}${item}: ${issue.message}`;
      });
  // Read from the raw environment, so one message names the bad variables and the missing ones together.
  const given = upstreamVars.filter((name) => env[name] !== undefined);
  const mode = given.length === 0 ? 'sandbox' : 'live';
  if (mode === 'live') {
    for (const name of upstreamVars) {
      if (env[name] === undefined) problems.push(`${name} is missing (the other upstream variables are set)`);
    }
    if (!env['PUBLIC_URL']) problems.push('PUBLIC_URL is missing (needed for return and webhook URLs)');
    if (!env['CHECKOUT_TOKEN_SECRET']) problems.push('CHECKOUT_TOKEN_SECRET is missing');
    if (!env['ADMIN_TOKEN'] && !env['ADMIN_CREDENTIALS']?.trim())
      problems.push('ADMIN_CREDENTIALS is missing (or the older single ADMIN_TOKEN)');
    if (!(env['ALLOWED_ORIGINS'] ?? '').split(',').some((part) => part.trim()))
      problems.push('ALLOWED_ORIGINS is missing (the storefront origins)');
    const credentials = secretVariables.ADMIN_CREDENTIALS.safeParse(env['ADMIN_CREDENTIALS']);
    problems.push(...liveSecretProblems(env, credentials.success ? credentials.data : [], source));
    if (!env['PRODUCTS_FILE']) problems.push(noCatalogChosen);
    else if (env['PRODUCTS_FILE'] !== noCatalog && isSampleCatalog(env['PRODUCTS_FILE']))
      problems.push(
        `${named('PRODUCTS_FILE')} is the sample catalog shipped with the backend (the demo's products and prices). Fix: set PRODUCTS_FILE to your catalog, or PRODUCTS_FILE=none for checkouts priced by checkout tokens only.`,
      );
  }
  if (env['MERCHANT_WEBHOOK_URL']?.trim() && !env['MERCHANT_WEBHOOK_SECRET']) problems.push(unsignedEvents);
  problems.push(...secretProblems(env));
  problems.push(...observabilityProblems(env));
  // The catalog is what orders are priced from: a missing or broken file is refused now, not at the first order.
  const productsFile =
    env['PRODUCTS_FILE'] === noCatalog ? null : env['PRODUCTS_FILE'] || defaultProductsFile;
  try {
    if (productsFile) loadProductsSync(productsFile);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const vars = parsed.data;

  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`;
  const sandboxBase = `${publicUrl}/sandbox`;
  const origins = vars.ALLOWED_ORIGINS.length ? vars.ALLOWED_ORIGINS : [new URL(publicUrl).origin];
  const checkoutTokenSecret =
    vars.CHECKOUT_TOKEN_SECRET ?? 'sandbox-checkout-token-secret-not-for-production';
  // With no admin credential at all (the sandbox), a fixed sandbox-only token is the "admin" write credential.
  const adminToken =
    vars.ADMIN_TOKEN ??
    (vars.ADMIN_CREDENTIALS.length ? undefined : 'sandbox-admin-token-not-for-production');
  const rampSecretKey = vars.RAMP_SECRET_KEY ?? sandboxKeys.RAMP_SECRET_KEY;
  const payWebhookSecret = vars.PAY_WEBHOOK_SECRET ?? sandboxKeys.PAY_WEBHOOK_SECRET;
  return {
    mode,
    port: vars.PORT,
    publicUrl,
    // A first run is opened at whichever local address people type; live mode trusts ALLOWED_ORIGINS only.
    allowedOrigins: mode === 'sandbox' ? [...new Set([...origins, ...loopbackOrigins(vars.PORT)])] : origins,
    markup: vars.MARKUP,
    productsFile,
    checkoutTokenSecret,
    adminToken,
    dataDir: vars.DATA_DIR,
    databaseUrl: vars.DATABASE_URL,
    retentionMs: vars.RETENTION_HOURS * 3_600_000,
    redisUrl: vars.REDIS_URL,
    redisFallbackInstances: vars.REDIS_FALLBACK_INSTANCES,
    defaultCountry: vars.DEFAULT_COUNTRY,
    upstreamBudget: vars.UPSTREAM_BUDGET,
    upstreamTimeoutMs: vars.UPSTREAM_TIMEOUT_MS,
    shutdown: { drainMs: vars.SHUTDOWN_DRAIN_MS, timeoutMs: vars.SHUTDOWN_TIMEOUT_MS },
    quoteEngine: {
      enabled: vars.QUOTE_DERIVE === 'on',
      freshMs: vars.QUOTE_DERIVE_FRESH_MS,
      maxStaleMs: Math.max(vars.QUOTE_DERIVE_MAX_STALE_MS, vars.QUOTE_DERIVE_FRESH_MS),
      refreshShare: vars.QUOTE_REFRESH_SHARE,
      samplerShare: vars.QUOTE_SAMPLER_SHARE,
      driftThreshold: vars.QUOTE_DRIFT_THRESHOLD,
    },
    orderFollow: { everyMs: vars.ORDER_FOLLOW_MS, share: vars.ORDER_FOLLOW_SHARE },
    paymentPolicy: {
      tolerancePercent: vars.PAYMENT_TOLERANCE_PERCENT,
      lateWindowMs: vars.LATE_PAYMENT_WINDOW,
    },
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    trustedProxies: vars.TRUSTED_PROXIES,
    accessLog: vars.ACCESS_LOG === 'on',
    accessLogProbes: vars.ACCESS_LOG_PROBES === 'on',
    console: { enabled: vars.CONSOLE === 'on', sessionMinutes: vars.CONSOLE_SESSION_MINUTES },
    ramp: {
      apiUrl: vars.RAMP_API_URL ?? `${sandboxBase}/ramp`,
      widgetUrl: vars.RAMP_WIDGET_URL ?? `${sandboxBase}/ramp`,
      publicKey: vars.RAMP_PUBLIC_KEY ?? sandboxKeys.RAMP_PUBLIC_KEY,
      secretKey: rampSecretKey,
    },
    events: { webhookUrls: vars.MERCHANT_WEBHOOK_URL, webhookSecret: vars.MERCHANT_WEBHOOK_SECRET },
    payments: {
      apiUrl: vars.PAY_API_URL ?? `${sandboxBase}/pay-api`,
      apiKey: vars.PAY_API_KEY ?? sandboxKeys.PAY_API_KEY,
      webhookSecret: payWebhookSecret,
    },
    secrets: secretsConfig(vars, {
      checkoutToken: checkoutTokenSecret,
      merchantWebhook: vars.MERCHANT_WEBHOOK_SECRET,
      payWebhook: payWebhookSecret,
      rampSecret: rampSecretKey,
    }),
    admin: adminConfig(vars, adminToken),
    observability: observabilityOf(vars),
  };
}
