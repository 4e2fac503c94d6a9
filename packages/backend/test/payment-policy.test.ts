/**
 * When the money goes wrong (issue 42): the payment policy and the merchant's actions over real HTTP against the
 * sandbox, on SQLite and PostgreSQL, with a merchant's receiver verifying every event. An underpayment within the
 * tolerance is paid; a larger one is asked for the rest, which the shopper sees exactly and pays, and the receiver
 * hears one order.paid; an underpaid order whose time ran out is expired with its shortfall, with no page open; a
 * payment after expiry is paid_late (under each thing the upstream may do with it), accepted, paid; a payment to a
 * paid order is recorded and flagged.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ledgerOf } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import type { FulfilmentEvent, OrderEventData } from '../src/events/fulfilment-events.ts';
import { createOrderFollower } from '../src/orders/follower.ts';
import { singleKey } from '../src/secrets/keyring.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import type { Store } from '../src/store/store.ts';
import { startReceiver } from './merchant-receiver.ts';
import { type Created, createOrder, productsFile, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

const secret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
const admin = { authorization: `Bearer ${testSecrets.adminToken}` };

let postgres: Postgres | undefined;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

const kinds = [
  {
    name: 'SQLite',
    async open(dir: string): Promise<Store> {
      return createSqlStore({ dataDir: dir });
    },
  },
  {
    name: 'PostgreSQL',
    async open(dir: string): Promise<Store> {
      if (!postgres) throw new Error('PostgreSQL was not started');
      return createSqlStore({
        databaseUrl: await createDatabase(postgres, `policy_${++databases}`),
        dataDir: dir,
      });
    },
  },
];

interface UpstreamOrder {
  status: string;
  quote: { toAmount: { amount: string; currency: { precision: number } } };
}

/** `amount` × `numerator` / `denominator`, cut to `digits` decimals (what a wallet short by that share sends). */
function share(amount: string, numerator: bigint, denominator: bigint, digits: number): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const units = BigInt(whole + fraction.padEnd(digits, '0').slice(0, digits));
  const part = (units * numerator) / denominator;
  const text = part.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

for (const kind of kinds) {
  describe(`the payment policy and the merchant's actions (${kind.name})`, () => {
    let stack: Stack;
    let dir: string;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    // The backend's clock: moved on with the sandbox's when an order's time runs out.
    let offsetMs = 0;
    const clock = { now: () => Date.now() + offsetMs };

    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'cc-policy-'));
      receiver = await startReceiver(secret);
      stack = await startStack({
        clock,
        store: await kind.open(dir),
        env: {
          PRODUCTS_FILE: productsFile,
          PAYMENT_TOLERANCE_PERCENT: '0.5',
          LATE_PAYMENT_WINDOW: '24h',
          MERCHANT_WEBHOOK_URL: receiver.url,
          MERCHANT_WEBHOOK_SECRET: secret,
        },
      });
      // The sandbox's clock pinned: the quote a payment is sized against is the one it is checked against.
      await stack.control('POST', '/clock', { now: Date.now() });
    });
    after(async () => {
      await stack.control('POST', '/clock', { reset: true });
      await stack.control('PATCH', '/settings', { latePayments: 'unreported' });
      await stack.close();
      await receiver.close();
      await rm(dir, { recursive: true, force: true });
    });

    // Delivery on real time: the receiver checks each webhook's timestamp against its own clock.
    const deliveryWorker = () =>
      createDeliveryWorker({
        outbox: stack.deps.outbox,
        clock: systemClock,
        secrets: singleKey(secret),
        timeoutMs: 10_000,
        random: () => 0.5,
        log: () => undefined,
      });

    /** The events the receiver verified for one order, in the order they happened. */
    const heard = async (
      orderId: string,
      until: (types: string[]) => boolean,
    ): Promise<FulfilmentEvent[]> => {
      const delivering = deliveryWorker();
      return waitFor(async () => {
        await delivering.tick();
        const events = receiver.received
          .map((r) => r.event)
          .filter((event) => (event.data as Partial<OrderEventData>).orderId === orderId)
          .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
        return until(events.map((event) => event.type)) ? events : undefined;
      }, `the receiver to hear ${orderId}'s events`);
    };
    /**
     * The events written for one order (the outbox, as the order-follower tests read it): once the backend's clock
     * is moved on, its deliveries are due in that time, which a receiver on real time would refuse as stale.
     */
    const written = (orderId: string, until: (types: string[]) => boolean): Promise<FulfilmentEvent[]> =>
      waitFor(async () => {
        const events = (await stack.deps.outbox.list({ orderId, limit: 50 }))
          .map((entry) => entry.event)
          .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
        return until(events.map((event) => event.type)) ? events : undefined;
      }, `the events of ${orderId}`);
    const upstream = async (created: Created) =>
      ((await stack.control('GET', `/orders/${upstreamIdOf(created)}`)) as { data: { order: UpstreamOrder } })
        .data.order;
    const pay = async (created: Created, amount: string) =>
      (await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { amount })) as {
        success: boolean;
        data?: { order: UpstreamOrder };
        message?: string;
      };
    const view = async (created: Created) =>
      json<{
        status: string;
        final: boolean;
        settlement?: {
          due: { amount: string };
          received: { amount: string };
          remaining?: string;
          payBy?: string;
          payTo?: { url?: string };
        };
      }>(
        await stack.api(`/api/orders/${created.orderId}`, {
          headers: { 'x-status-token': created.statusToken },
        }),
      );
    const statusOf = (created: Created, status: string) =>
      waitFor(async () => {
        const now = await view(created);
        return now.status === status ? now : undefined;
      }, `order ${created.orderId} to be ${status}`);
    const action = (created: Created, name: 'accept' | 'request-rest') =>
      stack.api(`/api/admin/orders/${created.orderId}/${name}`, { method: 'POST', headers: admin });
    /** The amount due in crypto, with the payment's crypto picked (the pinned quote). */
    const dueOf = async (created: Created) => {
      const order = await upstream(created);
      return { amount: order.quote.toAmount.amount, digits: order.quote.toAmount.currency.precision };
    };

    test('0.2 % short under a 0.5 % tolerance: paid, and order.paid says by how much', async () => {
      const created = await createOrder(stack);
      const due = await dueOf(created);
      const sent = share(due.amount, 998n, 1000n, due.digits);
      assert.equal((await pay(created, sent)).success, true);
      const paid = await statusOf(created, 'paid');
      assert.equal(paid.final, true);
      const events = await heard(created.orderId, (types) => types.includes('order.paid'));
      assert.deepEqual(
        events.map((event) => event.type),
        ['order.created', 'order.paid'],
      );
      const data = events[1]?.data as OrderEventData;
      assert.equal(data.upstreamStatus, 'PAYMENT_CONFIRMED_UNDERPAID');
      assert.equal(data.tolerance, '0.5');
      assert.equal(
        Number(data.shortfall).toFixed(due.digits),
        (Number(due.amount) - Number(sent)).toFixed(due.digits),
      );
      assert.equal(data.acceptedBy, null);
    });

    test('10 % short: the merchant asks for the rest, the shopper sees exactly it and pays it, one order.paid', async () => {
      const created = await createOrder(stack);
      const due = await dueOf(created);
      const sent = share(due.amount, 9n, 10n, due.digits);
      await pay(created, sent);
      const underpaid = await statusOf(created, 'underpaid');
      assert.equal(underpaid.final, false);
      const rest = await action(created, 'request-rest');
      assert.equal(rest.status, 200);
      // Asked twice: the same answer, no second event.
      assert.equal((await action(created, 'request-rest')).status, 200);
      const shown = await view(created);
      const remaining = share(due.amount, 1n, 1n, due.digits);
      const exact = (BigInt(remaining.replace('.', '')) - BigInt(sent.replace('.', ''))).toString();
      // In the crypto's smallest units: the view writes a plain decimal (`1.2345`, never `1.23450`).
      const [whole = '0', fraction = ''] = (shown.settlement?.remaining ?? '').split('.');
      assert.equal(
        BigInt(`${whole}${fraction.padEnd(due.digits, '0')}`).toString(),
        BigInt(exact).toString(),
        'the exact remainder',
      );
      assert.equal(shown.settlement?.payTo?.url, created.link, "the same order's payment page");
      assert.ok(shown.settlement?.payBy, 'until when');
      assert.equal((await pay(created, shown.settlement?.remaining ?? '0')).success, true);
      await statusOf(created, 'paid');
      const events = await heard(created.orderId, (types) => types.includes('order.paid'));
      assert.deepEqual(
        events.map((event) => event.type),
        ['order.created', 'order.underpaid', 'order.rest_requested', 'order.paid'],
      );
      const paid = events.filter((event) => event.type === 'order.paid');
      assert.equal(paid.length, 1, 'one order.paid');
      assert.equal(
        ((paid[0] as FulfilmentEvent).data as OrderEventData).upstreamStatus,
        'PAYMENT_CONFIRMED_ACCURATE',
      );
    });

    test('accept is refused for an order that is not underpaid or late, in the one error envelope', async () => {
      const created = await createOrder(stack);
      const response = await action(created, 'accept');
      assert.equal(response.status, 409);
      const body = await json<{ error: { code: string; message: string } }>(response);
      assert.equal(body.error.code, 'ORDER_STATE_CONFLICT');
      assert.match(body.error.message, /only an underpaid or late-paid order/);
    });

    for (const late of ['unreported', 'recorded', 'reopened'] as const) {
      test(`late payments "${late}": underpaid, time runs out (order.expired, no page), the rest comes late`, async () => {
        await stack.control('PATCH', '/settings', { latePayments: late });
        const created = await createOrder(stack);
        const due = await dueOf(created);
        await pay(created, share(due.amount, 1n, 2n, due.digits));
        await statusOf(created, 'underpaid');
        // Both clocks pass the order's expiry; nobody's page is open, the follower reads it.
        const ahead = 31 * 60_000;
        await stack.control('POST', '/clock', { advanceMs: ahead });
        offsetMs += ahead;
        const follower = createOrderFollower(
          { store: stack.deps.store, clock, ledger: stack.deps.ledger ?? ledgerOf(stack.deps) },
          { everyMs: 0, share: 1, policy: stack.config.paymentPolicy },
        );
        await follower.round();
        const expired = await view(created);
        assert.equal(expired.status, 'expired');
        assert.equal(expired.final, true);
        const [, underpaid, gone] = await written(created.orderId, (types) =>
          types.includes('order.expired'),
        );
        assert.equal(underpaid?.type, 'order.underpaid');
        assert.equal(gone?.type, 'order.expired');
        const shortfall = ((gone as FulfilmentEvent).data as OrderEventData).shortfall;
        assert.ok(shortfall && Number(shortfall) > 0, 'order.expired says what is missing');

        if (late === 'unreported') {
          // The upstream never tells: nothing can reach the order, which stays expired.
          await assert.rejects(pay(created, shortfall), /cannot receive a payment after it expired/);
          await follower.round();
          assert.equal((await view(created)).status, 'expired');
          return;
        }
        assert.equal((await pay(created, shortfall)).success, true);
        await statusOf(created, 'paid_late');
        const accepted = await action(created, 'accept');
        assert.equal(accepted.status, 200);
        const order = (await json<{ order: { status: string; acceptedBy: string } }>(accepted)).order;
        assert.equal(order.status, 'paid');
        assert.equal(order.acceptedBy, 'admin');
        // Accepted twice: the same, no second order.paid.
        assert.equal((await action(created, 'accept')).status, 200);
        const events = await written(created.orderId, (types) => types.includes('order.paid'));
        assert.deepEqual(
          events.map((event) => event.type),
          ['order.created', 'order.underpaid', 'order.expired', 'order.paid_late', 'order.paid'],
        );
        assert.equal(((events[4] as FulfilmentEvent).data as OrderEventData).acceptedBy, 'admin');

        // A second payment to the paid order: recorded and flagged, never lost.
        assert.equal((await pay(created, share(due.amount, 1n, 10n, due.digits))).success, true);
        const flagged = await written(created.orderId, (types) =>
          types.includes('order.payment_after_final'),
        );
        assert.equal(flagged.filter((event) => event.type === 'order.paid').length, 1);
        const detail = await json<{
          order: { status: string; paymentsAfterFinal: Array<{ amount: string }> };
        }>(await stack.api(`/api/admin/orders/${created.orderId}`, { headers: admin }));
        assert.equal(detail.order.status, 'paid');
        assert.equal(detail.order.paymentsAfterFinal.length, 1);
        assert.equal(
          Number(detail.order.paymentsAfterFinal[0]?.amount),
          Number(share(due.amount, 1n, 10n, due.digits)),
        );
      });
    }
  });
}
