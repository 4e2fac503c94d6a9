import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrder, productsFile, upstreamIdOf } from './order-fixtures.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

const admin = (
  path: string,
  init: RequestInit & { json?: unknown } = {},
  token: string = testSecrets.adminToken,
) =>
  stack.api(`/api/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });

interface AdminOrders {
  orders: Array<{
    id: string;
    externalId: string | null;
    type: string | null;
    link: string;
    status: string;
    upstreamStatus: string;
    purchase: { name: string; price: string; currency: string; notes: string | null };
    paid: { amount: string; currency: string } | null;
    customer: { name: string | null; email: string | null };
    createdAt: string;
    expiresAt: string | null;
    payments: Array<{ amount: string; currency: string; txHash: string }>;
    updates: Array<{ message: string; at: string }>;
  }>;
  pagination: { page: number; limit: number; totalPages: number; totalItems: number };
}

describe('admin auth', () => {
  test('no token, a wrong token or another scheme is 401', async () => {
    assert.equal((await stack.api('/api/admin/orders')).status, 401);
    assert.equal((await admin('/orders', {}, 'wrong-token')).status, 401);
    assert.equal((await admin('/orders', {}, `${testSecrets.adminToken}x`)).status, 401);
    const basic = await stack.api('/api/admin/orders', {
      headers: { authorization: `Basic ${testSecrets.adminToken}` },
    });
    assert.equal(basic.status, 401);
    assert.equal((await json<{ error: { code: string } }>(basic)).error.code, 'UNAUTHORIZED');
  });
});

describe('GET /api/admin/upstream-orders', () => {
  test("finds an order by either reference, the payment page's or ours, even where the upstream matches exactly", async () => {
    await stack.control('PATCH', '/settings', { searchIdMatch: 'exact' });
    try {
      const created = await createOrder(stack, { product: 'hoodie' });
      await createOrder(stack, { product: 'hoodie' });
      for (const id of [upstreamIdOf(created), created.orderId]) {
        const body = await json<AdminOrders>(
          await admin(`/upstream-orders?searchId=${encodeURIComponent(id)}`),
        );
        assert.deepEqual(
          body.orders.map((o) => [o.id, o.externalId]),
          [[upstreamIdOf(created), created.orderId]],
          `searching ${id}`,
        );
      }
      // An id that is neither finds nothing (it is not taken for ours).
      const none = await json<AdminOrders>(await admin('/upstream-orders?searchId=ord_00000000000000000000'));
      assert.deepEqual(none.orders, []);
    } finally {
      await stack.control('PATCH', '/settings', { searchIdMatch: 'contains' });
    }
  });

  test('lists the upstream orders normalised, with payments and the updates log', async () => {
    const created = await createOrder(stack, {
      product: 'hoodie',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
    const response = await admin(`/upstream-orders?searchId=${upstreamIdOf(created)}`);
    assert.equal(response.status, 200);
    const body = await json<AdminOrders>(response);
    assert.equal(body.orders.length, 1);
    const order = body.orders[0]!;
    assert.equal(order.id, upstreamIdOf(created));
    assert.equal(order.externalId, created.orderId);
    assert.equal(order.type, 'STANDARD');
    assert.equal(order.status, 'paid');
    assert.equal(order.upstreamStatus, 'PAYMENT_CONFIRMED_ACCURATE');
    assert.deepEqual(
      { name: order.purchase.name, price: order.purchase.price, currency: order.purchase.currency },
      { name: 'Satoshi Hoodie', price: '49.00', currency: 'EUR' },
    );
    assert.equal(order.customer.email, 'ada@example.com');
    assert.equal(order.payments.length, 1);
    assert.ok(order.payments[0]?.txHash);
    assert.ok(order.paid && Number(order.paid.amount) > 0);
    assert.ok(order.updates.length >= 2);
    assert.ok(order.updates.every((update) => typeof update.message === 'string'));
    assert.deepEqual(body.pagination, { page: 1, limit: 20, totalPages: 1, totalItems: 1 });
  });

  test('page and limit paginate; dates accept ISO and epoch; type filters', async () => {
    await createOrder(stack);
    await createOrder(stack);
    const page = await json<AdminOrders>(await admin('/upstream-orders?limit=1&page=2'));
    assert.equal(page.orders.length, 1);
    assert.equal(page.pagination.page, 2);
    assert.equal(page.pagination.limit, 1);
    assert.ok(page.pagination.totalItems >= 3);

    const future = new Date(Date.now() + 3_600_000);
    const none = await json<AdminOrders>(await admin(`/upstream-orders?startDate=${future.toISOString()}`));
    assert.equal(none.orders.length, 0);
    const sinceEpochSeconds = Math.floor((Date.now() - 3_600_000) / 1000);
    const all = await json<AdminOrders>(
      await admin(`/upstream-orders?startDate=${sinceEpochSeconds}&endDate=${Date.now() + 1000}`),
    );
    assert.ok(all.orders.length >= 3);
    const day = new Date().toISOString().slice(0, 10);
    assert.equal((await admin(`/upstream-orders?startDate=${day}`)).status, 200);

    const routes = await json<AdminOrders>(await admin('/upstream-orders?type=PAYMENT_ROUTE'));
    assert.ok(routes.orders.every((order) => order.type === 'PAYMENT_ROUTE'));
    const standard = await json<AdminOrders>(await admin('/upstream-orders?type=STANDARD&limit=100'));
    assert.ok(standard.orders.length >= 3);
  });

  test('bad filters are 422 with the field named', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['type=FOO', 'type'],
      ['startDate=yesterday', 'startDate'],
      [`startDate=${Date.now()}&endDate=${Date.now() - 86_400_000}`, 'endDate'],
    ];
    for (const [query, field] of cases) {
      const response = await admin(`/upstream-orders?${query}`);
      assert.equal(response.status, 422, query);
      const body = await json<{ error: { code: string; issues: Array<{ path: string }> } }>(response);
      assert.equal(body.error.code, 'VALIDATION_FAILED');
      assert.ok(
        body.error.issues.some((issue) => issue.path === field),
        `${query} names ${field}`,
      );
    }
  });
});

describe('POST /api/admin/payment-links', () => {
  test('creates an upstream order with the name, internal note, image and display amount', async () => {
    const response = await admin('/payment-links', {
      method: 'POST',
      json: {
        name: 'Consulting, 2 hours',
        note: 'invoice #1234 for ACME',
        imageUrl: 'https://cdn.shop.example/logo.png',
        currency: 'usd',
        amount: '250.00',
      },
    });
    assert.equal(response.status, 201);
    const link = await json<{ orderId: string; link: string; expiresAt: string | null }>(response);
    assert.ok(link.link.endsWith(`/pay/${link.orderId}`));
    assert.ok(link.expiresAt);

    const listed = await json<AdminOrders>(await admin(`/upstream-orders?searchId=${link.orderId}`));
    const order = listed.orders[0]!;
    assert.equal(order.purchase.name, 'Consulting, 2 hours');
    assert.equal(order.purchase.notes, 'invoice #1234 for ACME');
    assert.equal(order.purchase.price, '250.00');
    assert.equal(order.purchase.currency, 'USD');
  });

  test('validates the body and needs the admin token', async () => {
    const bad = await admin('/payment-links', {
      method: 'POST',
      json: { name: '', currency: 'EURO', amount: '-1' },
    });
    assert.equal(bad.status, 422);
    const paths = (await json<{ error: { issues: Array<{ path: string }> } }>(bad)).error.issues.map(
      (i) => i.path,
    );
    assert.deepEqual(paths.sort(), ['amount', 'currency', 'name']);
    const badImage = await admin('/payment-links', {
      method: 'POST',
      json: { name: 'X', currency: 'EUR', amount: '1', imageUrl: 'javascript:alert(1)' },
    });
    assert.equal(badImage.status, 422);
    const refused = await admin('/payment-links', {
      method: 'POST',
      json: { name: 'X', currency: 'XYZ', amount: '1' },
    });
    assert.equal(refused.status, 422, 'a currency the upstream does not take');
    const tooPrecise = await admin('/payment-links', {
      method: 'POST',
      json: { name: 'X', currency: 'EUR', amount: '12.505' },
    });
    assert.equal(tooPrecise.status, 422, 'never rounded up to 12.51');
    const issue = (await json<{ error: { issues: Array<{ path: string; message: string }> } }>(tooPrecise))
      .error.issues[0];
    assert.equal(issue?.path, 'amount');
    assert.match(issue?.message ?? '', /EUR has 2 decimals/);
    const anonymous = await stack.api('/api/admin/payment-links', {
      method: 'POST',
      json: { name: 'X', currency: 'EUR', amount: '1' },
    });
    assert.equal(anonymous.status, 401);
  });
});
