import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RampOrderRecord } from '../src/orders/ramp-orders.ts';
import {
  createOrder,
  getStatus,
  postWebhook,
  productsFile,
  sign,
  upstreamIdOf,
  waitFor,
} from './order-fixtures.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

const camel = (upstreamId: string, externalId: string | undefined, orderStatus: string, extra = {}) => ({
  eventType: orderStatus === 'PAYMENT_CONFIRMED_ACCURATE' ? 'ORDER_COMPLETED' : 'PAYMENT_RECEIVED',
  orderId: upstreamId,
  orderStatus,
  merchantId: '27323275-ea28-4b33-85e4-d25b4d96dbde',
  orderPurchaseAmount: 49,
  orderPurchaseCurrency: 'EUR',
  ...(externalId ? { externalId } : {}),
  ...extra,
});

describe('POST /api/webhooks/payments', () => {
  test('a forged or missing signature is refused with 401 and changes nothing', async () => {
    const created = await createOrder(stack);
    const payload = camel(upstreamIdOf(created), created.orderId, 'PAYMENT_CONFIRMED_ACCURATE');
    const forged = await postWebhook(stack, 'payments', payload, 'c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ==');
    assert.equal(forged.status, 401);
    assert.equal((await json<{ error: { code: string } }>(forged)).error.code, 'UNAUTHORIZED');
    const missing = await stack.api('/api/webhooks/payments', { method: 'POST', json: payload });
    assert.equal(missing.status, 401);
    assert.equal((await getStatus(stack, created)).status, 'pending');
  });

  test('a signed camelCase event is applied once; a repeat is acknowledged as a duplicate', async () => {
    const created = await createOrder(stack);
    const payload = camel(upstreamIdOf(created), created.orderId, 'PAYMENT_CONFIRMED_ACCURATE', {
      eventId: `evt-${created.orderId}`,
      orderCrypto: 'ETH',
      orderCryptoAmount: 0.000248877562194502,
    });
    const first = await postWebhook(stack, 'payments', payload);
    assert.equal(first.status, 200);
    assert.deepEqual(await json(first), { ok: true });
    const view = await getStatus(stack, created);
    assert.equal(view.status, 'paid');
    assert.deepEqual(view.paid, { amount: '0.000248877562194502', currency: 'ETH' });

    const again = await postWebhook(stack, 'payments', payload);
    assert.equal(again.status, 200);
    assert.deepEqual(await json(again), { ok: true, duplicate: true });
    const record = await stack.deps.store.get<{ history: Array<{ status: string }> }>(
      'orders',
      created.orderId,
    );
    assert.equal(
      record?.history.filter((change) => change.status === 'paid').length,
      1,
      'paid recorded once',
    );
  });

  test('an event without an id is deduplicated by its body', async () => {
    const created = await createOrder(stack);
    const payload = camel(upstreamIdOf(created), created.orderId, 'AWAITING_PAYMENT');
    assert.deepEqual(await json(await postWebhook(stack, 'payments', payload)), { ok: true });
    assert.deepEqual(await json(await postWebhook(stack, 'payments', payload)), {
      ok: true,
      duplicate: true,
    });
  });

  test('an out-of-order event never moves the status backwards; underpaid can still become paid', async () => {
    const created = await createOrder(stack);
    const id = upstreamIdOf(created);
    await postWebhook(stack, 'payments', camel(id, created.orderId, 'PAYMENT_CONFIRMED_UNDERPAID'));
    assert.equal((await getStatus(stack, created)).status, 'underpaid');
    await postWebhook(stack, 'payments', camel(id, created.orderId, 'AWAITING_PAYMENT'));
    assert.equal((await getStatus(stack, created)).status, 'underpaid');
    await postWebhook(stack, 'payments', camel(id, created.orderId, 'PAYMENT_CONFIRMED_ACCURATE'));
    assert.equal((await getStatus(stack, created)).status, 'paid');
    // A final status never changes, not even to another final one.
    await postWebhook(stack, 'payments', camel(id, created.orderId, 'EXPIRED'));
    await postWebhook(stack, 'payments', camel(id, created.orderId, 'PENDING_CURRENCY_SELECTION'));
    const view = await getStatus(stack, created);
    assert.equal(view.status, 'paid');
    assert.equal(view.upstreamStatus, 'PAYMENT_CONFIRMED_ACCURATE');
  });

  test('a webhook that arrives while the order is still being created waits for it', async () => {
    // The upstream answers the create call slowly; meanwhile a webhook names our reference.
    await stack.control('POST', '/faults', {
      route: '/pay-api/v1/orders',
      method: 'POST',
      latencyMs: 600,
      times: 1,
    });
    const creating = createOrder(stack);
    const orderId = await waitFor(async () => {
      const claims = await stack.deps.store.values<{ state: string; orderId: string }>('idempotency');
      return claims.find((claim) => claim.state === 'pending')?.orderId;
    }, 'a pending claim');
    const early = await postWebhook(stack, 'payments', {
      eventType: 'ORDER_CREATED',
      externalId: orderId,
      orderStatus: 'AWAITING_PAYMENT',
    });
    assert.deepEqual(await json(early), { ok: true });
    const created = await creating;
    assert.equal(created.orderId, orderId);
    assert.equal((await getStatus(stack, created)).status, 'awaiting_payment');
  });

  test('the snake_case payload with an SP- prefixed id and no external id is matched by upstream id', async () => {
    const created = await createOrder(stack);
    const response = await postWebhook(stack, 'payments', {
      event_type: 'PAYMENT_RECEIVED',
      order_id: `SP-${upstreamIdOf(created)}`,
      order_status: 'PAYMENT_CONFIRMED_OVERPAID',
      merchant_id: '71001fb5-b052-40bf-8a7a-b2e7477dee3a',
      order_purchase_amount: 49,
      order_purchase_currency: 'EUR',
      order_crypto: 'ETH',
      order_crypto_amount: 0.001243505791006468,
      network: 'Ethereum',
    });
    assert.deepEqual(await json(response), { ok: true });
    const view = await getStatus(stack, created);
    assert.equal(view.status, 'overpaid');
    assert.deepEqual(view.paid, { amount: '0.001243505791006468', currency: 'ETH' });
  });

  test('an unknown order or an event without a status is acknowledged and ignored (no retries)', async () => {
    const unknown = await postWebhook(
      stack,
      'payments',
      camel('ZZZZZZZZZZZZ', 'ord_unknown', 'AWAITING_PAYMENT'),
    );
    assert.equal(unknown.status, 200);
    assert.deepEqual(await json(unknown), { ok: true, ignored: true });
    const settlement = await postWebhook(stack, 'payments', {
      eventType: 'SETTLEMENT_CREATED',
      settlement_id: 's1',
    });
    assert.deepEqual(await json(settlement), { ok: true, ignored: true });
  });

  test('a correctly signed body that is not a JSON object is a 400; the signature is checked first', async () => {
    const notObject = await postWebhook(stack, 'payments', 'just a string');
    assert.equal(notObject.status, 400);
    const broken = await stack.api('/api/webhooks/payments', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-swapped-signature': sign(testSecrets.payWebhookSecret, '{'),
      },
      body: '{',
    });
    assert.equal(broken.status, 400);
    const unsigned = await stack.api('/api/webhooks/payments', {
      method: 'POST',
      headers: { 'x-swapped-signature': 'x' },
      body: '{',
    });
    assert.equal(unsigned.status, 401);
  });

  test('the sandbox in snake_case mode reaches the backend the same way', async () => {
    await stack.control('PATCH', '/settings', { webhookCasing: 'snake' });
    try {
      const created = await createOrder(stack);
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      await waitFor(
        async () => ((await getStatus(stack, created)).status === 'paid' ? true : undefined),
        'paid',
      );
    } finally {
      await stack.control('PATCH', '/settings', { webhookCasing: 'camel' });
    }
  });
});

describe('POST /api/webhooks/ramp', () => {
  const rampEvent = (orderId: string, status: string, extra = {}) => ({
    order_id: orderId,
    external_transaction_id: null,
    external_customer_id: 'cus_42',
    order_status: status,
    order_type: 'buy',
    order_crypto: 'LTC',
    order_crypto_amount: '0.086584360432545',
    order_crypto_address: 'ltc1q2k0xaafhgt3s8qw03wmajjmlc8gcepdy0un0ah',
    order_crypto_tag: null,
    order_amount_eur: 8.99,
    network: 'litecoin',
    ...extra,
  });
  const ramp = (orderId: string) => stack.deps.store.get<RampOrderRecord>('ramp-orders', orderId);

  test('verifies the `signature` header with the ramp secret', async () => {
    const payload = rampEvent('r-forged', 'order_completed');
    assert.equal((await postWebhook(stack, 'ramp', payload, 'bm9wZQ==')).status, 401);
    assert.equal((await stack.api('/api/webhooks/ramp', { method: 'POST', json: payload })).status, 401);
    assert.equal(await ramp('r-forged'), undefined);
  });

  test('records the ramp order; repeats are duplicates; the status never regresses', async () => {
    const id = '9fcc45a5-4def-4953-9bd8-9ff75d9aaa9c';
    assert.deepEqual(await json(await postWebhook(stack, 'ramp', rampEvent(id, 'payment_pending'))), {
      ok: true,
    });
    assert.deepEqual(await json(await postWebhook(stack, 'ramp', rampEvent(id, 'order_completed'))), {
      ok: true,
    });
    assert.deepEqual(await json(await postWebhook(stack, 'ramp', rampEvent(id, 'order_completed'))), {
      ok: true,
      duplicate: true,
    });
    // Late and illegal transitions are acknowledged but not applied.
    assert.deepEqual(
      await json(await postWebhook(stack, 'ramp', rampEvent(id, 'payment_pending', { n: 1 }))),
      {
        ok: true,
        ignored: true,
      },
    );
    await postWebhook(stack, 'ramp', rampEvent(id, 'order_cancelled'));
    assert.equal((await ramp(id))?.status, 'order_completed');
    await postWebhook(stack, 'ramp', rampEvent(id, 'order_broadcasted', { transaction_id: '3885ab47' }));
    const record = await ramp(id);
    assert.equal(record?.status, 'order_broadcasted');
    assert.equal(record?.transactionId, '3885ab47');
    assert.equal(record?.cryptoAmount, '0.086584360432545');
    assert.equal(record?.externalCustomerId, 'cus_42');
    assert.deepEqual(
      record?.history.map((h) => h.status),
      ['payment_pending', 'order_completed', 'order_broadcasted'],
    );
  });
});
