/**
 * The environment variables of secret rotation and scoped admin access, and what `loadConfig` makes of them.
 * Kept apart from config.ts so the block reads as one: `*_PREVIOUS` (the values still accepted during a
 * rotation, comma-separated, newest first), `*_PREVIOUS_UNTIL` (when that overlap ends), `ADMIN_CREDENTIALS`
 * (named, scoped, hashed admin tokens) and how many wrong ones a client may send.
 *
 * Why `*_PREVIOUS` and not a list in the variable itself: the current variable keeps one value, so the
 * merchant's own code that reads it (minting checkout tokens with CHECKOUT_TOKEN_SECRET, verifying events with
 * MERCHANT_WEBHOOK_SECRET) works unchanged through a rotation, and "which one signs" is never a matter of order.
 */
import { z } from 'zod';
import { type AdminCredential, type AdminScope, legacyAdminName, tokenSha256 } from '../admin/credentials.ts';
import type { Keyring } from './keyring.ts';

export const merchantWebhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/=]{24,}$/, 'must be whsec_ and at least 24 base64 characters');

const commaList = (item: z.ZodType<string, string>) =>
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

/** An ISO date or date-time (`2026-12-31`, `2026-12-31T12:00:00Z`) → epoch ms. */
const instant = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
      ? Date.parse(value)
      : Number.NaN;
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO date or date-time like 2026-12-31T12:00:00Z' });
      return z.NEVER;
    }
    return ms;
  });

const credentialPattern = /^([A-Za-z0-9_.-]{1,64}):(read|write):([0-9a-fA-F]{64})$/;

const adminCredentials = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const credentials: AdminCredential[] = [];
    for (const [index, raw] of (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .entries()) {
      const match = credentialPattern.exec(raw);
      if (!match) {
        // The entry is not echoed: it may be a token pasted where its hash belongs.
        ctx.addIssue({
          code: 'custom',
          message: `entry ${index + 1} is not name:read|write:<64 hex characters of SHA-256>`,
        });
        continue;
      }
      const [, name = '', scope = 'read', sha256 = ''] = match;
      credentials.push({ name, scope: scope as AdminScope, sha256: sha256.toLowerCase(), legacy: false });
    }
    return credentials;
  });

/** The variables' rules (each has its entry in config/settings/secrets.ts; `.env.example` documents each). */
export const secretVariables = {
  CHECKOUT_TOKEN_SECRET_PREVIOUS: commaList(
    z.string().min(16, 'each CHECKOUT_TOKEN_SECRET_PREVIOUS value must be at least 16 characters'),
  ),
  CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL: instant,
  MERCHANT_WEBHOOK_SECRET_PREVIOUS: commaList(merchantWebhookSecret),
  MERCHANT_WEBHOOK_SECRET_PREVIOUS_UNTIL: instant,
  PAY_WEBHOOK_SECRET_PREVIOUS: commaList(z.string().min(1)),
  PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL: instant,
  RAMP_SECRET_KEY_PREVIOUS: commaList(z.string().min(1)),
  RAMP_SECRET_KEY_PREVIOUS_UNTIL: instant,
  /** Named admin credentials: `name:read|write:sha256-hex-of-token`, comma-separated. */
  ADMIN_CREDENTIALS: adminCredentials,
  /** Wrong admin credentials one client (IP) may send per 15 minutes before it is refused (429). */
  ADMIN_AUTH_MAX_FAILURES: z.coerce.number().int().min(1).max(100_000).default(10),
};

type SecretVars = { [K in keyof typeof secretVariables]: z.output<(typeof secretVariables)[K]> };

/** Each rotated secret: its current variable and the prefix of its `_PREVIOUS` pair. */
const rotated = [
  'CHECKOUT_TOKEN_SECRET',
  'MERCHANT_WEBHOOK_SECRET',
  'PAY_WEBHOOK_SECRET',
  'RAMP_SECRET_KEY',
] as const;
export type RotatedSecret = (typeof rotated)[number];

/** Problems the schema cannot see: a previous value without a current one, an end without previous values. */
export function secretProblems(env: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const name of rotated) {
    const previous = env[`${name}_PREVIOUS`]?.trim();
    // The sandbox has its own PAY/RAMP secrets; a previous value only means something beside a configured one.
    if (previous && !env[name]) problems.push(`${name}_PREVIOUS is set but ${name} is not`);
    if (env[`${name}_PREVIOUS_UNTIL`]?.trim() && !previous)
      problems.push(`${name}_PREVIOUS_UNTIL is set but ${name}_PREVIOUS is not`);
  }
  const credentials = secretVariables.ADMIN_CREDENTIALS.safeParse(env['ADMIN_CREDENTIALS']);
  if (credentials.success) {
    const scopes = new Map<string, AdminScope>();
    for (const credential of credentials.data) {
      const seen = scopes.get(credential.name);
      if (seen && seen !== credential.scope)
        problems.push(`ADMIN_CREDENTIALS: "${credential.name}" is listed with both read and write scope`);
      scopes.set(credential.name, credential.scope);
    }
    if (env['ADMIN_TOKEN'] && scopes.get(legacyAdminName) === 'read')
      problems.push(
        `ADMIN_CREDENTIALS: "${legacyAdminName}" is the name of ADMIN_TOKEN (write); name the read credential otherwise`,
      );
  }
  return problems;
}

const keyring = (current: string, previous: string[], until: number | undefined): Keyring => ({
  current,
  previous: previous.filter((value) => value !== current),
  previousUntil: until,
});

/** What `loadConfig` keeps of the block. */
export interface SecretsConfig {
  checkoutToken: Keyring;
  /** Absent when no MERCHANT_WEBHOOK_SECRET is set. */
  merchantWebhook: Keyring | undefined;
  payWebhook: Keyring;
  /** Ramp callbacks are verified with any of these; widget URLs are signed with the current one only. */
  rampSecret: Keyring;
}

export interface AdminConfig {
  /** Every accepted credential (ADMIN_CREDENTIALS, then ADMIN_TOKEN as "admin" write). */
  credentials: AdminCredential[];
  maxFailuresPer15Minutes: number;
}

export function secretsConfig(
  vars: SecretVars,
  current: {
    checkoutToken: string;
    merchantWebhook: string | undefined;
    payWebhook: string;
    rampSecret: string;
  },
): SecretsConfig {
  return {
    checkoutToken: keyring(
      current.checkoutToken,
      vars.CHECKOUT_TOKEN_SECRET_PREVIOUS,
      vars.CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL,
    ),
    merchantWebhook: current.merchantWebhook
      ? keyring(
          current.merchantWebhook,
          vars.MERCHANT_WEBHOOK_SECRET_PREVIOUS,
          vars.MERCHANT_WEBHOOK_SECRET_PREVIOUS_UNTIL,
        )
      : undefined,
    payWebhook: keyring(
      current.payWebhook,
      vars.PAY_WEBHOOK_SECRET_PREVIOUS,
      vars.PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL,
    ),
    rampSecret: keyring(
      current.rampSecret,
      vars.RAMP_SECRET_KEY_PREVIOUS,
      vars.RAMP_SECRET_KEY_PREVIOUS_UNTIL,
    ),
  };
}

export function adminConfig(vars: SecretVars, legacyToken: string | undefined): AdminConfig {
  const credentials = [...vars.ADMIN_CREDENTIALS];
  if (legacyToken)
    credentials.push({
      name: legacyAdminName,
      scope: 'write',
      sha256: tokenSha256(legacyToken),
      legacy: true,
    });
  return { credentials, maxFailuresPer15Minutes: vars.ADMIN_AUTH_MAX_FAILURES };
}
