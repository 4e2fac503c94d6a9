/** The quote engine's settings, and the follower of unfinished orders (both spend the upstream budget). */
import { z } from 'zod';
import { numeric, rules } from '../rules.ts';
import { setting } from '../setting.ts';

export const quoteSettings = {
  QUOTE_DERIVE: setting({
    env: z.enum(['on', 'off']).default('on'),
    doc: "Derive quotes for any amount from each combination's latest upstream quote (`off`: every quote upstream).",
    at: 'quoteEngine.enabled',
    code: z.boolean(),
    to: (value) => value === 'on',
  }),
  QUOTE_DERIVE_FRESH_MS: setting({
    env: numeric(rules.quoteFreshMs).default(10_000),
    doc: 'How long an upstream quote prices other amounts without asking again (ms).',
    at: 'quoteEngine.freshMs',
    code: rules.quoteFreshMs,
  }),
  QUOTE_DERIVE_MAX_STALE_MS: setting({
    env: numeric(rules.quoteMaxStaleMs).default(60_000),
    doc: 'How long it still prices when the upstream cannot answer (budget spent, timeout, 5xx) (ms).',
    at: 'quoteEngine.maxStaleMs',
    code: rules.quoteMaxStaleMs,
    // Never less than QUOTE_DERIVE_FRESH_MS.
    decided: true,
  }),
  QUOTE_REFRESH_SHARE: setting({
    env: numeric(rules.share).default(0.3),
    doc: "Share of the upstream budget spent keeping busy combinations' quotes fresh (0–1).",
    at: 'quoteEngine.refreshShare',
    code: rules.share,
  }),
  QUOTE_SAMPLER_SHARE: setting({
    env: numeric(rules.share).default(0.05),
    doc: 'Share of the upstream budget spent checking derived quotes against the upstream (0–1; 0 = off).',
    at: 'quoteEngine.samplerShare',
    code: rules.share,
  }),
  QUOTE_DRIFT_THRESHOLD: setting({
    env: numeric(rules.driftThreshold).default(0.005),
    doc: 'Relative difference between a derived and an upstream quote past which a combination is upstream-only.',
    at: 'quoteEngine.driftThreshold',
    code: rules.driftThreshold,
  }),
  // Orders without a browser (docs/money.md).
  ORDER_FOLLOW_MS: setting({
    env: numeric(rules.orderFollowMs).default(30_000),
    doc: 'How often the background follower reads each unfinished order from the upstream (ms).',
    at: 'orderFollow.everyMs',
    code: rules.orderFollowMs,
  }),
  ORDER_FOLLOW_SHARE: setting({
    env: numeric(rules.share).default(0.1),
    doc: 'Share of the upstream budget the follower may take (0–1; 0 = off: orders move only on webhooks and pages).',
    at: 'orderFollow.share',
    code: rules.share,
  }),
  // The payment policy (docs/money.md, orders/payment-policy.ts): how short an order may be and still count as
  // paid, and how long after expiry a payment is still matched to its order (as paid late).
  PAYMENT_TOLERANCE_PERCENT: setting({
    env: z
      .string()
      .trim()
      .regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage such as 0.5 (at most 4 decimals)')
      .refine((value) => Number(value) <= 50, 'must be at most 50')
      .default('0'),
    doc: 'Percent of the amount due an underpayment may miss and still count as paid (0–50; default 0: none).',
    at: 'paymentPolicy.tolerancePercent',
    code: z.string(),
  }),
  LATE_PAYMENT_WINDOW: setting({
    env: z
      .string()
      .trim()
      .regex(/^\d{1,4}(m|h|d)$/, 'must be minutes, hours or days: 90m, 24h, 2d')
      .default('24h'),
    doc: 'How long after expiry a payment is matched to its order as paid late: 90m, 24h, 2d (default 24h).',
    at: 'paymentPolicy.lateWindowMs',
    to: (value: string) =>
      Number(value.slice(0, -1)) *
      { m: 60_000, h: 3_600_000, d: 86_400_000 }[value.slice(-1) as 'm' | 'h' | 'd'],
    code: z.number().int().min(0),
  }),
};
