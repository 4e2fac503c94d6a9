/**
 * The database schema, one for SQLite and PostgreSQL, as versioned Kysely migrations (run at start and by
 * `crypto-checkout-backend migrate`). Each collection is a table keyed by `key`, holding the record as JSON
 * text in `value`, with the fields queries filter or order on copied into indexed columns (see indexes.ts).
 * A migration, once released, is never edited: a change is a new one.
 */
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { orderTerms } from './order-search.ts';
import type { Collection } from './store.ts';

/** Columns every collection table has. */
export interface RecordRow {
  key: string;
  value: string;
  created_at: string | null;
  /** Epoch ms; null = kept for ever. */
  expires_at: number | null;
}

export interface OrderRow extends RecordRow {
  upstream_key: string | null;
  upstream_status: string | null;
  status_rank: number | null;
  /** Our status (OrderRecord.status), for the admin's filter. */
  ledger_status: string | null;
}

/** One search term of an order (store/order-search.ts): the admin's search by id, e-mail, reference, tx hash. */
export interface OrderTermRow {
  term: string;
  order_key: string;
}

export interface OutboxRow extends RecordRow {
  order_id: string | null;
  pending: number | null;
}

/** A refund (refunds/refund.ts), found by the order it refunds. */
export interface RefundRow extends RecordRow {
  order_id: string | null;
}

export interface AuditRow extends RecordRow {
  credential: string | null;
}

export interface Database {
  idempotency: RecordRow;
  orders: OrderRow;
  customer_routes: RecordRow;
  webhook_dedupe: RecordRow;
  ramp_orders: RecordRow;
  outbox: OutboxRow;
  admin_audit: AuditRow;
  order_terms: OrderTermRow;
  webhook_endpoints: RecordRow;
  console_sessions: RecordRow;
  refunds: RefundRow;
}

export const tableOf: Record<Collection, keyof Database> = {
  idempotency: 'idempotency',
  orders: 'orders',
  routes: 'customer_routes',
  webhooks: 'webhook_dedupe',
  'ramp-orders': 'ramp_orders',
  outbox: 'outbox',
  audit: 'admin_audit',
  endpoints: 'webhook_endpoints',
  'console-sessions': 'console_sessions',
  refunds: 'refunds',
};

/** The tables of the first migration (a released migration never changes, whatever tables come later). */
const firstTables = [
  'idempotency',
  'orders',
  'customer_routes',
  'webhook_dedupe',
  'ramp_orders',
  'outbox',
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema the database had before.
type AnyDb = Kysely<any>;

const migrations: Record<string, Migration> = {
  '2026-11-25-001-collections': {
    async up(db: AnyDb) {
      for (const table of firstTables) {
        let create = db.schema
          .createTable(table)
          .ifNotExists()
          .addColumn('key', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text')
          .addColumn('expires_at', 'bigint');
        if (table === 'orders') {
          create = create
            .addColumn('upstream_key', 'text')
            .addColumn('upstream_status', 'text')
            .addColumn('status_rank', 'integer');
        }
        if (table === 'outbox') {
          create = create.addColumn('order_id', 'text').addColumn('pending', 'integer');
        }
        await create.execute();
      }
      // A webhook that does not carry our reference is matched by the upstream id.
      await db.schema
        .createIndex('orders_upstream_key')
        .ifNotExists()
        .on('orders')
        .column('upstream_key')
        .execute();
      await db.schema
        .createIndex('orders_created_at')
        .ifNotExists()
        .on('orders')
        .column('created_at')
        .execute();
      // The admin's event list filters by order and by delivery state, newest first; the worker scans pending.
      await db.schema
        .createIndex('outbox_order_created')
        .ifNotExists()
        .on('outbox')
        .columns(['order_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('outbox_pending_created')
        .ifNotExists()
        .on('outbox')
        .columns(['pending', 'created_at'])
        .execute();
      await db.schema.createIndex('outbox_created').ifNotExists().on('outbox').column('created_at').execute();
      // Pruning finds what expired without scanning what is kept.
      for (const table of ['idempotency', 'webhook_dedupe'] as const) {
        await db.schema
          .createIndex(`${table}_expires_at`)
          .ifNotExists()
          .on(table)
          .column('expires_at')
          .execute();
      }
    },
    async down(db: AnyDb) {
      for (const table of firstTables) await db.schema.dropTable(table).ifExists().execute();
    },
  },
  // Every admin write: who (the credential's name), what, when, from where. Kept like the orders.
  '2026-12-01-002-admin-audit': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('admin_audit')
        .ifNotExists()
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('credential', 'text')
        .execute();
      await db.schema
        .createIndex('admin_audit_created')
        .ifNotExists()
        .on('admin_audit')
        .column('created_at')
        .execute();
      await db.schema
        .createIndex('admin_audit_credential_created')
        .ifNotExists()
        .on('admin_audit')
        .columns(['credential', 'created_at'])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('admin_audit').ifExists().execute();
    },
  },
  // The admin's order search (status, dates, terms, keyset paging) and the webhook endpoints kept as data.
  '2026-12-07-003-order-search-endpoints': {
    async up(db: AnyDb) {
      await db.schema.alterTable('orders').addColumn('ledger_status', 'text').execute();
      await db.schema
        .createIndex('orders_created_key')
        .ifNotExists()
        .on('orders')
        .columns(['created_at', 'key'])
        .execute();
      await db.schema
        .createIndex('orders_status_created_key')
        .ifNotExists()
        .on('orders')
        .columns(['ledger_status', 'created_at', 'key'])
        .execute();
      await db.schema
        .createTable('order_terms')
        .ifNotExists()
        .addColumn('term', 'text', (column) => column.notNull())
        .addColumn('order_key', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('order_terms_pk', ['term', 'order_key'])
        .execute();
      await db.schema
        .createTable('webhook_endpoints')
        .ifNotExists()
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text')
        .addColumn('expires_at', 'bigint')
        .execute();
      // Orders written before: their status and terms, a page at a time (the terms as order-search.ts read them
      // when this migration was released; later terms apply to orders as they are next written).
      let after = '';
      for (;;) {
        const rows: Array<{ key: string; value: string }> = await db
          .selectFrom('orders')
          .select(['key', 'value'])
          .where('key', '>', after)
          .orderBy('key')
          .limit(500)
          .execute();
        for (const row of rows) {
          const record = JSON.parse(row.value) as { status?: unknown };
          const status = typeof record.status === 'string' ? record.status : null;
          await db.updateTable('orders').set({ ledger_status: status }).where('key', '=', row.key).execute();
          const terms = orderTerms(record);
          if (terms.length)
            await db
              .insertInto('order_terms')
              .values(terms.map((term) => ({ term, order_key: row.key })))
              .onConflict((oc) => oc.doNothing())
              .execute();
        }
        const last = rows[rows.length - 1];
        if (!last || rows.length < 500) break;
        after = last.key;
      }
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('webhook_endpoints').ifExists().execute();
      await db.schema.dropTable('order_terms').ifExists().execute();
      await db.schema.dropIndex('orders_status_created_key').ifExists().execute();
      await db.schema.dropIndex('orders_created_key').ifExists().execute();
      await db.schema.alterTable('orders').dropColumn('ledger_status').execute();
    },
  },
  // Console sign-ins (admin/console-sessions.ts): by the SHA-256 of the cookie's value, each until it expires.
  '2026-12-07-004-console-sessions': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('console_sessions')
        .ifNotExists()
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text')
        .addColumn('expires_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('console_sessions_expires_at')
        .ifNotExists()
        .on('console_sessions')
        .column('expires_at')
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('console_sessions').ifExists().execute();
    },
  },
  // Refunds (refunds/refund.ts), kept like the orders; an order's are read (and summed) in its transaction.
  '2026-12-07-110-refunds': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('refunds')
        .ifNotExists()
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text')
        .addColumn('expires_at', 'bigint')
        .addColumn('order_id', 'text')
        .execute();
      await db.schema
        .createIndex('refunds_order_created')
        .ifNotExists()
        .on('refunds')
        .columns(['order_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('refunds_created')
        .ifNotExists()
        .on('refunds')
        .column('created_at')
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('refunds').ifExists().execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
