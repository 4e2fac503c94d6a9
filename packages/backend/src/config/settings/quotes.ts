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
};
