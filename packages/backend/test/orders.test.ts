import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCheckoutToken } from '../src/index.ts';
import {
  type Created,
  countUpstreamCalls,
  createOrder,
  getStatus,
  newKey,
  postOrder,
  productsFile,
  readStatusEvents,
  restoreWebhooks,
  silenceWebhooks,
  upstreamIdOf,
  upstreamOrders,
  waitFor,
} from './order-fixtures.ts';
import { allowedOrigin, json, type Stack, startStack, testSecrets } from './support.ts';

/** A clock the tests can move forward, so "the last sync is older than 5 s" needs no waiting. */
const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };

let stack: Stack;
before(async () => {
  stack = await startStack({ clock, env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

const errorCode = async (response: Response) =>
  (await json<{ error: { code: string } }>(response)).error.code;

describe('POST /api/orders', () => {
  test('creates an upstream order priced from the catalog, with our reference and return URL', async () => {
    const response = await postOrder(stack, {
      product: 'hoodie',
      customer: { name: 'Ada', email: 'ada@example.com', country: 'de', lang: 'en' },
      returnUrl: `${allowedOrigin}/thanks`,
    });
    assert.equal(response.status, 201);
    const created = await json<Created>(response);
    assert.match(created.orderId, /^ord_[0-9a-f]{20}$/);
    assert.match(created.statusToken, /^st_/);
    assert.equal(created.status, 'pending');
    assert.deepEqual(created.product, { name: 'Satoshi Hoodie', price: '49.00', currency: 'EUR' });
    assert.ok(created.link.startsWith(`${stack.sandboxUrl}/pay/`));
    assert.ok(created.expiresAt && !Number.isNaN(Date.parse(created.expiresAt)));

    const { orders } = await upstreamOrders(stack, `&searchId=${upstreamIdOf(created)}`);
    const upstream = orders[0] as {
      purchase: { price: string; name: string; currency: { symbol: string } };
      metadata: Record<string, string>;
    };
    assert.equal(upstream.purchase.price, '49.00');
    assert.equal(upstream.purchase.currency.symbol, 'EUR');
    assert.equal(upstream.metadata['externalId'], created.orderId);
    assert.equal(
      upstream.metadata['redirectUrl'],
      `${stack.backendUrl}/api/orders/${created.orderId}/return`,
    );
    assert.equal(upstream.metadata['userEmail'], 'ada@example.com');
    assert.equal(upstream.metadata['userCountry'], 'DE');
  });

  test('a client-sent price, currency or markup changes nothing', async () => {
    const created = await json<Created>(
      await postOrder(stack, { product: 'hoodie', price: '0.01', currency: 'USD', markup: 5, amount: '1' }),
    );
    assert.deepEqual(created.product, { name: 'Satoshi Hoodie', price: '49.00', currency: 'EUR' });
    const { orders } = await upstreamOrders(stack, `&searchId=${upstreamIdOf(created)}`);
    const upstream = orders[0] as { purchase: { price: string; currency: { symbol: string } } };
    assert.equal(upstream.purchase.price, '49.00');
    assert.equal(upstream.purchase.currency.symbol, 'EUR');
  });

  test('a checkout token sets the price; a forged or expired one is refused', async () => {
    const token = createCheckoutToken(
      { name: 'Custom cake', price: '12.50', currency: 'usd', reference: 'cart-77', expiresInSeconds: 600 },
      testSecrets.checkoutTokenSecret,
    );
    const created = await json<Created>(await postOrder(stack, { checkoutToken: token }));
    assert.deepEqual(created.product, { name: 'Custom cake', price: '12.50', currency: 'USD' });

    const forged = createCheckoutToken(
      { name: 'Custom cake', price: '0.50', currency: 'USD', expiresInSeconds: 600 },
      'someone-elses-secret-0123456789',
    );
    const refused = await postOrder(stack, { checkoutToken: forged });
    assert.equal(refused.status, 401);
    assert.equal(await errorCode(refused), 'TOKEN_INVALID');

    const expired = createCheckoutToken(
      { name: 'Custom cake', price: '12.50', currency: 'USD', expiresInSeconds: 1 },
      testSecrets.checkoutTokenSecret,
      Date.now() - 10_000,
    );
    const late = await postOrder(stack, { checkoutToken: expired });
    assert.equal(late.status, 401);
    assert.equal(await errorCode(late), 'TOKEN_EXPIRED');
  });

  test('validation: header, exactly one source, field shapes, unknown product', async () => {
    const noKey = await postOrder(stack, { product: 'hoodie' }, null);
    assert.equal(noKey.status, 400);
    assert.equal(await errorCode(noKey), 'BAD_REQUEST');

    const shortKey = await postOrder(stack, { product: 'hoodie' }, 'short');
    assert.equal(shortKey.status, 422);
    assert.equal(await errorCode(shortKey), 'VALIDATION_FAILED');

    const both = await postOrder(stack, { product: 'hoodie', checkoutToken: 'x.y' });
    assert.equal(both.status, 422);
    const neither = await postOrder(stack, { customer: { name: 'Ada' } });
    assert.equal(neither.status, 422);

    const badEmail = await postOrder(stack, { product: 'hoodie', customer: { email: 'not-an-email' } });
    assert.equal(badEmail.status, 422);
    const issues = (await json<{ error: { issues: Array<{ path: string }> } }>(badEmail)).error.issues;
    assert.ok(issues.some((issue) => issue.path === 'customer.email'));

    const unknown = await postOrder(stack, { product: 'no-such-thing' });
    assert.equal(unknown.status, 404);
  });

  test('a returnUrl on a foreign origin is refused before any upstream call', async () => {
    let response: Response | undefined;
    const calls = await countUpstreamCalls(stack, '/pay-api/v1/orders', 'POST', async () => {
      response = await postOrder(stack, { product: 'hoodie', returnUrl: 'https://evil.example/thanks' });
    });
    assert.equal(response?.status, 422);
    assert.equal(await errorCode(response!), 'RETURN_URL_NOT_ALLOWED');
    assert.equal(calls, 0);
  });
});

describe('idempotency', () => {
  test('the same key and body answer the same order, marked as a replay', async () => {
    const key = newKey();
    const body = { product: 'sticker-pack', customer: { email: 'bob@example.com' } };
    const first = await postOrder(stack, body, key);
    assert.equal(first.status, 201);
    // Key order in the JSON does not matter.
    const second = await postOrder(
      stack,
      { customer: { email: 'bob@example.com' }, product: 'sticker-pack' },
      key,
    );
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await json(second), await json(first));
  });

  test('two concurrent creates with one key make one upstream order', async () => {
    const key = newKey();
    let responses: Response[] = [];
    const calls = await countUpstreamCalls(stack, '/pay-api/v1/orders', 'POST', async () => {
      responses = await Promise.all(
        Array.from({ length: 5 }, () => postOrder(stack, { product: 'hoodie' }, key)),
      );
    });
    assert.equal(calls, 1);
    const bodies = await Promise.all(responses.map((response) => json<Created>(response)));
    assert.equal(new Set(bodies.map((body) => body.orderId)).size, 1);
    assert.deepEqual(responses.map((response) => response.status).sort(), [200, 200, 200, 200, 201]);
    const { orders } = await upstreamOrders(stack, `&searchId=${bodies[0]!.orderId}`);
    assert.equal(orders.length, 1);
  });

  test('the same key with a different body is a 409', async () => {
    const key = newKey();
    assert.equal((await postOrder(stack, { product: 'hoodie' }, key)).status, 201);
    const conflict = await postOrder(stack, { product: 'sticker-pack' }, key);
    assert.equal(conflict.status, 409);
    assert.equal(await errorCode(conflict), 'IDEMPOTENCY_CONFLICT');
  });

  test('an upstream failure clears the claim so a retry with the key can succeed', async () => {
    const key = newKey();
    await stack.control('POST', '/faults', {
      route: '/pay-api/v1/orders',
      method: 'POST',
      status: 500,
      times: 1,
    });
    const failed = await postOrder(stack, { product: 'hoodie' }, key);
    assert.equal(failed.status, 502);
    assert.equal(await errorCode(failed), 'UPSTREAM_ERROR');
    const retried = await postOrder(stack, { product: 'hoodie' }, key);
    assert.equal(retried.status, 201);
  });

  test('creating an order is not retried upstream (it is not idempotent there)', async () => {
    await stack.control('DELETE', '/faults');
    // A 503 rule for up to 5 requests: whatever it has left says how many attempts were made.
    await stack.control('POST', '/faults', {
      route: '/pay-api/v1/orders',
      method: 'POST',
      status: 503,
      times: 5,
    });
    const response = await postOrder(stack, { product: 'hoodie' });
    const faults = (await stack.control('GET', '/faults')) as { data: Array<{ times?: number }> };
    await stack.control('DELETE', '/faults');
    assert.equal(response.status, 502);
    assert.equal(faults.data[0]?.times, 4);
  });
});

describe('GET /api/orders/:id and /events', () => {
  test('needs the status token (header or ?token=), compared exactly', async () => {
    const created = await createOrder(stack);
    assert.equal((await stack.api(`/api/orders/${created.orderId}`)).status, 401);
    const wrong = await stack.api(`/api/orders/${created.orderId}`, {
      headers: { 'x-status-token': `${created.statusToken}x` },
    });
    assert.equal(wrong.status, 401);
    const viaQuery = await stack.api(`/api/orders/${created.orderId}?token=${created.statusToken}`);
    assert.equal(viaQuery.status, 200);
    const view = await json(viaQuery);
    assert.equal(view['orderId'], created.orderId);
    assert.equal(view['amount'], '49.00');
    assert.equal(view['currency'], 'EUR');
    assert.equal(view['final'], false);
    assert.equal((await stack.api('/api/orders/ord_00000000000000000000?token=x')).status, 404);
  });

  test('a real sandbox payment reaches the backend by signed webhook and an SSE listener sees paid', async () => {
    const created = await createOrder(stack);
    const events = await stack.api(`/api/orders/${created.orderId}/events?token=${created.statusToken}`);
    assert.equal(events.status, 200);
    assert.match(events.headers.get('content-type') ?? '', /text\/event-stream/);
    // Paid once the stream has told the state it started from (it is listening by then).
    let started: () => void = () => undefined;
    const listening = new Promise<void>((resolve) => {
      started = resolve;
    });
    const reading = readStatusEvents(events, (statuses) => {
      if (statuses.length) started();
      return false;
    });
    await listening;
    await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
    const { statuses, ended } = await reading;
    assert.equal(statuses[0], 'pending');
    assert.equal(statuses.at(-1), 'paid');
    assert.equal(ended, true, 'the stream closes after a final status');
    // The backend learnt it from the sandbox's signed webhook, not from a sync.
    const deliveries = (await stack.control('GET', '/deliveries?merchant=test')) as {
      data: Array<{ body: string; attempts: Array<{ status: number }> }>;
    };
    const completed = deliveries.data.find(
      (d) => d.body.includes(upstreamIdOf(created)) && d.body.includes('ORDER_COMPLETED'),
    );
    assert.equal(completed?.attempts.at(-1)?.status, 200);
  });

  test('without webhooks, the status comes from the upstream order list once the last sync is old', async () => {
    await silenceWebhooks(stack);
    try {
      const created = await createOrder(stack);
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'underpaid' });
      // Within 5 s of the last look the ledger answers from what it has.
      assert.equal((await getStatus(stack, created)).status, 'pending');
      clock.offsetMs += 6000;
      const view = await getStatus(stack, created);
      assert.equal(view.status, 'underpaid');
      assert.equal(view.upstreamStatus, 'PAYMENT_CONFIRMED_UNDERPAID');
      assert.ok(view.paid);
    } finally {
      await restoreWebhooks(stack);
    }
  });

  test('an upstream whose ids carry the old SP- prefix and whose searchId matches exactly: the status still syncs', async () => {
    await stack.control('PATCH', '/settings', { orderIds: 'sp-prefixed', searchIdMatch: 'exact' });
    await silenceWebhooks(stack);
    try {
      const created = await createOrder(stack);
      assert.match(upstreamIdOf(created), /^SP-/);
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      clock.offsetMs += 6000;
      const view = await getStatus(stack, created);
      assert.equal(view.status, 'paid', 'the shopper sees paid, as the admin list does');
      // And a webhook in the old casing (`order_id: "SP-…"`) finds the order too.
      const later = await createOrder(stack);
      await restoreWebhooks(stack);
      await stack.control('PATCH', '/settings', { webhookCasing: 'snake' });
      await stack.control('POST', `/orders/${upstreamIdOf(later)}/pay`, { kind: 'exact' });
      await waitFor(
        async () => ((await getStatus(stack, later)).status === 'paid' ? true : undefined),
        'paid by webhook',
      );
    } finally {
      await restoreWebhooks(stack);
      await stack.control('PATCH', '/settings', {
        orderIds: 'plain',
        searchIdMatch: 'contains',
        webhookCasing: 'camel',
      });
    }
  });

  test('a slow upstream list does not hold a status read for long', async () => {
    const created = await createOrder(stack);
    clock.offsetMs += 6000;
    await stack.control('POST', '/faults', {
      route: '/pay-api/v1/merchants/orders',
      method: 'GET',
      latencyMs: 4000,
      times: 1,
    });
    const started = Date.now();
    const view = await getStatus(stack, created);
    assert.ok(Date.now() - started < 3500, 'answered from the ledger after ~2 s');
    assert.equal(view.status, 'pending');
  });

  test('an SSE stream polls the upstream list while webhooks stay silent', async () => {
    await silenceWebhooks(stack);
    try {
      const created = await createOrder(stack);
      clock.offsetMs += 6000;
      const events = await stack.api(`/api/orders/${created.orderId}/events`, {
        headers: { 'x-status-token': created.statusToken },
      });
      const reading = readStatusEvents(events, () => false, 10_000);
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'overpaid' });
      // Age the last sync so the next poll tick (every 2 s) looks again.
      clock.offsetMs += 6000;
      const { statuses } = await reading;
      assert.equal(statuses.at(-1), 'overpaid');
    } finally {
      await restoreWebhooks(stack);
    }
  });
});

describe('GET /api/orders/:id/return', () => {
  test('top level: 303 to the merchant returnUrl with orderId and status', async () => {
    const created = await createOrder(stack, {
      product: 'hoodie',
      returnUrl: `${allowedOrigin}/done?cart=1`,
    });
    await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
    const response = await stack.api(`/api/orders/${created.orderId}/return`, {
      redirect: 'manual',
      headers: { 'sec-fetch-dest': 'document' },
    });
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(location.origin, allowedOrigin);
    assert.equal(location.searchParams.get('cart'), '1');
    assert.equal(location.searchParams.get('orderId'), created.orderId);
    assert.equal(location.searchParams.get('status'), 'paid');
  });

  test('the return route checks the upstream itself when no webhook came', async () => {
    await silenceWebhooks(stack);
    try {
      const created = await createOrder(stack, { product: 'hoodie', returnUrl: `${allowedOrigin}/done` });
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      clock.offsetMs += 1500;
      const response = await stack.api(`/api/orders/${created.orderId}/return`, { redirect: 'manual' });
      assert.equal(response.status, 303);
      assert.equal(new URL(response.headers.get('location') ?? '').searchParams.get('status'), 'paid');
    } finally {
      await restoreWebhooks(stack);
    }
  });

  test('inside an iframe: a page posting the status to the merchant origin only, frameable by it', async () => {
    const created = await createOrder(stack, { product: 'hoodie', returnUrl: `${allowedOrigin}/done` });
    const response = await stack.api(`/api/orders/${created.orderId}/return`, {
      redirect: 'manual',
      headers: { 'sec-fetch-dest': 'iframe' },
    });
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /window\.parent\.postMessage\(/);
    assert.ok(
      html.includes(`"type":"crypto-checkout:return","orderId":"${created.orderId}","status":"pending"`),
    );
    assert.ok(html.includes(`, "${allowedOrigin}");`));
    assert.ok(!html.includes('"*"'));
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, new RegExp(`frame-ancestors ${allowedOrigin}`));
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && html.includes(`<script nonce="${nonce}">`));
    assert.equal(response.headers.get('x-frame-options'), null);
  });

  test('no returnUrl: a small page at top level; unknown order: 404', async () => {
    const created = await createOrder(stack);
    const response = await stack.api(`/api/orders/${created.orderId}/return`, {
      headers: { 'sec-fetch-dest': 'document' },
    });
    assert.equal(response.status, 200);
    assert.match(await response.text(), /close this window/);
    assert.equal((await stack.api('/api/orders/ord_nope/return')).status, 404);
  });
});

test('checkout tokens verify to the product they charge', async () => {
  const token = createCheckoutToken(
    { name: 'Gift card', price: '25', currency: 'EUR', reference: 'gc-1', expiresInSeconds: 120 },
    testSecrets.checkoutTokenSecret,
  );
  const response = await stack.api('/api/checkout-tokens/verify', { method: 'POST', json: { token } });
  assert.equal(response.status, 200);
  const body = await json<{ product: Record<string, unknown>; expiresAt: string }>(response);
  assert.deepEqual(body.product, {
    name: 'Gift card',
    description: '',
    image: null,
    price: '25',
    currency: 'EUR',
    reference: 'gc-1',
  });
  assert.ok(Date.parse(body.expiresAt) > Date.now());
  const bad = await stack.api('/api/checkout-tokens/verify', {
    method: 'POST',
    json: { token: `${token}x` },
  });
  assert.equal(bad.status, 401);
  assert.equal((await stack.api('/api/checkout-tokens/verify', { method: 'POST', json: {} })).status, 422);
});

describe('an order creation that times out (issue 13, case 5)', () => {
  let stack: Stack;
  before(async () => {
    // Long enough that the calls around the slow one (the retry, the list) answer in time on a loaded machine.
    stack = await startStack({ env: { PRODUCTS_FILE: productsFile, UPSTREAM_TIMEOUT_MS: '1500' } });
  });
  after(() => stack.close());

  const slowCreate = () =>
    stack.control('POST', '/faults', {
      route: '/pay-api/v1/orders',
      method: 'POST',
      latencyMs: 4000,
      times: 1,
    });
  const upstreamWith = async (externalId: string) =>
    (await upstreamOrders(stack)).orders.filter(
      (o) =>
        (o['externalId'] ?? (o['metadata'] as Record<string, unknown> | undefined)?.['externalId']) ===
        externalId,
    );
  const ours = async () => (await stack.deps.store.values<{ id: string }>('orders')).map((o) => o.id);

  test("the shopper's retry with the same key answers with the order the first attempt made: one upstream order", async () => {
    await slowCreate();
    const key = newKey();
    const before = new Set((await upstreamOrders(stack)).orders.map((o) => String(o['id'])));
    const first = await postOrder(stack, { product: 'hoodie' }, key);
    assert.equal(first.status, 504, await first.text());
    // The upstream finishes the slow call: a payable order exists that the shopper never saw.
    const made = await waitFor(
      async () => {
        const fresh = (await upstreamOrders(stack)).orders.filter((o) => !before.has(String(o['id'])));
        return fresh.length ? fresh : undefined;
      },
      'the slow upstream order',
      15_000,
    );
    const retry = await postOrder(stack, { product: 'hoodie' }, key);
    const text = await retry.text();
    assert.ok(retry.status === 201 || retry.status === 200, text);
    const created = JSON.parse(text) as { orderId: string; link: string };
    assert.equal((await upstreamWith(created.orderId)).length, 1, 'exactly one upstream order for the key');
    assert.equal(made.length, 1);
    assert.ok(
      created.link.endsWith(String(made[0]?.['id'])),
      'the retry answers with the order already made',
    );
  });

  test('with no retry, the order the timed-out attempt made is still recorded in the ledger', async () => {
    await slowCreate();
    const known = new Set(await ours());
    const first = await postOrder(stack, { product: 'hoodie' }, newKey());
    assert.equal(first.status, 504);
    const recorded = await waitFor(
      async () => {
        const fresh = (await ours()).filter((id) => !known.has(id));
        return fresh.length ? fresh : undefined;
      },
      'the orphan recorded',
      20_000,
    );
    assert.equal((await upstreamWith(recorded[0] ?? '')).length, 1);
  });
});
