/**
 * Events a merchant can fulfil from (issue 29), over real HTTP with the sandbox as the upstream and a receiver
 * that verifies every request with the `standardwebhooks` library:
 * - the name and e-mail a payer types on the payment page reach the merchant in `order.paid`, with the purchase
 *   (reference and metadata from the checkout token), the payment (crypto, chain, transaction hash) and the
 *   status history;
 * - with the receiver down across a backend restart, `order.created` is delivered before `order.paid`, each
 *   numbered in its order;
 * - an order whose events a receiver keeps refusing does not hold up another order's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import type { FulfilmentEvent, OrderEventData } from '../src/events/fulfilment-events.ts';
import { createCheckoutToken } from '../src/index.ts';
import { createDeps } from '../src/process/app-deps.ts';
import { singleKey } from '../src/secrets/keyring.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import { createOrder, postWebhook, productsFile, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { type Stack, startStack, testSecrets } from './support.ts';

const secret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
/** Long enough for a loaded machine; the waits end as soon as their condition holds. */
const PATIENCE = 30_000;

/** A merchant's receiver: verifies each request; `answer` decides the status for each event. */
async function startReceiver() {
  const verifier = new Webhook(secret);
  const received: FulfilmentEvent[] = [];
  let answer: (event: FulfilmentEvent) => number = () => 204;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const event = verifier.verify(
      await read(request),
      request.headers as Record<string, string>,
    ) as FulfilmentEvent;
    const status = answer(event);
    if (status < 300) received.push(event);
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answering(next: (event: FulfilmentEvent) => number) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ofOrder = (events: FulfilmentEvent[], orderId: string) =>
  events.filter((event) => (event.data as Partial<OrderEventData>).orderId === orderId);

const workerFor = (stack: Pick<Stack, 'deps'>, clock: { now(): number }) =>
  createDeliveryWorker({
    outbox: stack.deps.outbox,
    clock,
    secrets: singleKey(secret),
    random: () => 0.5,
    log: () => undefined,
  });

test('the e-mail typed on the payment page reaches the merchant in order.paid, with the order as it stands', async () => {
  const receiver = await startReceiver();
  const stack = await startStack({
    env: { MERCHANT_WEBHOOK_URL: receiver.url, MERCHANT_WEBHOOK_SECRET: secret },
  });
  try {
    const checkoutToken = createCheckoutToken(
      {
        name: 'Print run',
        price: '42.00',
        currency: 'EUR',
        reference: 'cart-77',
        metadata: { sku: 'PR-1', size: 'A3' },
      },
      testSecrets.checkoutTokenSecret,
    );
    const created = await createOrder(stack, { checkoutToken });
    // The payer, on the hosted payment page: name and e-mail, a currency, then the (simulated) payment.
    const form = (step: string, fields: Record<string, string>) =>
      fetch(`${created.link}/${step}`, {
        method: 'POST',
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
    assert.equal((await form('customer', { name: 'Test Buyer', email: 'buyer@example.com' })).status, 303);
    assert.equal((await form('currency', { currency: 'USDC_BASE' })).status, 303);
    assert.equal((await form('simulate', { kind: 'exact' })).status, 303);

    const worker = workerFor(stack, { now: () => Date.now() });
    const paid = await waitFor(
      async () => {
        await worker.tick();
        return ofOrder(receiver.received, created.orderId).find((event) => event.type === 'order.paid');
      },
      'order.paid at the receiver',
      PATIENCE,
    );
    const data = paid.data as OrderEventData;
    assert.deepEqual(data.customer, { name: 'Test Buyer', email: 'buyer@example.com', country: null });
    assert.equal(data.status, 'paid');
    assert.deepEqual(
      {
        name: data.purchase.name,
        price: data.purchase.price,
        currency: data.purchase.currency,
        reference: data.purchase.reference,
        metadata: data.purchase.metadata,
      },
      {
        name: 'Print run',
        price: '42.00',
        currency: 'EUR',
        reference: 'cart-77',
        metadata: { sku: 'PR-1', size: 'A3' },
      },
    );
    assert.equal(data.payments.length, 1);
    const [payment] = data.payments;
    assert.equal(payment?.crypto, 'USDC');
    assert.match(payment?.network ?? '', /base/i);
    assert.match(payment?.txHash ?? '', /^0x[0-9a-f]{64}$/);
    assert.ok(Number(payment?.amount) > 0);
    // The history as it happened: created, the payer's details, the payment.
    assert.equal(data.history[0]?.upstreamStatus, 'PENDING_USER_CREATION');
    assert.equal(data.history.at(-1)?.status, 'paid');
    const events = ofOrder(receiver.received, created.orderId);
    assert.deepEqual(
      events.map((event) => [event.type, event.sequence]),
      [
        ['order.created', 1],
        ['order.paid', 2],
      ],
    );
    // The admin API knows the customer too.
    const admin = await stack.api(`/api/admin/orders?q=${created.orderId}`, {
      headers: { authorization: `Bearer ${testSecrets.adminToken}` },
    });
    const listed = (await admin.json()) as { orders: Array<{ customer: { email: string | null } }> };
    assert.equal(listed.orders[0]?.customer.email, 'buyer@example.com');
  } finally {
    await stack.close();
    await receiver.close();
  }
});

test('with the receiver down across a backend restart, order.created is delivered before order.paid', async () => {
  const receiver = await startReceiver();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-event-order-'));
  let now = Date.now();
  const clock = { now: () => now };
  const firstStore = await createSqlStore({ dataDir });
  const stack = await startStack({
    clock,
    store: firstStore,
    env: { PRODUCTS_FILE: productsFile, MERCHANT_WEBHOOK_URL: receiver.url, MERCHANT_WEBHOOK_SECRET: secret },
  });
  try {
    receiver.answering(() => 503);
    const created = await createOrder(stack, { product: 'hoodie' });
    // order.created is tried and refused: its retry is scheduled (5 s, doubling)...
    const first = workerFor(stack, clock);
    assert.equal(await first.tick(), 1);
    // ...and meanwhile the order is paid: order.paid is due at once.
    now += 1000;
    const webhook = await postWebhook(stack, 'payments', {
      orderId: upstreamIdOf(created),
      externalId: created.orderId,
      orderStatus: 'PAYMENT_CONFIRMED_ACCURATE',
      eventType: 'ORDER_COMPLETED',
    });
    assert.equal(webhook.status, 200);
    // A pass now has nothing it may send: order.paid waits behind order.created's retry.
    assert.equal(await first.tick(), 0);
    await first.stop();
    await firstStore.close();

    // The restarted backend, on the same data; the receiver is back.
    receiver.answering(() => 204);
    const secondStore = await createSqlStore({ dataDir });
    const second = createDeps(stack.config, { store: secondStore, clock });
    try {
      const worker = workerFor({ deps: second }, clock);
      await waitFor(
        async () => {
          now += 1000;
          await worker.tick();
          return ofOrder(receiver.received, created.orderId).length >= 2 ? true : undefined;
        },
        'both events at the receiver',
        PATIENCE,
      );
      assert.deepEqual(
        ofOrder(receiver.received, created.orderId).map((event) => [event.type, event.sequence]),
        [
          ['order.created', 1],
          ['order.paid', 2],
        ],
      );
    } finally {
      await secondStore.close();
    }
  } finally {
    await stack.close().catch(() => undefined);
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('an order whose events a receiver keeps refusing does not hold up another order', async () => {
  const receiver = await startReceiver();
  const stack = await startStack({
    env: { PRODUCTS_FILE: productsFile, MERCHANT_WEBHOOK_URL: receiver.url, MERCHANT_WEBHOOK_SECRET: secret },
  });
  try {
    const stuck = await createOrder(stack, { product: 'hoodie' });
    const flowing = await createOrder(stack, { product: 'hoodie' });
    // The receiver chokes on the stuck order (say, its fulfilment system cannot find the product).
    receiver.answering((event) => ((event.data as OrderEventData).orderId === stuck.orderId ? 500 : 204));
    for (const created of [stuck, flowing]) {
      const answer = await postWebhook(stack, 'payments', {
        orderId: upstreamIdOf(created),
        externalId: created.orderId,
        orderStatus: 'PAYMENT_CONFIRMED_ACCURATE',
        eventType: 'ORDER_COMPLETED',
      });
      assert.equal(answer.status, 200);
    }
    const worker = workerFor(stack, { now: () => Date.now() });
    await waitFor(
      async () => {
        await worker.tick();
        return ofOrder(receiver.received, flowing.orderId).length >= 2 ? true : undefined;
      },
      "the other order's events",
      PATIENCE,
    );
    assert.deepEqual(
      ofOrder(receiver.received, flowing.orderId).map((event) => event.type),
      ['order.created', 'order.paid'],
    );
    assert.equal(ofOrder(receiver.received, stuck.orderId).length, 0);
    const listed = (await (
      await stack.api(`/api/admin/events?orderId=${stuck.orderId}`, {
        headers: { authorization: `Bearer ${testSecrets.adminToken}` },
      })
    ).json()) as {
      events: Array<{ type: string; deliveries: Array<{ attempts: number; lastStatus: number | null }> }>;
    };
    const of = (type: string) => listed.events.find((event) => event.type === type)?.deliveries[0];
    assert.equal(of('order.created')?.lastStatus, 500, 'the stuck order’s first event is being retried');
    assert.equal(of('order.paid')?.attempts, 0, 'its next waits behind it');
  } finally {
    await stack.close();
    await receiver.close();
  }
});
