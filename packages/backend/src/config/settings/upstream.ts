/**
 * The upstream's settings: the seven variables that choose live over the sandbox (none set: the sandbox, with its
 * own URLs and keys; all set: live; some: refused), and how this backend rations its calls.
 */
import { z } from 'zod';
import { numeric, rules, url, urlOf } from '../rules.ts';
import { setting } from '../setting.ts';

const key = z.string().min(1);

export const upstreamSettings = {
  RAMP_API_URL: setting({
    env: url.optional(),
    doc: 'Base URL of the ramp merchant API (paths /api/v1/merchant/... are appended).',
    at: 'ramp.apiUrl',
    code: urlOf,
    decided: true,
  }),
  RAMP_WIDGET_URL: setting({
    env: url.optional(),
    doc: 'Where the ramp widget is served.',
    at: 'ramp.widgetUrl',
    code: urlOf,
    decided: true,
  }),
  RAMP_PUBLIC_KEY: setting({
    env: key.optional(),
    doc: 'The ramp public key, sent as apiKey.',
    at: 'ramp.publicKey',
    code: key,
    decided: true,
  }),
  RAMP_SECRET_KEY: setting({
    env: key.optional(),
    doc: 'The ramp secret key: signs widget URLs and verifies ramp callbacks.',
    at: 'ramp.secretKey',
    code: key,
    decided: true,
  }),
  PAY_API_URL: setting({
    env: url.optional(),
    doc: 'Base URL of the payments API (paths /v1/... are appended).',
    at: 'payments.apiUrl',
    code: urlOf,
    decided: true,
  }),
  PAY_API_KEY: setting({
    env: key.optional(),
    doc: 'X-API-Key of the payments API.',
    at: 'payments.apiKey',
    code: key,
    decided: true,
  }),
  PAY_WEBHOOK_SECRET: setting({
    env: key.optional(),
    doc: 'The secret that signs payments webhooks.',
    at: 'payments.webhookSecret',
    code: key,
    decided: true,
  }),
  UPSTREAM_BUDGET: setting({
    env: numeric(rules.upstreamBudget).default(90),
    doc: "Upstream ramp calls per second this backend allows itself (the upstream's limit is 100 for the merchant).",
    at: 'upstreamBudget',
    code: rules.upstreamBudget,
  }),
  UPSTREAM_TIMEOUT_MS: setting({
    env: numeric(rules.upstreamTimeoutMs).default(10_000),
    doc: 'How long one upstream call may take (ms).',
    at: 'upstreamTimeoutMs',
    code: rules.upstreamTimeoutMs,
  }),
};

/** The seven upstream variables: none set is the sandbox, all set is live, some is refused. */
export const upstreamVars = [
  'RAMP_API_URL',
  'RAMP_WIDGET_URL',
  'RAMP_PUBLIC_KEY',
  'RAMP_SECRET_KEY',
  'PAY_API_URL',
  'PAY_API_KEY',
  'PAY_WEBHOOK_SECRET',
] as const satisfies ReadonlyArray<keyof typeof upstreamSettings>;
