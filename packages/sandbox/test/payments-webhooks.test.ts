/** Payments webhooks over real HTTP: events, signatures, both casings, retries, locking of the destination. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { eventually, json, pending, type RunningSandbox, startReceiver, startSandbox } from './support.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type Body = Record<string, unknown>;

let sandbox: RunningSandbox;
let receivers: Receiver[] = [];
before(async () => {
  sandbox = await startSandbox();
});
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await sandbox.close();
});
beforeEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
  await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
  await json(`${sandbox.baseUrl}/control/settings`, {
    method: 'PATCH',
    body: { retryDelaysMs: [20, 20, 20] },
  });
});

async function receiver(respond?: (index: number) => number, merchant = 'acme') {
  const r = await startReceiver(respond);
  receivers.push(r);
  const put = await json(`${sandbox.baseUrl}/control/merchants/${merchant}/webhook`, {
    method: 'PUT',
    body: { url: r.url },
  });
  assert.equal(put.status, 200);
  return r;
}

async function newOrder(merchant = 'acme', metadata: Record<string, string> = {}) {
  const response = await json<{ data: { order: { id: string; merchant: { id: string } } } }>(
    `${sandbox.baseUrl}/pay-api/v1/orders`,
    {
      headers: { 'x-api-key': `pay_sandbox_${merchant}` },
      body: {
        purchase: { name: 'Plan', price: '123', currency: 'USD' },
        metadata: { externalId: 'abc123', userId: 'cus123', ...metadata },
      },
    },
  );
  return response.body.data.order;
}

const pay = (id: string, kind: string, currency = 'ETH') =>
  json(`${sandbox.baseUrl}/control/orders/${id}/pay`, { body: { kind, currency } });

const bodies = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as Body);

describe('payments webhooks', () => {
  test('ORDER_CREATED is signed with x-swapped-signature = base64 HMAC-SHA256(whsec_sandbox_<id>, raw body)', async () => {
    const r = await receiver();
    const order = await newOrder();
    await r.waitFor(1);
    const [request] = r.received;
    const expected = createHmac('sha256', 'whsec_sandbox_acme').update(request!.body).digest('base64');
    assert.equal(request!.headers['x-swapped-signature'], expected);
    const wrong = createHmac('sha256', 'whsec_sandbox_other').update(request!.body).digest('base64');
    assert.notEqual(request!.headers['x-swapped-signature'], wrong);
    const body = JSON.parse(request!.body) as Body;
    assert.equal(body['eventType'], 'ORDER_CREATED');
    assert.equal(body['orderId'], order.id);
    // As every documented sample: the webhook reports "currency selection pending" for a new order.
    assert.equal(body['orderStatus'], 'PENDING_CURRENCY_SELECTION');
    assert.equal(body['merchantId'], order.merchant.id);
    assert.equal(body['orderPurchaseAmount'], 123);
    assert.equal(body['orderPurchaseCurrency'], 'USD');
    assert.equal(body['merchantCurrency'], 'USD');
    assert.equal(body['orderPurchaseAmountInMerchantCurrency'], '123');
    assert.equal(body['testMode'], false);
    assert.equal(body['externalId'], 'abc123');
    assert.equal(body['customerId'], 'cus123');
    assert.equal(typeof body['eventId'], 'string');
  });

  test('accurate payment sends ORDER_COMPLETED with PAYMENT_CONFIRMED_ACCURATE and the crypto', async () => {
    const r = await receiver();
    const order = await newOrder();
    await pay(order.id, 'exact');
    await r.waitFor(2);
    const completed = bodies(r).find((b) => b['eventType'] === 'ORDER_COMPLETED');
    assert.ok(completed);
    assert.equal(completed['orderStatus'], 'PAYMENT_CONFIRMED_ACCURATE');
    assert.equal(completed['orderCrypto'], 'ETH');
    assert.equal(completed['network'], 'Ethereum');
    assert.ok(Number(completed['orderCryptoAmount']) > 0);
    assert.equal(new Set(bodies(r).map((b) => b['eventId'])).size, 2, 'event ids are unique');
  });

  test('under- and overpayments send PAYMENT_RECEIVED; a top-up to accurate then ORDER_COMPLETED', async () => {
    const r = await receiver();
    const a = await newOrder();
    await pay(a.id, 'underpaid');
    await r.waitFor(2);
    await pay(a.id, 'exact');
    await r.waitFor(3);
    const b = await newOrder();
    await pay(b.id, 'overpaid');
    await r.waitFor(5);
    const events = bodies(r).map((x) => `${x['orderId']}:${x['eventType']}:${x['orderStatus']}`);
    assert.deepEqual(events, [
      `${a.id}:ORDER_CREATED:PENDING_CURRENCY_SELECTION`,
      `${a.id}:PAYMENT_RECEIVED:PAYMENT_CONFIRMED_UNDERPAID`,
      `${a.id}:ORDER_COMPLETED:PAYMENT_CONFIRMED_ACCURATE`,
      `${b.id}:ORDER_CREATED:PENDING_CURRENCY_SELECTION`,
      `${b.id}:PAYMENT_RECEIVED:PAYMENT_CONFIRMED_OVERPAID`,
    ]);
  });

  test('snake_case casing: the old Swapped Pay payload with SP- ids and numeric crypto amounts', async () => {
    await json(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body: { webhookCasing: 'snake' } });
    const r = await receiver();
    const order = await newOrder();
    await pay(order.id, 'underpaid');
    await r.waitFor(2);
    const [created, received] = bodies(r);
    assert.equal(created!['event_type'], 'ORDER_CREATED');
    assert.equal(created!['order_id'], `SP-${order.id}`);
    assert.equal(created!['order_status'], 'PENDING_CURRENCY_SELECTION');
    assert.equal(created!['merchant_id'], order.merchant.id);
    assert.equal(created!['order_purchase_amount'], 123);
    assert.equal(created!['order_purchase_currency'], 'USD');
    assert.equal(created!['external_order_id'], 'abc123');
    assert.equal(created!['external_customer_id'], 'cus123');
    assert.equal(created!['eventType'], undefined);
    assert.equal(received!['event_type'], 'PAYMENT_RECEIVED');
    assert.equal(received!['order_status'], 'PAYMENT_CONFIRMED_UNDERPAID');
    assert.equal(received!['order_crypto'], 'ETH');
    assert.equal(typeof received!['order_crypto_amount'], 'number');
    assert.equal(received!['network'], 'Ethereum');
    assert.notEqual(received!['event_id'], created!['event_id']);
  });

  test('a failing receiver is retried: fails twice, then 200, three attempts with the same signed body', async () => {
    const r = await receiver((index) => (index < 2 ? 500 : 200));
    await newOrder();
    await r.waitFor(3);
    assert.equal(
      new Set(r.received.map((x) => x.body)).size,
      1,
      'retries resend the same body (same eventId)',
    );
    assert.equal(new Set(r.received.map((x) => x.headers['x-swapped-signature'])).size, 1);
    const log = await json<{
      data: Array<{ kind: string; state: string; attempts: Array<{ status: number }> }>;
    }>(`${sandbox.baseUrl}/control/deliveries?merchant=acme&kind=payments-webhook`);
    const [delivery] = log.body.data;
    assert.equal(delivery!.state, 'delivered');
    assert.deepEqual(
      delivery!.attempts.map((a) => a.status),
      [500, 500, 200],
    );
  });

  test('a retry waits as the sandbox’s background work: listed as pending, dropped by a reset', async () => {
    await json(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body: { retryDelaysMs: [60_000] } });
    const r = await receiver(() => 500);
    await newOrder();
    await r.waitFor(1);
    const retry = await eventually(
      async () => (await pending(sandbox.baseUrl)).inRealTime[0],
      'the retry to be scheduled',
    );
    assert.equal(retry.what, `retry ORDER_CREATED to ${r.url}`);
    await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
    assert.deepEqual((await pending(sandbox.baseUrl)).inRealTime, []);
    const log = await json<{ data: unknown[] }>(`${sandbox.baseUrl}/control/deliveries`);
    assert.deepEqual(log.body.data, []);
  });

  test('each merchant’s webhooks go to its own destination, signed with its own secret', async () => {
    const acme = await receiver(undefined, 'acme');
    const globex = await receiver(undefined, 'globex');
    await newOrder('globex');
    await globex.waitFor(1);
    const request = globex.received[0]!;
    const expected = createHmac('sha256', 'whsec_sandbox_globex').update(request.body).digest('base64');
    assert.equal(request.headers['x-swapped-signature'], expected);
    assert.equal(acme.received.length, 0);
  });

  test('the destination is locked when the order is created', async () => {
    const first = await receiver();
    const order = await newOrder();
    await first.waitFor(1);
    await receiver(); // the merchant points its webhook elsewhere afterwards
    await pay(order.id, 'exact');
    await first.waitFor(2);
    assert.equal(bodies(first)[1]!['eventType'], 'ORDER_COMPLETED');
  });
});
