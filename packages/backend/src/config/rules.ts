/**
 * Each setting's rule, and the small pieces they are made of: the environment's schema applies a rule after turning
 * text into a number, the code-config schema applies it as it is, so both refuse the same values with the same
 * message.
 */
import { z } from 'zod';
import { badTrustedProxies } from '../trusted-proxies.ts';

export const url = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ''));
export const secret = (name: string) => z.string().min(16, `${name} must be at least 16 characters`);
export const notAnOrigin = (raw: string) => `"${raw}" is not an origin like https://shop.example`;
export const notAUrl = (raw: string) => `"${raw}" is not an http(s) URL`;

/**
 * Each setting's rule, once: the environment's schema applies it after turning text into a number, the config
 * object's schema (`codeConfigSchema`, registry.ts) applies it as it is, so both refuse the same values with the same message.
 */
export const rules = {
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
export const countryMessage = 'DEFAULT_COUNTRY must be a 2-letter country code';
/** A number read from the environment's text, then held to `rule`. */
export const numeric = <T extends z.ZodType<number, number>>(rule: T) => z.coerce.number().pipe(rule);

export const origin = z.string().refine(
  (raw) => {
    try {
      return new URL(raw).origin === raw;
    } catch {
      return false;
    }
  },
  { error: (issue) => notAnOrigin(String(issue.input)) },
);
export const urlOf = z
  .string()
  .refine((raw) => url.safeParse(raw).success, { error: (issue) => notAUrl(String(issue.input)) });
