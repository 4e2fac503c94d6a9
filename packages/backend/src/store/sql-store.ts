/**
 * The Store on a real database through one typed query layer (Kysely): SQLite in a file under DATA_DIR by
 * default (WAL, nothing else to run), PostgreSQL when DATABASE_URL is set (several instances share it). Same
 * schema, same queries; migrations run before the store is handed out.
 *
 * SQLite goes through `libsql` (Turso's build of SQLite with better-sqlite3's API): it ships prebuilt binaries
 * as per-platform npm packages, so a clean `npm ci` needs no compiler and no install script (npm 11 skips
 * dependency install scripts, which better-sqlite3 needs to fetch or build its binary).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, Kysely as KyselyDb, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { logger, outsideRequest } from '../logger.ts';
import { type Derived, defaultRetentionMs, derive } from './indexes.ts';
import { type Database, migrationProvider, tableOf } from './schema.ts';
import { pageOrdersSql, writeOrderTerms } from './sql-order-page.ts';
import {
  type Collection,
  type FindOptions,
  type IndexedFields,
  type OrderPageQuery,
  StorageUnavailable,
  type Store,
} from './store.ts';

export interface SqlStoreOptions {
  /** `postgres://…`: PostgreSQL. Unset: SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** SQLite's directory (file `crypto-checkout.sqlite`), and where old JSON files are imported from. */
  dataDir: string;
  /** SQLite only: another file, or `:memory:`. */
  sqliteFile?: string;
  /** How long finished idempotency records and webhook dedupe records are kept (default 24 h). */
  retentionMs?: number;
  /** Epoch ms (expiry is compared to it). */
  now?: () => number;
  /** Connections in PostgreSQL's pool (default 10). */
  poolSize?: number;
  /** false: open without migrating or importing (`crypto-checkout-backend check` only looks). Default true. */
  migrate?: boolean;
}

export interface SqlStore extends Store {
  /** `SQLite at …` or `PostgreSQL at host:port/db` (never the password). */
  readonly database: string;
  /** The migrations this opening applied, oldest first (none when the schema was already current or not migrated). */
  readonly applied: readonly string[];
  /** Migrations this code has that the database has not run (all of them on an empty database). */
  pendingMigrations(): Promise<string[]>;
  /** PostgreSQL's connection pool now (for /metrics); undefined with SQLite. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: tables are picked per collection at run time; rows are typed below.
type AnyDb = Kysely<any>;

const collections = Object.keys(tableOf) as Collection[];

/** PostgreSQL's address without credentials, for messages. */
export function describeDatabase(databaseUrl: string | undefined, sqliteFile: string): string {
  if (!databaseUrl) return `SQLite at ${sqliteFile}`;
  try {
    const url = new URL(databaseUrl);
    return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a URL)';
  }
}

/** Connection failures and server shutdowns, as opposed to an error in a query (which is a bug to see). */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return /^(08|57|53)/.test(code);
  if (typeof code === 'string' && /^(E[A-Z]+|ECONN\w+)$/.test(code)) return true;
  const message = (error as Error)?.message ?? '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}

export async function createSqlStore(options: SqlStoreOptions): Promise<SqlStore> {
  const retentionMs = options.retentionMs ?? defaultRetentionMs;
  const now = options.now ?? Date.now;
  const postgres = Boolean(options.databaseUrl);
  const sqliteFile = options.sqliteFile ?? path.join(options.dataDir, 'crypto-checkout.sqlite');
  const database = describeDatabase(options.databaseUrl, sqliteFile);
  let db: Kysely<Database>;
  let poolStats: SqlStore['poolStats'] = () => undefined;
  if (postgres) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
    });
    // A connection the server drops while idle must not crash the process: the next query reconnects (or
    // answers 503 while the database is away).
    // Not a line of the request that opened the connection: it was only the first to need one.
    const dropped = (error: Error) =>
      outsideRequest(() => logger.warn(`[store] ${database}: ${error.message}`));
    pool.on('error', dropped);
    // A checked-out connection the server ends (a restart, an admin's shutdown) errors outside any query too.
    pool.on('connect', (client) => {
      client.on('error', dropped);
    });
    db = new KyselyDb<Database>({ dialect: new PostgresDialect({ pool }) });
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  } else {
    if (sqliteFile !== ':memory:') await mkdir(path.dirname(sqliteFile), { recursive: true });
    const { default: Sqlite } = await import('libsql');
    const file = new Sqlite(sqliteFile);
    // WAL: readers do not block the writer. FULL: an acknowledged write is on disk, even on power loss.
    file.exec('PRAGMA journal_mode = WAL');
    file.exec('PRAGMA synchronous = FULL');
    file.exec('PRAGMA busy_timeout = 5000');
    // biome-ignore lint/suspicious/noExplicitAny: libsql's Database is better-sqlite3's API, which Kysely takes.
    db = new KyselyDb<Database>({ dialect: new SqliteDialect({ database: file as any }) });
  }

  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw new StorageUnavailable(database, { cause: error });
  }
  let applied: readonly string[] = [];
  if (options.migrate !== false) {
    applied = await migrate(db);
    await importJsonFiles(db as AnyDb, options.dataDir, now(), retentionMs);
  }

  const store = storeOverKysely(db as AnyDb, { database, postgres, now, retentionMs });
  const pendingMigrations = async () => {
    const known = Object.keys(await migrationProvider.getMigrations());
    let done: string[] = [];
    try {
      // Kysely's own bookkeeping table; read, never created here.
      const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
      done = rows.rows.map((row) => row.name);
    } catch {
      done = [];
    }
    return known.filter((name) => !done.includes(name));
  };
  return Object.assign(store, { database, applied, pendingMigrations, poolStats });
}

export interface KyselyStoreOptions {
  /** For messages (StorageUnavailable). */
  database: string;
  /** PostgreSQL: rows read in a transaction are locked (`FOR UPDATE`), unreachable servers read as 503. */
  postgres: boolean;
  now: () => number;
  retentionMs: number;
  /**
   * Runs `work` atomically where the database has no interactive transactions of Kysely's (a Durable Object's
   * `storage.transaction`); the work's queries go through the same Kysely instance.
   */
  transaction?: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The Store's queries over an open Kysely instance (SQLite, PostgreSQL, or a Durable Object's SQLite). */
export function storeOverKysely(db: AnyDb, options: KyselyStoreOptions): Store {
  const { database, postgres, now, retentionMs } = options;
  // A request still running when the store is closed (a mounted app closed before its server drained) is told
  // the database cannot be reached (503, retry elsewhere), not Kysely's "driver has already been destroyed" (500).
  let closed = false;
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (closed || (postgres && isUnavailable(error)))
        throw new StorageUnavailable(database, { cause: error });
      throw error;
    }
  };

  const over = (q: AnyDb, inTransaction: boolean): Store => {
    const live = (table: string) =>
      q.selectFrom(table).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now())]));
    const parse = <T>(rows: Array<{ value: string }>) => rows.map((row) => JSON.parse(row.value) as T);
    const row = (collection: Collection, key: string, value: unknown) => {
      const d: Derived = derive(collection, value, now(), retentionMs);
      const base = { key, value: JSON.stringify(value), created_at: d.createdAt, expires_at: d.expiresAt };
      if (collection === 'orders')
        return {
          ...base,
          upstream_key: d.upstreamKey,
          upstream_status: d.upstreamStatus,
          status_rank: d.statusRank,
          ledger_status: d.ledgerStatus,
        };
      if (collection === 'outbox') return { ...base, order_id: d.orderId, pending: d.pending };
      if (collection === 'audit') return { ...base, credential: d.credential };
      if (collection === 'refunds') return { ...base, order_id: d.orderId };
      return base;
    };
    const store: Store = {
      get: <T>(collection: Collection, key: string) =>
        guard(async () => {
          let query = live(tableOf[collection]).select('value').where('key', '=', key);
          if (inTransaction && postgres) query = query.forUpdate();
          const found = await query.executeTakeFirst();
          return found ? (JSON.parse(found.value as string) as T) : undefined;
        }),
      set: <T>(collection: Collection, key: string, value: T) =>
        guard(async () => {
          const table = tableOf[collection];
          const values = row(collection, key, value);
          const { key: _key, ...changes } = values;
          await q
            .insertInto(table)
            .values(values)
            .onConflict((oc) => {
              const update = oc.column('key').doUpdateSet(changes);
              // An order's status never moves backwards, whichever instance writes (see indexes.ts).
              return collection === 'orders'
                ? update.where(
                    sql<boolean>`coalesce(excluded.status_rank, -1) > coalesce(orders.status_rank, -1) or (excluded.status_rank = orders.status_rank and excluded.upstream_status = orders.upstream_status)`,
                  )
                : update;
            })
            .execute();
          if (collection === 'orders') await writeOrderTerms(q, key, value);
        }),
      setIfAbsent: <T>(collection: Collection, key: string, value: T) =>
        guard(async () => {
          const table = tableOf[collection];
          const values = row(collection, key, value);
          const { key: _key, ...changes } = values;
          // Insert-if-absent on the primary key; an expired record counts as absent and is replaced.
          const result = await q
            .insertInto(table)
            .values(values)
            .onConflict((oc) =>
              oc
                .column('key')
                .doUpdateSet(changes)
                .where(sql.ref(`${table}.expires_at`), 'is not', null)
                .where(sql.ref(`${table}.expires_at`), '<=', now()),
            )
            .executeTakeFirst();
          const wrote = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
          if (wrote && collection === 'orders') await writeOrderTerms(q, key, value);
          return wrote;
        }),
      delete: (collection: Collection, key: string) =>
        guard(async () => {
          await q.deleteFrom(tableOf[collection]).where('key', '=', key).execute();
        }),
      values: <T>(collection: Collection) =>
        guard(async () =>
          parse<T>(
            await live(tableOf[collection]).select('value').orderBy('created_at').orderBy('key').execute(),
          ),
        ),
      find: <T>(collection: Collection, where: Partial<IndexedFields>, findOptions: FindOptions = {}) =>
        guard(async () => {
          let query = live(tableOf[collection]).select('value');
          if (where.orderId !== undefined) query = query.where('order_id', '=', where.orderId);
          if (where.pending !== undefined) query = query.where('pending', '=', where.pending);
          if (where.upstreamKey !== undefined) query = query.where('upstream_key', '=', where.upstreamKey);
          if (where.credential !== undefined) query = query.where('credential', '=', where.credential);
          if (findOptions.createdBefore !== undefined)
            query = query.where('created_at', '<', findOptions.createdBefore);
          const direction = findOptions.newestFirst ? 'desc' : 'asc';
          query = query.orderBy('created_at', direction).orderBy('key', direction);
          if (findOptions.limit !== undefined) query = query.limit(findOptions.limit);
          return parse<T>(await query.execute());
        }),
      pageOrders: <T>(query: OrderPageQuery) =>
        guard(async () => (await pageOrdersSql(q, query, now())).map((value) => JSON.parse(value) as T)),
      transaction: <T>(work: (tx: Store) => Promise<T>) => {
        if (inTransaction) return work(store);
        const { transaction } = options;
        if (transaction) return guard(() => transaction(() => work(over(q, true))));
        if (postgres) return guard(() => q.transaction().execute((trx) => work(over(trx, true))));
        // SQLite: BEGIN IMMEDIATE takes the write lock first, so two processes reading then writing wait for
        // each other (busy_timeout) instead of one failing with SQLITE_BUSY at its first write.
        return q.connection().execute(async (connection) => {
          await sql`begin immediate`.execute(connection);
          try {
            const result = await work(over(connection, true));
            await sql`commit`.execute(connection);
            return result;
          } catch (error) {
            await sql`rollback`.execute(connection);
            throw error;
          }
        });
      },
      prune: () =>
        guard(async () => {
          let removed = 0;
          for (const table of [tableOf.idempotency, tableOf.webhooks, tableOf['console-sessions']]) {
            const result = await q
              .deleteFrom(table)
              .where('expires_at', 'is not', null)
              .where('expires_at', '<=', now())
              .executeTakeFirst();
            removed += Number(result.numDeletedRows);
          }
          return removed;
        }),
      close: async () => {
        closed = true;
        await db.destroy();
      },
    };
    return store;
  };
  return over(db, false);
}

/** Runs the migrations not yet applied (Kysely's migrator takes a lock, so instances starting together are safe). */
export async function migrate(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}

/**
 * The first start over a DATA_DIR of the JSON files older versions kept (one per collection): every record is
 * imported (an existing key is left as it is), then the file is renamed `*.json.imported`, so it happens once
 * and the original stays beside the database.
 */
async function importJsonFiles(db: AnyDb, dataDir: string, at: number, retentionMs: number): Promise<void> {
  for (const collection of collections) {
    const file = path.join(dataDir, `${collection}.json`);
    if (!existsSync(file)) continue;
    const data: unknown = JSON.parse((await readFile(file, 'utf8')) || '{}');
    const entries =
      data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.entries(data) : [];
    const table = tableOf[collection];
    await db.transaction().execute(async (trx) => {
      for (const [key, value] of entries) {
        const d = derive(collection, value, at, retentionMs);
        await trx
          .insertInto(table)
          .values({
            key,
            value: JSON.stringify(value),
            created_at: d.createdAt,
            expires_at: d.expiresAt,
            ...(collection === 'orders'
              ? {
                  upstream_key: d.upstreamKey,
                  upstream_status: d.upstreamStatus,
                  status_rank: d.statusRank,
                  ledger_status: d.ledgerStatus,
                }
              : {}),
            ...(collection === 'outbox' ? { order_id: d.orderId, pending: d.pending } : {}),
            ...(collection === 'audit' ? { credential: d.credential } : {}),
          })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
        if (collection === 'orders') await writeOrderTerms(trx, key, value);
      }
    });
    await rename(file, `${file}.imported`);
    logger.info(`[store] imported ${entries.length} ${collection} record(s) from ${file}`);
  }
}
