/**
 * What an instance runs on, in words for people: the storage (kind, host and database, never a password), the
 * Redis host, the upstream mode and base URLs. Readiness reports it (readiness.ts), the banner and the start line
 * say it.
 */
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';

export interface StorageDescription {
  kind: 'postgresql' | 'sqlite' | 'memory';
  /** `host:port` for PostgreSQL; absent for SQLite and memory. */
  host?: string;
  /** The database name (PostgreSQL) or the file (SQLite). */
  database?: string;
}

export interface Environment {
  storage: StorageDescription;
  /** `host:port`, or null without REDIS_URL. */
  redis: { host: string } | null;
  upstream: { mode: 'sandbox' | 'live'; ramp: string; payments: string };
}

/** Where the store is, from the config: never the password. */
export function describeStorage(config: Config, store?: Store): StorageDescription {
  if (store && !('database' in store)) return { kind: 'memory' };
  // On Workers: SQLite too, the Durable Object's own (workers/durable-store.ts), not a file under DATA_DIR.
  if (store && 'durableObject' in store) return { kind: 'sqlite', database: String(store.database) };
  if (!config.databaseUrl) return { kind: 'sqlite', database: `${config.dataDir}/crypto-checkout.sqlite` };
  try {
    const url = new URL(config.databaseUrl);
    return {
      kind: 'postgresql',
      host: `${url.hostname || 'localhost'}:${url.port || 5432}`,
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
    };
  } catch {
    return { kind: 'postgresql' };
  }
}

export function describeEnvironment(config: Config, store?: Store): Environment {
  let redis: Environment['redis'] = null;
  if (config.redisUrl) {
    try {
      const url = new URL(config.redisUrl);
      redis = { host: `${url.hostname}:${url.port || 6379}` };
    } catch {
      redis = { host: '(REDIS_URL is not a URL)' };
    }
  }
  return {
    storage: describeStorage(config, store),
    redis,
    upstream: { mode: config.mode, ramp: config.ramp.apiUrl, payments: config.payments.apiUrl },
  };
}

/** `PostgreSQL at host:5432/db`, `SQLite at .data/crypto-checkout.sqlite`, `memory`. */
export const storageWords = (storage: StorageDescription) =>
  storage.kind === 'postgresql'
    ? `PostgreSQL at ${storage.host}/${storage.database}`
    : storage.kind === 'sqlite'
      ? `SQLite at ${storage.database}`
      : 'memory';

/** One line naming the same, for the banner and the mounted app's start. */
export function environmentLine(environment: Environment): string {
  const { storage, redis, upstream } = environment;
  return `storage ${storageWords(storage)}; Redis ${redis ? `at ${redis.host}` : 'none'}; upstream ${upstream.mode} (ramp ${upstream.ramp}, payments ${upstream.payments})`;
}
