/**
 * The Store in a Durable Object's SQLite: the same tables, migrations and queries as SQLite and PostgreSQL
 * (`storeOverKysely`), through `durable-sql.ts`. One object holds every record, so what must stay exactly-once
 * (idempotency claims, webhook dedupe, an order's status and the event written with it, the audit log) is
 * decided in one place, as one SQLite writer decides it on a server.
 *
 * A transaction is `storage.transaction(work)`, which rolls back every write of a work that throws. The object
 * serves other requests while a work awaits, and they would read its writes before the commit and have theirs
 * rolled back with it: so the store lets one transaction at a time run, and every call outside a transaction
 * waits for it, as SQLite's one writer makes them wait on a server.
 */
import { Kysely } from 'kysely';
import { defaultRetentionMs } from '../store/indexes.ts';
import type { Database } from '../store/schema.ts';
import { migrate, storeOverKysely } from '../store/sql-store.ts';
import type { Collection, FindOptions, IndexedFields, OrderPageQuery, Store } from '../store/store.ts';
import { type DurableObjectSqlStorage, DurableSqlDialect } from './durable-sql.ts';

export interface DurableStoreOptions {
  retentionMs?: number;
  /** Epoch ms (expiry is compared to it). */
  now?: () => number;
}

export interface DurableStore extends Store {
  readonly database: string;
  /** Marks the store as a Durable Object's (what /readyz and the start line name). */
  readonly durableObject: true;
  /** The migrations this opening applied, oldest first. */
  readonly applied: readonly string[];
}

export async function createDurableStore(
  storage: DurableObjectSqlStorage,
  options: DurableStoreOptions = {},
): Promise<DurableStore> {
  const database = 'SQLite in a Durable Object';
  const db = new Kysely<Database>({ dialect: new DurableSqlDialect(storage) });
  const applied = await migrate(db);
  const inner = storeOverKysely(db, {
    database,
    postgres: false,
    now: options.now ?? Date.now,
    retentionMs: options.retentionMs ?? defaultRetentionMs,
    transaction: (work) => storage.transaction(work),
  });
  // One transaction at a time; calls outside one wait for it (see above).
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    database,
    durableObject: true,
    applied,
    get: <T>(collection: Collection, key: string) => exclusive(() => inner.get<T>(collection, key)),
    set: <T>(collection: Collection, key: string, value: T) =>
      exclusive(() => inner.set(collection, key, value)),
    setIfAbsent: <T>(collection: Collection, key: string, value: T) =>
      exclusive(() => inner.setIfAbsent(collection, key, value)),
    delete: (collection: Collection, key: string) => exclusive(() => inner.delete(collection, key)),
    values: <T>(collection: Collection) => exclusive(() => inner.values<T>(collection)),
    find: <T>(collection: Collection, where: Partial<IndexedFields>, findOptions?: FindOptions) =>
      exclusive(() => inner.find<T>(collection, where, findOptions)),
    pageOrders: <T>(query: OrderPageQuery) => exclusive(() => inner.pageOrders<T>(query)),
    transaction: <T>(work: (tx: Store) => Promise<T>) => exclusive(() => inner.transaction(work)),
    prune: () => exclusive(() => inner.prune()),
    close: () => inner.close(),
  };
}
