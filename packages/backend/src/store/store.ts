/**
 * What must survive a restart, behind one small interface: idempotency records, the ledger of orders this
 * backend created (with their status history), the customer-to-route map, the webhook dedupe set, the ramp
 * orders reported by ramp callbacks, the outbox of fulfilment events, the audit log of admin writes and the
 * refunds (refunds/refund.ts).
 *
 * Implementations: `sql-store.ts` (SQLite under DATA_DIR by default, PostgreSQL with DATABASE_URL, one schema
 * through Kysely) and `memory-store.ts` (tests). The guarantees callers rely on:
 * - `setIfAbsent` is atomic across every process sharing the store (a unique key, insert-if-absent);
 * - an order's status never moves backwards: a `set` of an order whose status ranks below the stored one is
 *   ignored (a conditional update), whichever process writes;
 * - `transaction` runs its work atomically, and a `get` inside it holds the row until the end (PostgreSQL
 *   `FOR UPDATE`; SQLite has one writer), so a read-change-write on one record is safe across instances;
 * - finished idempotency records and webhook dedupe records expire `retention` after they were written: they
 *   then read as absent and `prune` deletes them; so do console sessions, at the time each carries
 *   (`expiresAt`). Orders, routes, ramp orders, events, refunds and the audit log are kept.
 */
export type Collection =
  | 'idempotency'
  | 'orders'
  | 'routes'
  | 'webhooks'
  | 'ramp-orders'
  | 'outbox'
  | 'audit'
  | 'endpoints'
  | 'console-sessions'
  | 'refunds';

/** The indexed fields a `find` can filter on (see `indexes.ts` for how each is read from a record). */
export interface IndexedFields {
  /** outbox: the order of ours an event is about; refunds: the order refunded. */
  orderId: string;
  /** outbox: 1 when some delivery is pending, else 0. */
  pending: number;
  /** orders: the upstream order id without its optional `SP-` prefix. */
  upstreamKey: string;
  /** audit: the name of the admin credential that acted. */
  credential: string;
}

export interface FindOptions {
  limit?: number;
  /** By creation time, oldest first unless set. */
  newestFirst?: boolean;
  /** Only records created strictly before this ISO time (paging back through a long list). */
  createdBefore?: string;
}

/**
 * A page of the ledger for the admin's search (`pageOrders`), newest first by (createdAt, key): keyset paging, so
 * a deep page costs what the first does.
 */
export interface OrderPageQuery {
  /** Exact match, case-insensitive, on one of an order's search terms (store/order-search.ts `orderTerms`). */
  term?: string | undefined;
  /** Our statuses (`paid`, …); any of them. */
  statuses?: readonly string[] | undefined;
  /** createdAt at or after (ISO). */
  from?: string | undefined;
  /** createdAt strictly before (ISO). */
  to?: string | undefined;
  limit: number;
  /** The last order of the previous page: the page starts strictly after it. */
  after?: { createdAt: string; key: string } | undefined;
}

export interface Store {
  get<T>(collection: Collection, key: string): Promise<T | undefined>;
  set<T>(collection: Collection, key: string, value: T): Promise<void>;
  /** Writes only when the key is absent (or its record expired); true when it wrote. */
  setIfAbsent<T>(collection: Collection, key: string, value: T): Promise<boolean>;
  delete(collection: Collection, key: string): Promise<void>;
  values<T>(collection: Collection): Promise<T[]>;
  /** Records whose indexed fields equal `where`, by creation time. */
  find<T>(collection: Collection, where: Partial<IndexedFields>, options?: FindOptions): Promise<T[]>;
  /** Orders of the ledger matching `query`, newest first (see OrderPageQuery). */
  pageOrders<T>(query: OrderPageQuery): Promise<T[]>;
  /** Runs `work` atomically against the store it is given (use only that one inside). */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /** Deletes the records that expired; returns how many. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

/** Thrown by a store whose database cannot be reached: the app answers 503 STORAGE_UNAVAILABLE. */
export class StorageUnavailable extends Error {
  constructor(
    readonly database: string,
    options?: { cause?: unknown },
  ) {
    super(`the database (${database}) cannot be reached`, options);
    this.name = 'StorageUnavailable';
  }
}
