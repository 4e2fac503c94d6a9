/**
 * Fulfilment events as the merchant's receiver sees them: signed per Standard Webhooks (checked with the
 * `standardwebhooks` library a merchant would use), each event once with a stable id, and a receiver that times
 * out, fails, is gone (410) or is unreachable never loses an event nor holds up the shopper.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import type { DepositEventData, FulfilmentEvent } from '../src/events/fulfilment-events.ts';
import { createCustomerToken } from '../src/index.ts';
import { singleKey } from '../src/secrets/keyring.ts';
import { startReceiver } from './merchant-receiver.ts';
import { createOrder, postWebhook, productsFile, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { type Stack, startStack, testSecrets } from './support.ts';

const secret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
const unreachable = 'http://127.0.0.1:9/hooks';

describe('fulfilment events', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stack: Stack;
  // Real time at the start: receivers refuse a webhook-timestamp far from their own clock.
  let now = Date.now();
  const clock = { now: () => now };
  const hooked: FulfilmentEvent[] = [];
  let hookFails = 0;
  /** The app's in-process hook (`createCheckout(config, { onEvent })`). */
  const hook = async (event: FulfilmentEvent) => {
    if (hookFails > 0) {
      hookFails -= 1;
      throw new Error('the shop database is busy');
    }
    hooked.push(event);
  };

  before(async () => {
    receiver = await startReceiver(secret);
    stack = await startStack({
      clock,
      env: {
        PRODUCTS_FILE: productsFile,
        // A second receiver that is never reachable: its failures must not hold up the first.
        MERCHANT_WEBHOOK_URL: `${receiver.url},${unreachable}`,
        MERCHANT_WEBHOOK_SECRET: secret,
      },
      onEvent: hook,
    });
  });
  after(async () => {
    await stack.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.answer(204);
    receiver.received.length = 0;
    hooked.length = 0;
  });

  const worker = (timeoutMs = 10_000) =>
    createDeliveryWorker({
      outbox: stack.deps.outbox,
      clock,
      secrets: singleKey(secret),
      onEvent: hook,
      timeoutMs,
      random: () => 0.5,
      log: () => undefined,
    });
  const pay = (created: Awaited<ReturnType<typeof createOrder>>) =>
    postWebhook(stack, 'payments', {
      orderId: upstreamIdOf(created),
      externalId: created.orderId,
      orderStatus: 'PAYMENT_CONFIRMED_ACCURATE',
    });

  test('order.created and order.paid reach the receiver once each, verifiable with Standard Webhooks', async () => {
    const created = await createOrder(stack, {
      product: 'hoodie',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    await pay(created);
    // The same webhook again, and a sync that sees the same status: still one order.paid.
    await pay(created);
    const w = worker();
    await w.tick();
    await w.tick();
    const mine = receiver.received.filter(
      (r) => 'orderId' in r.event.data && r.event.data.orderId === created.orderId,
    );
    assert.deepEqual(
      mine.map((r) => r.event.type),
      ['order.created', 'order.paid'],
    );
    const paid = mine[1]!.event;
    assert.equal(mine[1]!.id, paid.id, 'webhook-id is the event id');
    assert.ok('reference' in paid.data);
    assert.equal(paid.data.amount, '49.00', 'the price of the hoodie in the fixture catalog');
    assert.equal(paid.data.status, 'paid');
    assert.deepEqual(paid.data.customer, { name: 'Ada Lovelace', email: 'ada@example.com', country: null });
    assert.equal(paid.data.reference, 'hoodie', 'the product the shop ships');
    assert.equal(receiver.rejected.length, 0);
    const body = JSON.stringify(paid);
    for (const value of [testSecrets.payApiKey, testSecrets.payWebhookSecret, secret]) {
      assert.ok(!body.includes(value), 'no secret in an event');
    }
    assert.ok(
      hooked.some((event) => event.id === paid.id),
      'the in-process hook heard it too',
    );
    // The unreachable receiver is waiting for order.created's retry, with the reason; order.paid waits behind it
    // (an order's events reach each receiver in the order they happened).
    const auth = { authorization: `Bearer ${testSecrets.adminToken}` };
    const listed = (await (
      await stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: auth })
    ).json()) as {
      events: Array<{
        type: string;
        deliveries: Array<{ target: string; state: string; attempts: number; lastError: string | null }>;
      }>;
    };
    const to = (type: string) =>
      listed.events.find((event) => event.type === type)?.deliveries.find((d) => d.target === unreachable);
    assert.equal(to('order.created')?.state, 'pending');
    assert.equal(to('order.created')?.lastError, 'the receiver is unreachable');
    assert.equal(to('order.paid')?.state, 'pending');
    assert.equal(to('order.paid')?.attempts, 0, 'not tried while order.created is still being retried');
  });

  test("a payment into a customer's deposit address is told as deposit.received, once", async () => {
    const customerToken = createCustomerToken({ customerId: 'cus_events' }, testSecrets.checkoutTokenSecret);
    const made = await stack.api('/api/deposit-addresses', {
      method: 'POST',
      json: { customerToken, chain: 'base' },
    });
    const { address } = (await made.json()) as { address: string };
    const route = await stack.deps.store.get<{ routeId: string }>('routes', 'base:cus_events');
    await stack.control('POST', '/orders/route-deposits', {
      routeId: route?.routeId,
      currency: 'USDC',
      amount: '12.5',
    });
    const w = worker();
    const deposit = await waitFor(async () => {
      await w.tick();
      return receiver.received.find((r) => r.event.type === 'deposit.received');
    }, 'deposit.received at the receiver');
    const data = deposit.event.data as DepositEventData;
    assert.equal(data.customerId, 'cus_events');
    assert.equal(data.address, address);
    assert.equal(data.chain, 'base');
    assert.equal(data.crypto, 'USDC');
    assert.equal(Number(data.amount), 12.5);
    await w.tick();
    assert.equal(receiver.received.filter((r) => r.event.type === 'deposit.received').length, 1);
  });

  test('a failing receiver (500, a timeout, then unreachable) is retried with backoff until it takes the event', async () => {
    const created = await createOrder(stack);
    const w = worker(300);
    receiver.answer(500);
    await w.tick();
    const admin = async () => {
      const response = await stack.api(`/api/admin/events?orderId=${created.orderId}`, {
        headers: { authorization: `Bearer ${testSecrets.adminToken}` },
      });
      return (await response.json()) as {
        events: Array<{
          id: string;
          type: string;
          deliveries: Array<{
            target: string;
            state: string;
            attempts: number;
            lastError: string | null;
            nextAttemptAt: string;
          }>;
        }>;
      };
    };
    const toReceiver = async () =>
      (await admin()).events[0]!.deliveries.find((d) => d.target === receiver.url)!;
    let delivery = await toReceiver();
    assert.equal(delivery.state, 'pending');
    assert.equal(delivery.attempts, 1);
    assert.match(delivery.lastError ?? '', /500/);
    // Not due yet: a pass now sends nothing to it.
    await w.tick();
    assert.equal((await toReceiver()).attempts, 1);

    receiver.answer('hang');
    now = Date.parse(delivery.nextAttemptAt);
    await w.tick();
    delivery = await toReceiver();
    assert.equal(delivery.attempts, 2);
    assert.match(delivery.lastError ?? '', /no answer/);
    assert.ok(Date.parse(delivery.nextAttemptAt) - now >= 5000, 'the second retry waits longer');

    receiver.answer(204);
    now = Date.parse(delivery.nextAttemptAt);
    await w.tick();
    delivery = await toReceiver();
    assert.equal(delivery.state, 'delivered');
    assert.equal(delivery.attempts, 3);
    assert.deepEqual(
      receiver.received.filter(
        (r) =>
          r.event.type === 'order.created' &&
          'orderId' in r.event.data &&
          r.event.data.orderId === created.orderId,
      ).length,
      1,
    );
  });

  test('410 Gone stops the deliveries to that receiver; an admin re-send sends it again', async () => {
    const created = await createOrder(stack);
    receiver.answer(410);
    const w = worker();
    await w.tick();
    const auth = { authorization: `Bearer ${testSecrets.adminToken}` };
    const listed = (await (
      await stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: auth })
    ).json()) as {
      events: Array<{
        id: string;
        deliveries: Array<{ target: string; state: string; lastStatus: number | null }>;
      }>;
    };
    const event = listed.events[0]!;
    const gone = event.deliveries.find((d) => d.target === receiver.url)!;
    assert.equal(gone.state, 'failed');
    assert.equal(gone.lastStatus, 410);
    now += 60 * 60 * 1000;
    await w.tick();
    const after410 = (await (
      await stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: auth })
    ).json()) as typeof listed;
    const still = after410.events[0]!.deliveries.find((d) => d.target === receiver.url)!;
    assert.equal(still.state, 'failed', 'nothing is retried after 410');

    receiver.answer(204);
    now = Date.now();
    const resent = await stack.api(`/api/admin/events/${event.id}/resend`, { method: 'POST', headers: auth });
    assert.equal(resent.status, 200);
    await w.tick();
    assert.ok(receiver.received.some((r) => r.id === event.id));
    const unknown = await stack.api('/api/admin/events/evt_nope/resend', { method: 'POST', headers: auth });
    assert.equal(unknown.status, 404);
  });

  test('an error thrown by onEvent is retried like a failed delivery; the retry window ends in failed', async () => {
    hookFails = 1;
    const created = await createOrder(stack);
    const w = worker();
    await w.tick();
    assert.equal(hooked.filter((e) => e.type === 'order.created').length, 0);
    now += 60_000;
    await w.tick();
    assert.ok(
      hooked.some(
        (e) => e.type === 'order.created' && 'orderId' in e.data && e.data.orderId === created.orderId,
      ),
    );

    // A receiver that never recovers: retried for 24 hours, then given up.
    const later = await createOrder(stack);
    receiver.answer(503);
    for (let hour = 0; hour < 30; hour += 1) {
      await w.tick();
      now += 60 * 60 * 1000;
    }
    const auth = { authorization: `Bearer ${testSecrets.adminToken}` };
    const failed = (await (
      await stack.api(`/api/admin/events?orderId=${later.orderId}&state=failed`, { headers: auth })
    ).json()) as {
      events: Array<{ deliveries: Array<{ target: string; state: string; attempts: number }> }>;
    };
    const delivery = failed.events[0]?.deliveries.find((d) => d.target === receiver.url);
    assert.equal(delivery?.state, 'failed');
    assert.ok((delivery?.attempts ?? 0) >= 5, `retried ${delivery?.attempts} times over 24 h`);
  });
});
