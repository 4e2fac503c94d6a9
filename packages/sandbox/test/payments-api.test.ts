/** The payments API over real HTTP: order creation, validation, keys, isolation, routes, listing. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { json, type RunningSandbox, startSandbox } from './support.ts';

interface Envelope<T> {
  data: T;
  message: string;
  success: boolean;
}
interface Money {
  amount: string;
  currency: { symbol: string; type: string; precision: number };
}
interface Order {
  id: string;
  externalId: string | null;
  link: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  initType: string;
  merchant: { id: string };
  quote: { fromAmount: Money; toAmount: Money };
  purchase: { name: string; price: string; currency: { symbol: string; type: string } };
  metadata: Record<string, string>;
  payments: unknown[];
  updates: Array<{ message: string }>;
  depositAddress: unknown;
  test: boolean;
}
interface Route {
  id: string;
  externalId: string;
  address: string;
  memo: string;
  chainName: string;
  userEmail: string;
}
interface Page<T> {
  orders: T[];
  pagination: { currentPage: number; totalPages: number; totalItems: number; itemsPerPage: number };
}

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());
beforeEach(() => json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' }));

const key = (merchant = 'acme') => ({ 'x-api-key': `pay_sandbox_${merchant}` });
const api = (path: string) => `${sandbox.baseUrl}/pay-api/v1${path}`;

function createOrder(body: unknown, merchant = 'acme', headers: Record<string, string> = {}) {
  return json<Envelope<{ order: Order }>>(api('/orders'), {
    headers: { ...key(merchant), ...headers },
    body,
  });
}

const purchase = (over: Record<string, unknown> = {}) => ({
  purchase: { name: 'Sticker pack', description: 'Five stickers', price: '12.50', currency: 'EUR', ...over },
  metadata: { externalId: 'shop-1001', redirectUrl: 'https://shop.example/thanks' },
});

describe('POST /v1/orders', () => {
  test('answers the documented envelope with a new order', async () => {
    const { status, body } = await createOrder(purchase());
    assert.equal(status, 200);
    assert.equal(body.success, true);
    assert.equal(typeof body.message, 'string');
    const order = body.data.order;
    assert.match(order.id, /^[A-Z0-9]{12}$/);
    assert.equal(order.link, `${sandbox.baseUrl}/pay/${order.id}`);
    assert.equal(order.status, 'PENDING_USER_CREATION');
    assert.equal(order.initType, 'STANDARD');
    assert.equal(order.externalId, 'shop-1001');
    assert.match(order.merchant.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(order.purchase.currency.symbol, 'EUR');
    assert.equal(order.purchase.currency.type, 'FIAT');
    assert.equal(order.quote.fromAmount.amount, '12.50');
    assert.equal(order.quote.fromAmount.currency.symbol, 'EUR');
    assert.equal(order.quote.toAmount.currency.type, 'CRYPTO');
    assert.ok(Number(order.quote.toAmount.amount) > 12, 'EUR 12.50 is more than 12 USDC');
    assert.equal(order.depositAddress, null);
    assert.deepEqual(order.payments, []);
    assert.equal(order.updates.length, 1);
    assert.equal(order.metadata['redirectUrl'], 'https://shop.example/thanks');
    const ttl = Date.parse(order.expiresAt) - Date.parse(order.createdAt);
    assert.equal(ttl, 30 * 60 * 1000);
  });

  test('the merchant UUID is stable per key and differs between keys', async () => {
    const a1 = (await createOrder(purchase())).body.data.order;
    const a2 = (await createOrder(purchase())).body.data.order;
    const b = (await createOrder(purchase(), 'globex')).body.data.order;
    assert.equal(a1.merchant.id, a2.merchant.id);
    assert.notEqual(a1.merchant.id, b.merchant.id);
    assert.notEqual(a1.id, a2.id);
  });

  test('accepts a numeric price, testMode and the customer* metadata names', async () => {
    const { status, body } = await createOrder({
      purchase: { name: 'Mug', price: 9.5, currency: 'usd' },
      metadata: { customerName: 'Ada', customerEmail: 'ada@example.com', customerId: 'c-7' },
      testMode: true,
    });
    assert.equal(status, 200);
    const order = body.data.order;
    assert.equal(order.purchase.price, '9.5');
    assert.equal(order.purchase.currency.symbol, 'USD');
    assert.equal(order.test, true);
    assert.equal(order.metadata['userName'], 'Ada');
    assert.equal(order.metadata['userEmail'], 'ada@example.com');
    assert.equal(order.metadata['customerId'], 'c-7');
  });

  test('order TTL follows the settings', async () => {
    await json(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body: { orderTtlMs: 120_000 } });
    const order = (await createOrder(purchase())).body.data.order;
    assert.equal(Date.parse(order.expiresAt) - Date.parse(order.createdAt), 120_000);
  });

  const invalid: Array<[string, unknown, number, RegExp]> = [
    ['a missing purchase', { metadata: {} }, 400, /purchase/],
    ['a missing price', { purchase: { name: 'x', currency: 'EUR' } }, 400, /purchase\.price: is required/],
    ['a zero price', purchase({ price: '0' }), 422, /purchase\.price/],
    ['a negative price', purchase({ price: '-3' }), 422, /purchase\.price/],
    ['a non-numeric price', purchase({ price: '12,50' }), 422, /purchase\.price/],
    ['too many decimals', purchase({ price: '1.005' }), 422, /at most 2 decimal/],
    ['decimals in yen', purchase({ price: '100.5', currency: 'JPY' }), 422, /at most 0 decimal/],
    ['an unknown currency', purchase({ currency: 'XYZ' }), 422, /XYZ is not a supported fiat/],
    ['a crypto as price currency', purchase({ currency: 'BTC' }), 422, /not a supported fiat/],
    ['an invalid email', { ...purchase(), metadata: { userEmail: 'nope' } }, 400, /metadata\.userEmail/],
    [
      'a non-http redirect',
      { ...purchase(), metadata: { redirectUrl: 'javascript:alert(1)' } },
      400,
      /redirectUrl/,
    ],
  ];
  for (const [what, body, status, message] of invalid) {
    test(`refuses ${what} with ${status} and a clear message`, async () => {
      const response = await createOrder(body);
      assert.equal(response.status, status);
      assert.equal(response.body.success, false);
      assert.equal(response.body.data, null);
      assert.match(response.body.message, message);
    });
  }

  test('refuses malformed JSON with 400 in the envelope', async () => {
    const response = await fetch(api('/orders'), {
      method: 'POST',
      headers: { ...key(), 'content-type': 'application/json' },
      body: '{"purchase":',
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as Envelope<null>;
    assert.equal(body.success, false);
  });

  test('refuses missing and foreign keys with 401 in the envelope', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { 'x-api-key': 'pk_sandbox_acme' },
      { 'x-api-key': 'pay_live_acme' },
    ];
    for (const headers of refused) {
      const response = await json<Envelope<null>>(api('/orders'), { headers, body: purchase() });
      assert.equal(response.status, 401);
      assert.equal(response.body.success, false);
      assert.match(response.body.message, /API key|X-API-Key/);
    }
  });

  test('magic price 13.13 fails with a 500 envelope and creates nothing', async () => {
    const response = await createOrder(purchase({ price: '13.13' }));
    assert.equal(response.status, 500);
    assert.equal(response.body.success, false);
    const list = await json<Envelope<Page<Order>>>(api('/merchants/orders'), { headers: key() });
    assert.equal(list.body.data.pagination.totalItems, 0);
  });

  test('the same idempotency key returns the same order; a different body under it is refused', async () => {
    const first = await createOrder(purchase(), 'acme', { 'X-Idempotency-Key': 'k-1' });
    const again = await createOrder(purchase(), 'acme', { 'X-Idempotency-Key': 'k-1' });
    assert.equal(again.body.data.order.id, first.body.data.order.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const otherMerchant = await createOrder(purchase(), 'globex', { 'X-Idempotency-Key': 'k-1' });
    assert.notEqual(otherMerchant.body.data.order.id, first.body.data.order.id);
    const changed = await createOrder(purchase({ price: '99.00' }), 'acme', { 'Idempotency-Key': 'k-1' });
    assert.equal(changed.status, 422);
    const fresh = await createOrder(purchase());
    assert.notEqual(fresh.body.data.order.id, first.body.data.order.id);
  });
});

describe('POST /v1/payment-routes', () => {
  const routes = (body: unknown, merchant = 'acme') =>
    json<Envelope<{ paymentRoutes: Route[]; pagination: Page<Route>['pagination'] }>>(
      api('/payment-routes'),
      {
        headers: key(merchant),
        body,
      },
    );

  test('gives one permanent route per chain, in each chain’s address format', async () => {
    const { status, body } = await routes({
      externalId: 'cust-42',
      chains: ['base', 'ethereum', 'tron', 'solana', 'bitcoin', 'xrp', 'ton'],
      email: 'c42@example.com',
      name: 'Customer 42',
    });
    assert.equal(status, 200);
    const byChain = Object.fromEntries(body.data.paymentRoutes.map((r) => [r.chainName, r]));
    assert.match(byChain['base']!.address, /^0x[0-9a-f]{40}$/);
    assert.match(byChain['ethereum']!.address, /^0x[0-9a-f]{40}$/);
    assert.notEqual(byChain['base']!.address, byChain['ethereum']!.address);
    assert.match(byChain['tron']!.address, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    assert.match(byChain['solana']!.address, /^[1-9A-HJ-NP-Za-km-z]{44}$/);
    assert.match(byChain['bitcoin']!.address, /^bc1q[02-9ac-hj-np-z]{38}$/);
    assert.match(byChain['xrp']!.memo, /^\d+$/);
    assert.match(byChain['ton']!.memo, /^\d+$/);
    assert.equal(byChain['base']!.memo, '');
    assert.equal(byChain['base']!.userEmail, 'c42@example.com');
    assert.equal(body.data.pagination.totalItems, 7);
  });

  test('the same externalId gets the same address back, even after a reset; others get another', async () => {
    const first = (await routes({ externalId: 'cust-1', chains: ['base'] })).body.data.paymentRoutes[0]!;
    const again = (await routes({ externalId: 'cust-1', chains: ['base', 'tron'] })).body.data
      .paymentRoutes[0]!;
    assert.equal(again.address, first.address);
    assert.equal(again.id, first.id);
    await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
    const afterReset = (await routes({ externalId: 'cust-1', chains: ['base'] })).body.data.paymentRoutes[0]!;
    assert.equal(afterReset.address, first.address);
    const other = (await routes({ externalId: 'cust-2', chains: ['base'] })).body.data.paymentRoutes[0]!;
    assert.notEqual(other.address, first.address);
    const otherMerchant = (await routes({ externalId: 'cust-1', chains: ['base'] }, 'globex')).body.data
      .paymentRoutes[0]!;
    assert.notEqual(otherMerchant.address, first.address);
  });

  test('memo chains share the merchant address and tell customers apart by memo', async () => {
    const a = (await routes({ externalId: 'a', chains: ['xrp'] })).body.data.paymentRoutes[0]!;
    const b = (await routes({ externalId: 'b', chains: ['xrp'] })).body.data.paymentRoutes[0]!;
    assert.equal(a.address, b.address);
    assert.notEqual(a.memo, b.memo);
  });

  test('refuses unknown chains, no chains and a missing externalId', async () => {
    const unknown = await routes({ externalId: 'x', chains: ['base', 'dogechain'] });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.message, /dogechain/);
    assert.match(unknown.body.message, /supported: base, ethereum/);
    assert.equal((await routes({ externalId: 'x', chains: [] })).status, 400);
    assert.equal((await routes({ chains: ['base'] })).status, 400);
    assert.equal(
      (await json(api('/payment-routes'), { body: { externalId: 'x', chains: ['base'] } })).status,
      401,
    );
  });
});

describe('GET /v1/merchants/orders', () => {
  const list = (query = '', merchant = 'acme') =>
    json<Envelope<Page<Order>>>(api(`/merchants/orders${query}`), { headers: key(merchant) });

  async function seed(count: number, merchant = 'acme') {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const body = { ...purchase(), metadata: { externalId: `shop-${merchant}-${i}` } };
      ids.push((await createOrder(body, merchant)).body.data.order.id);
    }
    return ids;
  }

  test('pages newest first with 20 per page by default', async () => {
    const ids = await seed(23);
    const first = await list();
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.data.pagination, {
      currentPage: 1,
      totalPages: 2,
      totalItems: 23,
      itemsPerPage: 20,
    });
    assert.equal(first.body.data.orders.length, 20);
    assert.equal(first.body.data.orders[0]!.id, ids[22]);
    const second = await list('?page=2');
    assert.equal(second.body.data.orders.length, 3);
    assert.equal(second.body.data.orders.at(-1)!.id, ids[0]);
    const small = await list('?limit=5&page=3');
    assert.deepEqual(
      small.body.data.orders.map((o) => o.id),
      ids.slice(8, 13).reverse(),
    );
    const beyond = await list('?page=9');
    assert.equal(beyond.body.data.orders.length, 0);
    assert.equal(beyond.body.data.pagination.totalItems, 23);
  });

  test('refuses page and limit out of bounds', async () => {
    for (const query of ['?page=0', '?limit=0', '?limit=101', '?limit=abc', '?page=1.5', '?type=OTHER']) {
      const response = await list(query);
      assert.equal(response.status, 400, query);
      assert.equal(response.body.success, false);
    }
    assert.equal((await list('?limit=100')).status, 200);
  });

  test('merchants never see each other’s orders', async () => {
    const mine = await seed(2, 'acme');
    const theirs = await seed(1, 'globex');
    const acme = (await list('', 'acme')).body.data.orders.map((o) => o.id);
    const globex = (await list('', 'globex')).body.data.orders.map((o) => o.id);
    assert.deepEqual(acme.sort(), [...mine].sort());
    assert.deepEqual(globex, theirs);
    const search = await list(`?searchId=${theirs[0]}`, 'acme');
    assert.equal(search.body.data.orders.length, 0);
  });

  test('searchId matches the id or externalId, by substring, ignoring case', async () => {
    const ids = await seed(3);
    const byId = await list(`?searchId=${ids[1]!.slice(2, 9).toLowerCase()}`);
    assert.deepEqual(
      byId.body.data.orders.map((o) => o.id),
      [ids[1]],
    );
    const byExternal = await list('?searchId=SHOP-ACME-2');
    assert.deepEqual(
      byExternal.body.data.orders.map((o) => o.id),
      [ids[2]],
    );
    assert.equal((await list('?searchId=nothing-like-it')).body.data.orders.length, 0);
  });

  test('startDate and endDate filter by creation time, in epoch seconds or milliseconds', async () => {
    const clock = (body: unknown) => json(`${sandbox.baseUrl}/control/clock`, { body });
    const t0 = Date.parse('2026-03-01T10:00:00Z');
    await clock({ now: t0 });
    const [early] = await seed(1);
    await clock({ advanceMs: 3_600_000 });
    const [late] = await seed(1);
    const seconds = Math.floor((t0 + 1_800_000) / 1000);
    assert.deepEqual(
      (await list(`?startDate=${seconds}`)).body.data.orders.map((o) => o.id),
      [late],
    );
    assert.deepEqual(
      (await list(`?endDate=${t0 + 1_800_000}`)).body.data.orders.map((o) => o.id),
      [early],
    );
    assert.equal((await list(`?startDate=${t0}&endDate=${t0 + 3_600_000}`)).body.data.orders.length, 2);
    assert.equal((await list(`?startDate=${t0 + 10}&endDate=${t0}`)).status, 400);
  });

  test('type filters by initType; route deposits are PAYMENT_ROUTE orders', async () => {
    await seed(2);
    const route = (
      await json<Envelope<{ paymentRoutes: Route[] }>>(api('/payment-routes'), {
        headers: key(),
        body: { externalId: 'cust-9', chains: ['tron'] },
      })
    ).body.data.paymentRoutes[0]!;
    const deposit = await json<{ data: { order: Order } }>(
      `${sandbox.baseUrl}/control/orders/route-deposits`,
      {
        body: { routeId: route.id, currency: 'USDT_TRON', amount: '25' },
      },
    );
    assert.equal(deposit.status, 200);
    assert.equal(deposit.body.data.order.status, 'PAYMENT_CONFIRMED_ACCURATE');
    assert.equal((await list('?type=STANDARD')).body.data.orders.length, 2);
    const routed = (await list('?type=PAYMENT_ROUTE')).body.data.orders;
    assert.equal(routed.length, 1);
    assert.equal(routed[0]!.externalId, 'cust-9');
    assert.equal((await list('?type=INVOICE')).body.data.orders.length, 0);
  });

  test('unknown payments routes answer 404 in the envelope', async () => {
    const response = await json<Envelope<null>>(api('/orders/nope/refund'), { headers: key(), body: {} });
    assert.equal(response.status, 404);
    assert.equal(response.body.success, false);
  });
});
