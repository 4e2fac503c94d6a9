/**
 * The store contract, one suite run against every store: SQLite (a file, as `npm start` uses), PostgreSQL (a
 * real server started for this file), the Durable Object store in workerd (Miniflare, the store as it runs on
 * Cloudflare Workers: fixtures/durable-store-worker.ts) and the in-memory store the other unit tests use. Two
 * store objects over one database stand for two instances.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMemoryStore } from '../src/store/memory-store.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import { type Collection, StorageUnavailable, type Store } from '../src/store/store.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';
import { type RunningWorker, startTestWorker } from './workers.ts';

const hour = 3_600_000;

/** A settable wall clock shared by the stores of one kind. */
const clock = { now: Date.parse('2026-11-25T00:00:00Z') };
const now = () => clock.now;

interface Kind {
  name: string;
  /** A new, empty database; `open` gives another store over it (another instance, or the same after a restart). */
  fresh(): Promise<{ open: () => Promise<Store>; cleanup: () => Promise<void> }>;
  /**
   * Several stores over one database stand for several instances. Not SQLite: its driver is synchronous, so two
   * connections in one process would block each other's thread; SQLite is one process per DATA_DIR (README).
   */
  shared: boolean;
}

let postgres: Postgres | undefined;
let databases = 0;
let worker: RunningWorker | undefined;

/**
 * A Durable Object store, from Node: each call goes to the object that holds the database (`name`) and runs
 * there.
 */
async function durableStore(name: string): Promise<Store> {
  const call = async (body: Record<string, unknown>): Promise<unknown> => {
    if (!worker) throw new Error('Miniflare was not started');
    const response = await fetch(`${worker.url}/${name}`, {
      method: 'POST',
      body: JSON.stringify({ now: now(), ...body }),
    });
    const answer = (await response.json()) as { value?: unknown; error?: { name: string; message: string } };
    if (answer.error) {
      const { name: kind, message } = answer.error;
      if (kind === 'StorageUnavailable')
        throw new StorageUnavailable(`${name} (Durable Object)`, { cause: message });
      throw Object.assign(new Error(message), { name: kind });
    }
    return answer.value;
  };
  const id = (await call({ method: 'open' })) as number;
  const over = (): Store => {
    const run = (method: string, ...args: unknown[]) => call({ store: id, method, args });
    return {
      get: async <T>(collection: Collection, key: string) =>
        ((await run('get', collection, key)) ?? undefined) as T | undefined,
      set: async (collection, key, value) => {
        await run('set', collection, key, value);
      },
      setIfAbsent: async (collection, key, value) =>
        (await run('setIfAbsent', collection, key, value)) as boolean,
      delete: async (collection, key) => {
        await run('delete', collection, key);
      },
      values: async <T>(collection: Collection) => (await run('values', collection)) as T[],
      find: async <T>(collection: Collection, where: object, options?: object) =>
        (await run('find', collection, where, options)) as T[],
      pageOrders: async <T>(query: object) => (await run('pageOrders', query)) as T[],
      // The work runs in the object (a transaction cannot span requests to it), sent as source with the one
      // helper of this file it uses.
      transaction: async <T>(work: (tx: Store) => Promise<T>) =>
        (await call({
          store: id,
          method: 'transaction',
          source: `const order = ${order.toString()};\nreturn (${work.toString()})(tx);`,
        })) as T,
      prune: async () => (await run('prune')) as number,
      close: async () => {
        await run('close');
      },
    };
  };
  return over();
}

const kinds: Kind[] = [
  {
    name: 'SQLite',
    shared: false,
    async fresh() {
      const dir = await mkdtemp(path.join(tmpdir(), 'cc-sqlite-'));
      return {
        open: () => createSqlStore({ dataDir: dir, retentionMs: 24 * hour, now }),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    shared: true,
    async fresh() {
      if (!postgres) throw new Error('PostgreSQL was not started');
      const url = await createDatabase(postgres, `contract_${++databases}`);
      const dir = await mkdtemp(path.join(tmpdir(), 'cc-pgdata-'));
      return {
        open: () => createSqlStore({ databaseUrl: url, dataDir: dir, retentionMs: 24 * hour, now }),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'Durable Object',
    // One object holds the database: every Worker isolate of a deployment calls that one object.
    shared: false,
    async fresh() {
      const name = `contract-${++databases}`;
      return { open: () => durableStore(name), cleanup: async () => {} };
    },
  },
  {
    name: 'memory',
    shared: false,
    async fresh() {
      const store = createMemoryStore({ retentionMs: 24 * hour, now });
      return { open: async () => store, cleanup: async () => {} };
    },
  },
];

before(async () => {
  [postgres, worker] = await Promise.all([
    startPostgres(),
    startTestWorker(
      fileURLToPath(new URL('./fixtures/durable-store-worker.ts', import.meta.url)),
      {
        STORES: 'StoreObject',
      },
      { unsafeEvalBinding: 'UNSAFE_EVAL' },
    ),
  ]);
});
after(async () => {
  await Promise.all([postgres?.stop(), worker?.stop()]);
});

const order = (upstreamStatus: string, extra: Record<string, unknown> = {}) => ({
  id: 'ord_1',
  upstreamId: 'SP-up1',
  upstreamStatus,
  createdAt: '2026-11-25T00:00:00.000Z',
  ...extra,
});

for (const kind of kinds) {
  describe(`${kind.name} store`, () => {
    let db: Awaited<ReturnType<Kind['fresh']>>;
    let store: Store;
    before(async () => {
      db = await kind.fresh();
      store = await db.open();
    });
    after(async () => {
      await store.close();
      await db.cleanup();
    });

    test('get/set/delete/values per collection; a key like __proto__ is only data', async () => {
      await store.set('routes', 'a', { n: 1 });
      await store.set('ramp-orders', 'a', { n: 2 });
      assert.deepEqual(await store.get('routes', 'a'), { n: 1 });
      assert.deepEqual(await store.get('ramp-orders', 'a'), { n: 2 });
      assert.equal(await store.get('routes', 'missing'), undefined);
      assert.deepEqual(await store.values('routes'), [{ n: 1 }]);
      await store.delete('routes', 'a');
      assert.equal(await store.get('routes', 'a'), undefined);
      assert.equal(await store.setIfAbsent('routes', '__proto__', { polluted: true }), true);
      assert.deepEqual(await store.get('routes', '__proto__'), { polluted: true });
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    });

    test('idempotency: of 50 concurrent creates with one key exactly one wins, across instances', async () => {
      const other = kind.shared ? await db.open() : store;
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? other : store).setIfAbsent('idempotency', 'orders:key-50', { state: 'pending', i }),
        ),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.deepEqual(await other.get('idempotency', 'orders:key-50'), {
        state: 'pending',
        i: results.indexOf(true),
      });
      if (other !== store) await other.close();
    });

    test('an order status never moves backwards, whoever writes; a final never becomes another', async () => {
      await store.set('orders', 'ord_1', order('AWAITING_PAYMENT'));
      await store.set('orders', 'ord_1', order('PENDING_USER_CREATION'));
      assert.equal(
        (await store.get<{ upstreamStatus: string }>('orders', 'ord_1'))?.upstreamStatus,
        'AWAITING_PAYMENT',
      );
      // The same status again may change other fields (a top-up on an underpaid order).
      await store.set('orders', 'ord_1', order('AWAITING_PAYMENT', { paid: '1.00' }));
      assert.equal((await store.get<{ paid: string }>('orders', 'ord_1'))?.paid, '1.00');
      await store.set('orders', 'ord_1', order('EXPIRED'));
      await store.set('orders', 'ord_1', order('COMPLETED'));
      await store.set('orders', 'ord_1', order('AWAITING_PAYMENT'));
      assert.equal(
        (await store.get<{ upstreamStatus: string }>('orders', 'ord_1'))?.upstreamStatus,
        'EXPIRED',
      );
      const [byUpstream] = await store.find<{ id: string }>('orders', { upstreamKey: 'up1' });
      assert.equal(byUpstream?.id, 'ord_1');
    });

    test('pageOrders: search terms, statuses, dates, and keyset pages newest first', async () => {
      const at = (minute: number) =>
        new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
      for (let i = 0; i < 7; i++) {
        await store.set('orders', `ord_page${i}`, {
          id: `ord_page${i}`,
          upstreamId: `SP-page${i}`,
          upstreamStatus: i % 2 ? 'PAYMENT_CONFIRMED_ACCURATE' : 'AWAITING_PAYMENT',
          status: i % 2 ? 'paid' : 'awaiting_payment',
          customer: { email: i === 3 ? 'Payer@Example.com' : null },
          product: { reference: `cart-${i}` },
          payments: i === 5 ? [{ txHash: '0xABCdef5' }] : [],
          // Two orders share a time: the key breaks the tie.
          createdAt: at(i === 6 ? 5 : i),
        });
      }
      const ids = (orders: Array<{ id: string }>) => orders.map((o) => o.id);
      const all = await store.pageOrders<{ id: string }>({ from: at(0), to: at(10), limit: 100 });
      assert.deepEqual(ids(all), [
        'ord_page6',
        'ord_page5',
        'ord_page4',
        'ord_page3',
        'ord_page2',
        'ord_page1',
        'ord_page0',
      ]);
      const first = await store.pageOrders<{ id: string; createdAt: string }>({
        from: at(0),
        to: at(10),
        limit: 2,
      });
      const last = first[1]!;
      const second = await store.pageOrders<{ id: string }>({
        from: at(0),
        to: at(10),
        limit: 2,
        after: { createdAt: last.createdAt, key: last.id },
      });
      assert.deepEqual([...ids(first), ...ids(second)], ['ord_page6', 'ord_page5', 'ord_page4', 'ord_page3']);
      assert.deepEqual(ids(await store.pageOrders({ term: '0xabcdef5', limit: 10 })), ['ord_page5']);
      assert.deepEqual(ids(await store.pageOrders({ term: 'payer@example.com', limit: 10 })), ['ord_page3']);
      assert.deepEqual(ids(await store.pageOrders({ term: 'page2', limit: 10 })), ['ord_page2']);
      assert.deepEqual(ids(await store.pageOrders({ term: 'cart-4', limit: 10 })), ['ord_page4']);
      assert.deepEqual(
        ids(await store.pageOrders({ statuses: ['paid'], from: at(0), to: at(4), limit: 10 })),
        ['ord_page3', 'ord_page1'],
      );
      // A payment learnt later makes the order findable by its hash.
      await store.set('orders', 'ord_page0', {
        id: 'ord_page0',
        upstreamId: 'SP-page0',
        upstreamStatus: 'PAYMENT_CONFIRMED_ACCURATE',
        status: 'paid',
        payments: [{ txHash: 'late-hash' }],
        createdAt: at(0),
      });
      assert.deepEqual(ids(await store.pageOrders({ term: 'late-hash', limit: 10 })), ['ord_page0']);
    });

    test('a transaction lands whole or not at all (a status change and its event)', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.setIfAbsent('outbox', 'evt_lost', {
            orderId: 'ord_2',
            deliveries: [{ state: 'pending' }],
          });
          await tx.set('orders', 'ord_2', order('AWAITING_PAYMENT', { id: 'ord_2' }));
          throw new Error('crash between the two');
        }),
        /crash between the two/,
      );
      assert.equal(await store.get('outbox', 'evt_lost'), undefined);
      assert.equal(await store.get('orders', 'ord_2'), undefined);
      await store.transaction(async (tx) => {
        await tx.setIfAbsent('outbox', 'evt_kept', {
          orderId: 'ord_2',
          createdAt: '2026-11-25T00:00:01.000Z',
          deliveries: [{ state: 'pending' }],
        });
        await tx.set('orders', 'ord_2', order('AWAITING_PAYMENT', { id: 'ord_2' }));
      });
      assert.equal((await store.find('outbox', { orderId: 'ord_2', pending: 1 })).length, 1);
      assert.equal((await store.find('outbox', { orderId: 'ord_2', pending: 0 })).length, 0);
    });

    test('read-change-write in transactions from two instances loses no change', async () => {
      const other = kind.shared ? await db.open() : store;
      await store.set('ramp-orders', 'counter', { n: 0 });
      const bump = (on: Store) =>
        on.transaction(async (tx) => {
          const current = await tx.get<{ n: number }>('ramp-orders', 'counter');
          await tx.set('ramp-orders', 'counter', { n: (current?.n ?? 0) + 1 });
        });
      // Memory store: one process, serialised by its callers' locks, so only the shared stores race here.
      if (kind.shared) await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 ? other : store)));
      else for (let i = 0; i < 20; i += 1) await bump(store);
      assert.deepEqual(await store.get('ramp-orders', 'counter'), { n: 20 });
      if (other !== store) await other.close();
    });

    test('finished idempotency and webhook dedupe records expire and are pruned; the rest is kept', async () => {
      const start = clock.now;
      try {
        await store.set('idempotency', 'done', { state: 'done' });
        await store.set('idempotency', 'running', { state: 'pending' });
        await store.setIfAbsent('webhooks', 'evt', { receivedAt: 'then' });
        await store.set('orders', 'kept', order('AWAITING_PAYMENT', { id: 'kept' }));
        clock.now = start + 23 * hour;
        assert.deepEqual(await store.get('idempotency', 'done'), { state: 'done' });
        assert.equal(await store.setIfAbsent('webhooks', 'evt', { receivedAt: 'again' }), false);
        clock.now = start + 24 * hour + 1;
        assert.equal(await store.get('idempotency', 'done'), undefined);
        // An expired dedupe record no longer blocks (the upstream stopped retrying long before).
        assert.equal(await store.setIfAbsent('webhooks', 'evt', { receivedAt: 'later' }), true);
        clock.now = start + 49 * hour;
        assert.ok((await store.prune()) >= 2);
        assert.equal(await store.get('idempotency', 'done'), undefined);
        assert.deepEqual(await store.get('idempotency', 'running'), { state: 'pending' });
        assert.ok(await store.get('orders', 'kept'));
        assert.equal(await store.prune(), 0);
      } finally {
        clock.now = start;
      }
    });

    if (kind.name !== 'memory') {
      test('restart durability: a new store over the same database sees everything acknowledged', async () => {
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.set('routes', `r${i}`, { i })));
        await store.setIfAbsent('idempotency', 'key-1', { state: 'done' });
        await store.delete('routes', 'r0');
        await store.close();
        store = await db.open();
        assert.equal(
          (await store.values('routes')).filter((v) => typeof (v as { i?: number }).i === 'number').length,
          49,
        );
        assert.deepEqual(await store.get('idempotency', 'key-1'), { state: 'done' });
        assert.equal(await store.setIfAbsent('idempotency', 'key-1', { state: 'other' }), false);
      });

      test('a store already closed (a request outliving the shutdown) says the database cannot be reached', async () => {
        const closing = await db.open();
        await closing.close();
        for (const call of [() => closing.get('routes', 'a'), () => closing.delete('webhooks', 'k')])
          await assert.rejects(call, (error: Error) => {
            assert.ok(error instanceof StorageUnavailable, `${error.name}: ${error.message}`);
            return true;
          });
      });
    }
  });
}

test('the first start over an old DATA_DIR imports its JSON files once, nothing lost', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'cc-import-'));
  await writeFile(
    path.join(dir, 'orders.json'),
    JSON.stringify({ ord_old: order('PAYMENT_CONFIRMED_ACCURATE', { id: 'ord_old' }) }),
  );
  await writeFile(
    path.join(dir, 'idempotency.json'),
    JSON.stringify({ 'orders:k': { state: 'done', orderId: 'ord_old' } }),
  );
  await writeFile(path.join(dir, 'webhooks.json'), JSON.stringify({ 'pay:1': { receivedAt: 'then' } }));
  await writeFile(
    path.join(dir, 'outbox.json'),
    JSON.stringify({ evt_1: { orderId: 'ord_old', deliveries: [] } }),
  );
  const first = await createSqlStore({ dataDir: dir, now });
  assert.equal((await first.get<{ id: string }>('orders', 'ord_old'))?.id, 'ord_old');
  assert.deepEqual(await first.get('idempotency', 'orders:k'), { state: 'done', orderId: 'ord_old' });
  assert.equal(await first.setIfAbsent('webhooks', 'pay:1', {}), false);
  assert.equal((await first.find('outbox', { orderId: 'ord_old' })).length, 1);
  await first.set('orders', 'ord_new', order('AWAITING_PAYMENT', { id: 'ord_new' }));
  await first.close();
  const files = await readdir(dir);
  assert.ok(files.includes('orders.json.imported'), files.join(', '));
  assert.ok(!files.includes('orders.json'));
  // A second start imports nothing again and keeps what was written since.
  const second = await createSqlStore({ dataDir: dir, now });
  assert.equal((await second.values('orders')).length, 2);
  await second.close();
  await rm(dir, { recursive: true, force: true });
});
