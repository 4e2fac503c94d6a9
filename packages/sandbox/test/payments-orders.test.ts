/** The order state machine, driven through the controls and observed through the payments API. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { json, type RunningSandbox, startSandbox } from './support.ts';

interface Payment {
  receivedAmount: string;
  receivedCurrency: { symbol: string };
  txHash: string;
  status: string;
  confirmedAt: string;
}
interface Order {
  id: string;
  status: string;
  expiresAt: string;
  quote: { toAmount: { amount: string; currency: { symbol: string; officialId: string } } };
  depositAddress: { address: string; memo: string } | null;
  payments: Payment[];
  updates: Array<{ message: string; timestamp: string }>;
}
interface ControlAnswer {
  success: boolean;
  message?: string;
  data: { order: Order };
}

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());
beforeEach(() => json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' }));

const headers = { 'x-api-key': 'pay_sandbox_acme' };

async function newOrder(over: { name?: string; metadata?: Record<string, string> } = {}): Promise<Order> {
  const response = await json<{ data: { order: Order } }>(`${sandbox.baseUrl}/pay-api/v1/orders`, {
    headers,
    body: {
      purchase: { name: over.name ?? 'Course', price: '40.00', currency: 'USD' },
      metadata: { externalId: 'ext-1', ...over.metadata },
    },
  });
  assert.equal(response.status, 200);
  return response.body.data.order;
}

const control = (id: string, action: string, body: unknown = {}) =>
  json<ControlAnswer>(`${sandbox.baseUrl}/control/orders/${id}/${action}`, { body });

/** The order as the merchant sees it through the list endpoint. */
async function fetchOrder(id: string): Promise<Order> {
  const response = await json<{ data: { orders: Order[] } }>(
    `${sandbox.baseUrl}/pay-api/v1/merchants/orders?searchId=${id}`,
    { headers },
  );
  const order = response.body.data.orders[0];
  assert.ok(order, `order ${id} listed`);
  return order;
}

describe('order state machine', () => {
  test('exact payment: walks to AWAITING_PAYMENT, then PAYMENT_CONFIRMED_ACCURATE with a payment entry', async () => {
    const order = await newOrder();
    const paid = await control(order.id, 'pay', { kind: 'exact', currency: 'USDT_TRON' });
    assert.equal(paid.status, 200);
    const seen = await fetchOrder(order.id);
    assert.equal(seen.status, 'PAYMENT_CONFIRMED_ACCURATE');
    assert.equal(seen.quote.toAmount.currency.officialId, 'USDT_TRON');
    assert.match(seen.depositAddress!.address, /^T/);
    assert.equal(seen.payments.length, 1);
    const [payment] = seen.payments;
    assert.equal(payment!.receivedAmount, seen.quote.toAmount.amount);
    assert.equal(payment!.receivedCurrency.symbol, 'USDT');
    assert.match(payment!.txHash, /^[0-9a-f]{64}$/);
    assert.equal(payment!.status, 'CONFIRMED');
    assert.ok(seen.updates.length >= 4, 'created, details, currency, payment');
    // A paid order takes no further payment and cannot be cancelled or expired.
    assert.equal((await control(order.id, 'pay', { kind: 'exact' })).status, 409);
    assert.equal((await control(order.id, 'cancel')).status, 409);
    assert.equal((await control(order.id, 'expire')).status, 409);
  });

  test('overpaid payment ends in PAYMENT_CONFIRMED_OVERPAID with more received than due', async () => {
    const order = await newOrder();
    const paid = (await control(order.id, 'pay', { kind: 'overpaid', currency: 'ETH' })).body.data.order;
    assert.equal(paid.status, 'PAYMENT_CONFIRMED_OVERPAID');
    assert.match(paid.payments[0]!.txHash, /^0x[0-9a-f]{64}$/);
    assert.ok(Number(paid.payments[0]!.receivedAmount) > Number(paid.quote.toAmount.amount));
  });

  test('underpaid payment can be topped up to accurate before expiry', async () => {
    const order = await newOrder();
    const under = (await control(order.id, 'pay', { kind: 'underpaid' })).body.data.order;
    assert.equal(under.status, 'PAYMENT_CONFIRMED_UNDERPAID');
    assert.ok(Number(under.payments[0]!.receivedAmount) < Number(under.quote.toAmount.amount));
    const topped = (await control(order.id, 'pay', { kind: 'exact' })).body.data.order;
    assert.equal(topped.status, 'PAYMENT_CONFIRMED_ACCURATE');
    assert.equal(topped.payments.length, 2);
    const total = topped.payments.reduce((sum, p) => sum + Number(p.receivedAmount), 0);
    assert.equal(total.toFixed(6), Number(topped.quote.toAmount.amount).toFixed(6));
  });

  test('a top-up in another currency than the first payment is refused', async () => {
    const order = await newOrder();
    await control(order.id, 'pay', { kind: 'underpaid', currency: 'USDC_BASE' });
    const other = await control(order.id, 'pay', { kind: 'exact', currency: 'BTC' });
    assert.equal(other.status, 409);
    assert.equal(other.body.success, false);
  });

  test('an underpaid order cannot be topped up once expired', async () => {
    const order = await newOrder();
    await control(order.id, 'pay', { kind: 'underpaid' });
    await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 31 * 60 * 1000 } });
    const late = await control(order.id, 'pay', { kind: 'exact' });
    assert.equal(late.status, 409);
    assert.match(late.body.message ?? '', /expired/);
    assert.equal((await fetchOrder(order.id)).status, 'PAYMENT_CONFIRMED_UNDERPAID');
  });

  test('an unpaid order expires when the clock passes expiresAt, and then takes no payment', async () => {
    const order = await newOrder();
    await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 29 * 60 * 1000 } });
    assert.equal((await fetchOrder(order.id)).status, 'PENDING_USER_CREATION');
    await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 2 * 60 * 1000 } });
    const expired = await fetchOrder(order.id);
    assert.equal(expired.status, 'EXPIRED');
    assert.equal(expired.updates.at(-1)!.message, 'Order expired');
    assert.equal((await control(order.id, 'pay', { kind: 'exact' })).status, 409);
  });

  test('forced expiry and cancellation end an unpaid order', async () => {
    const pinned = '2025-06-01T12:00:00.000Z';
    await json(`${sandbox.baseUrl}/control/clock`, { body: { now: pinned } });
    const a = await newOrder();
    await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 60_000 } });
    const expired = await control(a.id, 'expire');
    assert.equal(expired.body.data.order.status, 'EXPIRED');
    assert.equal(expired.body.data.order.expiresAt, '2025-06-01T12:01:00.000Z', 'expiresAt moved to now');
    const c = await newOrder();
    assert.equal((await control(c.id, 'cancel')).body.data.order.status, 'CANCELLED');
    assert.equal((await control(c.id, 'expire')).status, 409);
    assert.equal((await control(c.id, 'pay', { kind: 'exact' })).status, 409);
  });

  test('magic: "expire-immediately" orders are expired on first read', async () => {
    const order = await newOrder({ name: 'expire-immediately' });
    assert.equal(order.expiresAt, (order as unknown as { createdAt: string }).createdAt);
    assert.equal((await fetchOrder(order.id)).status, 'EXPIRED');
  });

  test('magic: payer email underpaid@example.com turns every payment into an underpayment', async () => {
    const order = await newOrder({ metadata: { userName: 'U', userEmail: 'underpaid@example.com' } });
    assert.equal(
      (await control(order.id, 'pay', { kind: 'exact' })).body.data.order.status,
      'PAYMENT_CONFIRMED_UNDERPAID',
    );
    assert.equal(
      (await control(order.id, 'pay', { kind: 'overpaid' })).body.data.order.status,
      'PAYMENT_CONFIRMED_UNDERPAID',
    );
    // An explicit amount is still honoured, so such an order can be completed on purpose.
    const rest = await fetchOrder(order.id);
    const due =
      Number(rest.quote.toAmount.amount) - rest.payments.reduce((s, p) => s + Number(p.receivedAmount), 0);
    const done = await control(order.id, 'pay', { amount: due.toFixed(6) });
    assert.equal(done.body.data.order.status, 'PAYMENT_CONFIRMED_ACCURATE');
  });

  test('controls refuse unknown orders (404), unknown currencies (422) and bad kinds (400)', async () => {
    assert.equal((await control('NOSUCHORDER1', 'pay', { kind: 'exact' })).status, 404);
    const order = await newOrder();
    assert.equal((await control(order.id, 'pay', { kind: 'exact', currency: 'DOGE_MARS' })).status, 422);
    assert.equal((await control(order.id, 'pay', { kind: 'most' })).status, 400);
  });
});
