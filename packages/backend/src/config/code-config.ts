/** A config object given in code (`createCheckout(config)`), held to the rules the environment's values meet. */
import { z } from 'zod';
import { loadProductsSync } from '../products.ts';
import type { AdminConfig, SecretsConfig } from '../secrets/config.ts';
import { type Config, ConfigError } from './config-type.ts';
import type { ObservabilityConfig } from './observability.ts';
import { countryMessage, origin, rules, secret, urlOf } from './rules.ts';

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

export const unsignedEvents =
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
