/**
 * A refund never exceeds what was paid minus what was already refunded (refunds/refunds.ts), on SQLite, on
 * PostgreSQL (two stores over one database standing for two instances, each with its own lock; SQLite too, over
 * one file) and in memory (one keeper: that store has no other process):
 * many requests at once, the sum of those accepted never more than paid; a cancelled refund frees its amount; the
 * excess is capped at what arrived beyond what was due; each step's event is in the outbox, in order.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../src/errors.ts';
import { createOutbox, type OutboxEntry } from '../src/events/outbox.ts';
import { sum } from '../src/money.ts';
import type { OrderRecord } from '../src/orders/order.ts';
import { newRefundId } from '../src/refunds/refund.ts';
import { createRefunds } from '../src/refunds/refunds.ts';
import { createMemoryStore } from '../src/store/memory-store.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import type { Store } from '../src/store/store.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';

const clock = { now: () => Date.parse('2026-12-07T12:00:00Z') };

/** An order paid 110 USDC on Base for 100 due: 10 more than due. */
const overpaidOrder = (id: string): OrderRecord => ({
  id,
  upstreamId: `up-${id}`,
  link: 'https://pay.example/x',
  status: 'overpaid',
  upstreamStatus: 'PAYMENT_CONFIRMED_OVERPAID',
  product: {
    id: 'hoodie',
    name: 'Hoodie',
    description: '',
    imageUrl: null,
    price: '100.00',
    currency: 'EUR',
    reference: null,
  },
  returnUrl: null,
  origin: null,
  statusTokenHash: '00',
  paid: { amount: '110', currency: 'USDC' },
  due: { amount: '100', currency: 'USDC' },
  payments: [{ amount: '110', crypto: 'USDC', network: 'Base', txHash: '0xabc', confirmedAt: null }],
  history: [],
  createdAt: '2026-12-07T11:00:00.000Z',
  updatedAt: '2026-12-07T11:00:00.000Z',
  expiresAt: null,
});

const refundsOver = (store: Store) =>
  createRefunds({
    store,
    outbox: createOutbox(store, () => ['hook:onEvent']),
    clock,
    publicUrl: 'https://shop.test',
  });

interface Kind {
  name: string;
  /** Two stores over one fresh database (two instances; SQLite: the same store twice, one process per file). */
  open(): Promise<{ a: Store; b: Store; close: () => Promise<void> }>;
}

let postgres: Postgres | undefined;
let databases = 0;
const kinds: Kind[] = [
  {
    name: 'memory',
    async open() {
      const store = createMemoryStore();
      return { a: store, b: store, close: () => store.close() };
    },
  },
  {
    name: 'SQLite',
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), 'refund-limits-'));
      const store = await createSqlStore({ dataDir: dir });
      return {
        a: store,
        b: store,
        close: async () => {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      if (!postgres) throw new Error('PostgreSQL was not started');
      databases += 1;
      const databaseUrl = await createDatabase(postgres, `refunds_${databases}`);
      const dir = await mkdtemp(path.join(tmpdir(), 'refund-limits-pg-'));
      const a = await createSqlStore({ dataDir: dir, databaseUrl, poolSize: 8 });
      const b = await createSqlStore({ dataDir: dir, databaseUrl, poolSize: 8 });
      return {
        a,
        b,
        close: async () => {
          await Promise.all([a.close(), b.close()]);
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

for (const kind of kinds) {
  describe(kind.name, () => {
    test('many refunds at once: the sum accepted never exceeds what was paid', async () => {
      const { a, b, close } = await kind.open();
      try {
        await a.set('orders', 'ord_many', overpaidOrder('ord_many'));
        // Two keepers (two instances) where the database serialises them; in memory one process holds one keeper.
        const first = refundsOver(a);
        const instances = kind.name === 'memory' ? [first, first] : [first, refundsOver(b)];
        // 30 requests of 7 USDC against 110 paid: 15 fit (105), the rest must be refused.
        const results = await Promise.allSettled(
          Array.from({ length: 30 }, (_, i) =>
            instances[i % 2]!.request({
              id: newRefundId(),
              orderId: 'ord_many',
              of: 'order',
              amount: '7',
              by: 'ops',
            }),
          ),
        );
        const accepted = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        assert.equal(accepted.length, 15);
        for (const failure of refused) {
          assert.ok(failure.reason instanceof AppError, String(failure.reason));
          assert.equal(failure.reason.code, 'REFUND_TOO_LARGE');
        }
        const stored = await instances[0]!.ofOrder('ord_many');
        assert.equal(stored.length, 15);
        assert.equal(sum(stored.map((refund) => refund.amount)).toFixed(), '105');
        // What is left (5) can be refunded, no more.
        await assert.rejects(
          instances[1]!.request({
            id: newRefundId(),
            orderId: 'ord_many',
            of: 'order',
            amount: '5.000001',
            by: 'ops',
          }),
          /At most 5 USDC can still be refunded/,
        );
        const rest = await instances[1]!.request({
          id: newRefundId(),
          orderId: 'ord_many',
          of: 'order',
          by: 'ops',
        });
        assert.equal(rest.amount, '5');
        // The events: one refund.requested per refund, numbered in the order's sequence one after the other.
        const events = await a.find<OutboxEntry>('outbox', { orderId: 'ord_many' });
        assert.equal(events.length, 16);
        assert.deepEqual(
          events.map((entry) => entry.event.sequence).sort((x, y) => (x ?? 0) - (y ?? 0)),
          Array.from({ length: 16 }, (_, i) => i + 1),
        );
      } finally {
        await close();
      }
    });

    test('the excess is capped at what arrived beyond what was due; a cancelled refund frees its amount', async () => {
      const { a, close } = await kind.open();
      try {
        await a.set('orders', 'ord_excess', overpaidOrder('ord_excess'));
        const refunds = refundsOver(a);
        const id = newRefundId();
        const excess = await refunds.request({ id, orderId: 'ord_excess', of: 'excess', by: 'ops' });
        assert.deepEqual(
          [excess.amount, excess.currency, excess.network, excess.status],
          ['10', 'USDC', 'base', 'requested'],
        );
        // The same id again (a retried request): the same refund, not a second one.
        const again = await refunds.request({ id, orderId: 'ord_excess', of: 'excess', by: 'ops' });
        assert.equal(again.claimSecret, excess.claimSecret);
        await assert.rejects(
          refunds.request({
            id: newRefundId(),
            orderId: 'ord_excess',
            of: 'excess',
            amount: '0.5',
            by: 'ops',
          }),
          /At most 0 USDC can still be refunded of the excess/,
        );
        await refunds.cancel(excess.id, 'ops');
        const second = await refunds.request({
          id: newRefundId(),
          orderId: 'ord_excess',
          of: 'excess',
          amount: '4',
          by: 'ops',
        });
        assert.equal(second.amount, '4');
        // Steps in order, with who took them; a sent refund cannot be cancelled.
        await assert.rejects(
          refunds.markSent(second.id, '0x'.padEnd(66, 'a'), 'ops'),
          /requested: it cannot become sent/,
        );
        const withAddress = await refunds.provideAddress(
          second,
          '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        );
        assert.equal(withAddress.status, 'address_provided');
        const sent = await refunds.markSent(second.id, '0x'.padEnd(66, 'a'), 'ops');
        assert.deepEqual(
          sent.history.map((step) => `${step.status} by ${step.by}`),
          ['requested by ops', 'address_provided by shopper', 'sent by ops'],
        );
        await assert.rejects(refunds.cancel(second.id, 'ops'), /sent: it cannot become cancelled/);
        const events = await a.find<OutboxEntry>('outbox', { orderId: 'ord_excess' });
        assert.deepEqual(
          events
            .sort((x, y) => (x.event.sequence ?? 0) - (y.event.sequence ?? 0))
            .map((entry) => entry.event.type),
          [
            'refund.requested',
            'refund.cancelled',
            'refund.requested',
            'refund.address_provided',
            'refund.sent',
          ],
        );
        const last = events.at(-1)?.event.data as { refunded: unknown; txHash: string };
        assert.deepEqual(last.refunded, { requested: '4', sent: '4', currency: 'USDC' });
      } finally {
        await close();
      }
    });
  });
}
