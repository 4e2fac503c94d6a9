/**
 * `crypto-checkout-backend check`: every check of verdicts.ts once, against the configuration in the environment,
 * printed one verdict per line with the fix under each failure or warning; the exit code is 1 when anything
 * failed. It opens the store without migrating it, writes nothing, creates no order and moves no money.
 */
import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { VariableSource } from '../secrets/samples.ts';
import { connectShared, describeRedis, redisReason } from '../shared/redis.ts';
import { createSqlStore, describeDatabase } from '../store/sql-store.ts';
import {
  checkConfiguration,
  checkPaymentsKey,
  checkRampPublicKey,
  checkRampSecretKey,
  checkRedis,
  checkStorage,
  type Verdict,
} from './verdicts.ts';

/** The nearest directory of `dir` that exists (where SQLite's directory would be made). */
function existingParent(dir: string): string {
  let current = path.resolve(dir);
  while (!existsSync(current)) current = path.dirname(current);
  return current;
}

async function storageVerdicts(config: Config): Promise<Verdict[]> {
  const sqliteFile = path.join(config.dataDir, 'crypto-checkout.sqlite');
  const database = describeDatabase(config.databaseUrl, sqliteFile);
  if (!config.databaseUrl && !existsSync(sqliteFile)) {
    const parent = existingParent(config.dataDir);
    try {
      await access(parent, constants.W_OK);
    } catch {
      return [
        {
          item: 'storage',
          status: 'fail',
          detail: `${database} does not exist and ${parent} is not writable, so it cannot be made`,
          fix: 'Point DATA_DIR at a persistent directory this user may write (or set DATABASE_URL).',
        },
      ];
    }
    return [
      {
        item: 'storage',
        status: 'warn',
        detail: `${database} does not exist yet: it is made at the first start`,
        fix: 'Make sure DATA_DIR is on persistent storage (orders, events and the audit log live there).',
      },
    ];
  }
  let store: Awaited<ReturnType<typeof createSqlStore>>;
  try {
    store = await createSqlStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      migrate: false,
      poolSize: 1,
    });
  } catch (error) {
    const cause = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    return [
      {
        item: 'storage',
        status: 'fail',
        detail: `${database} cannot be reached (${cause})`,
        fix: 'Check DATABASE_URL (or DATA_DIR for SQLite) and that the database is running.',
      },
    ];
  }
  try {
    const pending = await store.pendingMigrations();
    // Opening it connected; a database no start has migrated has no table to read yet.
    const empty = pending.includes('2026-11-25-001-collections');
    const verdicts: Verdict[] = [
      empty
        ? { item: 'storage', status: 'pass', detail: `${database} answers (no table made yet)` }
        : await checkStorage(store, database),
    ];
    if (pending.length)
      verdicts.push({
        item: 'database schema',
        status: 'warn',
        detail: `${pending.length} migration(s) not yet run: ${pending.join(', ')}`,
        fix: 'They run at start; to run them first: `crypto-checkout-backend migrate`.',
      });
    else verdicts.push({ item: 'database schema', status: 'pass', detail: 'up to date' });
    return verdicts;
  } finally {
    await store.close();
  }
}

async function redisVerdict(url: string): Promise<Verdict> {
  const where = describeRedis(url);
  let shared: Awaited<ReturnType<typeof connectShared>>;
  try {
    shared = await connectShared(url);
  } catch (error) {
    return {
      item: 'redis',
      status: 'fail',
      detail: `${where} cannot be reached (${redisReason((error as Error).cause ?? error)})`,
      fix: 'Check REDIS_URL and that Redis is running.',
    };
  }
  try {
    return await checkRedis(shared.redis, where);
  } finally {
    await shared.close();
  }
}

/** Runs every check; returns the verdicts (in the order printed). */
export async function runChecks(
  env: Record<string, string | undefined>,
  now = Date.now(),
  source?: VariableSource,
): Promise<Verdict[]> {
  const { config, verdicts } = checkConfiguration(env, now, source);
  if (!config) return verdicts;
  const [storage, redis, ...upstream] = await Promise.all([
    storageVerdicts(config),
    config.redisUrl ? redisVerdict(config.redisUrl) : undefined,
    ...(config.mode === 'live'
      ? [checkPaymentsKey(config), checkRampPublicKey(config), checkRampSecretKey(config)]
      : []),
  ]);
  return [...verdicts, ...storage, ...(redis ? [redis] : []), ...upstream];
}

const label = { pass: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

/** The report as printed. */
export function formatVerdicts(verdicts: readonly Verdict[]): string {
  const width = Math.max(...verdicts.map((verdict) => verdict.item.length));
  const lines = verdicts.flatMap((verdict) => [
    `  ${label[verdict.status]}  ${verdict.item.padEnd(width)}  ${verdict.detail}`,
    ...(verdict.fix && verdict.status !== 'pass'
      ? [`        ${' '.repeat(width)}  fix: ${verdict.fix}`]
      : []),
  ]);
  const failures = verdicts.filter((verdict) => verdict.status === 'fail').length;
  const warnings = verdicts.filter((verdict) => verdict.status === 'warn').length;
  const summary = failures
    ? `${failures} failure(s), ${warnings} warning(s): fix the failures before shoppers meet them.`
    : `No failure${warnings ? `, ${warnings} warning(s)` : ''}: ready.`;
  return `${lines.join('\n')}\n${summary}\n`;
}

/** The command: prints the report with `write`; resolves to the exit code (1 on any failure). */
export async function runCheck(
  env: Record<string, string | undefined>,
  write: (text: string) => void,
  source?: VariableSource,
): Promise<number> {
  write(
    'crypto-checkout-backend check: the configuration in this environment, once (no order, no payment)\n',
  );
  const verdicts = await runChecks(env, Date.now(), source);
  write(formatVerdicts(verdicts));
  return verdicts.some((verdict) => verdict.status === 'fail') ? 1 : 0;
}
