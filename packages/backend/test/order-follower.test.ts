/**
 * Every order reaches its final state and its event with no browser open (issue 42 item 6): the follower of
 * unfinished orders reads them from the upstream in the background, once across instances sharing the store,
 * within its share of the upstream budget. Over real HTTP against the sandbox, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ledgerOf } from '../src/app.ts';
import type { FulfilmentEvent } from '../src/events/fulfilment-events.ts';
import { createOrderFollower } from '../src/orders/follower.ts';
import { createDeps } from '../src/process/app-deps.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import type { Store } from '../src/store/store.ts';
import { UpstreamBudget } from '../src/upstream/budget.ts';
import {
  type Created,
  countUpstreamCalls,
  createOrder,
  productsFile,
  upstreamIdOf,
  waitFor,
} from './order-fixtures.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';
import { type Stack, startStack } from './support.ts';

let postgres: Postgres | undefined;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

/** Two stores over one database, as two instances of the backend open it. */
const kinds = [
  {
    name: 'SQLite',
    async open() {
      // SQLite is one instance's (the DATA_DIR lock): its two followers share the one store.
      const dir = await mkdtemp(path.join(tmpdir(), 'cc-follow-'));
      const store = await createSqlStore({ dataDir: dir });
      const stores = [store, store];
      return { stores, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      if (!postgres) throw new Error('PostgreSQL was not started');
      const url = await createDatabase(postgres, `follow_${++databases}`);
      const dir = await mkdtemp(path.join(tmpdir(), 'cc-follow-pg-'));
      const stores = [
        await createSqlStore({ databaseUrl: url, dataDir: dir }),
        await createSqlStore({ databaseUrl: url, dataDir: dir }),
      ];
      return { stores, cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
];

const eventsOf = async (stack: Stack, orderId: string): Promise<FulfilmentEvent[]> =>
  (await stack.deps.outbox.list({ orderId, limit: 50 }))
    .map((entry) => entry.event)
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));

for (const kind of kinds) {
  describe(`the follower of unfinished orders (${kind.name})`, () => {
    let stack: Stack;
    let other: ReturnType<typeof createDeps>;
    let stores: Store[];
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ stores, cleanup } = await kind.open());
      stack = await startStack({ store: stores[0], env: { PRODUCTS_FILE: productsFile } });
      // A second instance: its own deps (ledger, payments client) over the same database and the same upstream.
      other = createDeps(stack.config, { store: stores[1] as Store });
    });
    after(async () => {
      await stack.close();
      if (stores[1] !== stores[0]) await stores[1]?.close();
      await cleanup();
    });

    const followerOf = (deps: ReturnType<typeof createDeps>) =>
      createOrderFollower(
        {
          store: deps.store,
          clock: deps.clock,
          ledger: deps.ledger ?? ledgerOf(deps),
          budget: new UpstreamBudget({ perSecond: 50 }),
        },
        { everyMs: 0, share: 1 },
      );

    test('orders left alone until they expire send order.expired with no page open, each read once by two instances', async () => {
      const orders: Created[] = [await createOrder(stack), await createOrder(stack)];
      // The upstream's clock passes the orders' expiry; nobody reads them, no webhook tells it.
      await stack.control('POST', '/clock', { advanceMs: 2 * 24 * 3_600_000 });
      try {
        const [first, second] = [followerOf(stack.deps), followerOf(other)];
        let reads: number[] = [];
        const listCalls = await countUpstreamCalls(stack, '/pay-api/v1/merchants/orders', 'GET', async () => {
          reads = await Promise.all([first.round(), second.round()]);
        });
        assert.equal(reads[0]! + reads[1]!, 2, `each order read once across the instances (${reads})`);
        assert.equal(listCalls, 2, 'one upstream read per order');
        for (const order of orders) {
          const types = (await eventsOf(stack, order.orderId)).map((event) => event.type);
          assert.deepEqual(types, ['order.created', 'order.expired']);
          // The event says what was due in the crypto, the rate, and (nothing having arrived) the whole shortfall.
          const expired = (await eventsOf(stack, order.orderId))[1]?.data as {
            due: { amount: string } | null;
            rate: string | null;
            shortfall: string | null;
            excess: string | null;
          };
          assert.ok(expired.due && Number(expired.due.amount) > 0, 'the amount due in crypto');
          assert.ok(expired.rate && Number(expired.rate) > 0, 'the rate');
          // The whole amount due, as a plain decimal (`55.37876` for the upstream's `55.378760`).
          assert.equal(Number(expired.shortfall), Number(expired.due.amount));
          assert.equal(expired.excess, null);
        }
        // Expired: followed on through the late window, but each instance's lease holds it until the next look.
        assert.deepEqual(await Promise.all([first.round(), second.round()]), [0, 0]);
      } finally {
        await stack.control('POST', '/clock', { reset: true });
      }
    });

    test('a cancel upstream reaches the merchant without a page (order.cancelled), and the budget share is kept', async () => {
      const orders = [await createOrder(stack), await createOrder(stack), await createOrder(stack)];
      for (const order of orders) await stack.control('POST', `/orders/${upstreamIdOf(order)}/cancel`);
      // A budget of 10 a second and a share of 0.1: one read in any window, the shoppers keep the rest.
      const budget = new UpstreamBudget({ perSecond: 10 });
      const follower = createOrderFollower(
        { store: stack.deps.store, clock: stack.deps.clock, ledger: stack.deps.ledger!, budget },
        { everyMs: 0, share: 0.1 },
      );
      assert.equal(await follower.round(), 1, 'one read in the window the share allows');
      assert.equal(budget.stats().maxInWindow, 1);
      let read = 1;
      await waitFor(async () => {
        read += await follower.round();
        return read >= orders.length ? true : undefined;
      }, 'the other orders read in later windows');
      for (const order of orders) {
        const types = (await eventsOf(stack, order.orderId)).map((event) => event.type);
        assert.deepEqual(types, ['order.created', 'order.cancelled']);
      }
      assert.ok(budget.stats().maxInWindow <= 1, 'never more than the share at once');
    });
  });
}
