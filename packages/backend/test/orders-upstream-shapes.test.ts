/**
 * The payments client against answer shapes the sandbox does not produce (docs/upstream.md#payments-api): envelopes without
 * `success`/`message`, ids and links in the fallback places, `SP-` ids (kept as they came), numeric strings, `customer*` metadata.
 * A stub fetch stands in for the upstream here; everything else in the suite runs over real HTTP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentsClient } from '../src/upstream/payments-client.ts';

function clientAnswering(body: unknown, status = 200, seen: Request[] = []) {
  return createPaymentsClient({
    apiUrl: 'https://pay-api.example',
    apiKey: 'pay_key',
    timeoutMs: 1000,
    fetch: async (input, init) => {
      seen.push(new Request(input, init));
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    },
    log: () => {},
  });
}

const order = { purchase: { name: 'X', price: '1.00', currency: 'EUR' }, metadata: { externalId: 'ord_1' } };

test('create: the documented data.order, sent with the key and our idempotency key', async () => {
  const seen: Request[] = [];
  const client = clientAnswering(
    {
      data: {
        order: {
          id: 'A5WX6BN6CCPS',
          link: 'https://pay.example/A5WX6BN6CCPS',
          status: 'PENDING_USER_CREATION',
        },
      },
    },
    200,
    seen,
  );
  const created = await client.createOrder(order, { idempotencyKey: 'ord_1' });
  assert.equal(created.id, 'A5WX6BN6CCPS');
  assert.equal(created.order?.status, 'PENDING_USER_CREATION');
  assert.equal(seen[0]?.url, 'https://pay-api.example/v1/orders');
  assert.equal(seen[0]?.headers.get('x-api-key'), 'pay_key');
  assert.equal(seen[0]?.headers.get('x-idempotency-key'), 'ord_1');
});

test('create: id and link in the fallback places (data.id/link, top-level url), an SP- id kept as it came', async () => {
  const flat = await clientAnswering({
    data: { id: 'SP-MFT82BKE9HGW', link: 'https://pay.example/x' },
  }).createOrder(order, { idempotencyKey: 'k' });
  assert.deepEqual([flat.id, flat.link], ['SP-MFT82BKE9HGW', 'https://pay.example/x']);
  const bare = await clientAnswering({ id: 'B1', url: 'https://pay.example/b1' }).createOrder(order, {
    idempotencyKey: 'k',
  });
  assert.deepEqual([bare.id, bare.link], ['B1', 'https://pay.example/b1']);
  await assert.rejects(
    clientAnswering({ data: { order: { id: 'NOLINK' } } }).createOrder(order, { idempotencyKey: 'k' }),
    {
      code: 'UPSTREAM_ERROR',
    },
  );
});

test('list: numeric strings, numbers for money, Currency objects or codes, customer* metadata, no envelope flags', async () => {
  const client = clientAnswering({
    data: {
      orders: [
        {
          id: 'SP-AAAA',
          status: 'PAYMENT_CONFIRMED_UNDERPAID',
          purchase: { name: 'Mug', price: 18.5, currency: { symbol: 'EUR', type: 'FIAT', precision: '2' } },
          payments: [
            { receivedAmount: 0.000248877562194502, receivedCurrency: 'ETH' },
            { receivedAmount: '0.0001', receivedCurrency: { symbol: 'ETH' } },
          ],
          updates: null,
          metadata: { customerEmail: 'c@example.com', customerName: 'Cee', unknownField: 1 },
          somethingNew: { nested: true },
        },
      ],
      pagination: { currentPage: '2', totalPages: '3', totalItems: 41, itemsPerPage: '20' },
    },
  });
  const list = await client.listOrders({ page: 2, startDate: 1_700_000_000_000 });
  const first = list.orders[0]!;
  // Kept as it came: the order list's searchId knows the id only in the upstream's own form.
  assert.equal(first.id, 'SP-AAAA');
  assert.equal(first.purchase?.price, '18.5');
  assert.equal(first.purchase?.currency, 'EUR');
  assert.equal(first.payments[0]?.receivedAmount, '0.000248877562194502');
  assert.equal(first.payments[1]?.receivedCurrency, 'ETH');
  assert.deepEqual(first.updates, []);
  assert.equal(first.metadata?.customer.email, 'c@example.com');
  assert.equal(first.metadata?.customer.name, 'Cee');
  assert.deepEqual(list.pagination, { currentPage: 2, totalPages: 3, totalItems: 41, itemsPerPage: 20 });
});

test('list: user* metadata too; an HTML challenge page is UPSTREAM_ERROR, not a crash', async () => {
  const list = await clientAnswering({
    success: true,
    message: 'ok',
    data: { orders: [{ id: 'B', metadata: { userEmail: 'u@example.com', userCountry: 'DE' } }] },
  }).listOrders();
  assert.equal(list.orders[0]?.metadata?.customer.email, 'u@example.com');
  assert.equal(list.orders[0]?.metadata?.customer.country, 'DE');
  await assert.rejects(
    clientAnswering('<html><script src="/cdn-cgi/challenge-platform/x"></script></html>', 403).listOrders(),
    { code: 'UPSTREAM_ERROR' },
  );
});

test('payment routes: the route of the asked chain, memo and currency lists as given', async () => {
  const route = await clientAnswering({
    data: {
      paymentRoutes: [
        { id: 'r1', address: '0xabc', chainName: 'ethereum', supportedCurrencies: ['ETH'] },
        { id: 'r2', address: '0xdef', chainName: 'base', memo: '', supportedCurrencies: ['USDC', 'ETH'] },
      ],
    },
    message: 'text',
    success: true,
  }).createPaymentRoute({ externalId: 'cus', chains: ['base'] });
  assert.equal(route.address, '0xdef');
  assert.deepEqual(route.supportedCurrencies, ['USDC', 'ETH']);
});
