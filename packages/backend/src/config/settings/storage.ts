/** Where what must survive is kept, for how long, and the Redis several instances share. */
import { z } from 'zod';
import { numeric, rules } from '../rules.ts';
import { setting } from '../setting.ts';

export const storageSettings = {
  DATA_DIR: setting({
    env: z.string().min(1).default('.data'),
    doc: 'Where the SQLite database lives (one process per DATA_DIR).',
    at: 'dataDir',
    code: z.string().min(1),
  }),
  DATABASE_URL: setting({
    env: rules.databaseUrl.optional(),
    doc: 'PostgreSQL for several instances (`postgres://user:pass@host:5432/db`); unset: SQLite under DATA_DIR.',
    at: 'databaseUrl',
    code: rules.databaseUrl.optional(),
  }),
  RETENTION_HOURS: setting({
    env: numeric(rules.retentionHours).default(24),
    doc: 'Hours finished idempotency records and webhook dedupe records are kept (the ledger is kept for ever).',
    at: 'retentionMs',
    code: z
      .number()
      .min(3_600_000)
      .max(24 * 365 * 3_600_000),
    to: (hours) => hours * 3_600_000,
  }),
  REDIS_URL: setting({
    env: rules.redisUrl.optional(),
    doc: 'Redis shared by several instances: upstream budget, client limits, quote cache, order-status fan-out.',
    at: 'redisUrl',
    code: rules.redisUrl.optional(),
  }),
  REDIS_FALLBACK_INSTANCES: setting({
    env: numeric(rules.redisFallbackInstances).optional(),
    // Unset → answer 503 for what needs Redis; N → each instance falls back to its own budget of UPSTREAM_BUDGET ÷ N.
    doc: 'With Redis unreachable: unset answers 503; N divides the upstream budget by N instances, each on its own.',
    at: 'redisFallbackInstances',
    code: rules.redisFallbackInstances.optional(),
  }),
};
