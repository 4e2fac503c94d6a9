/** The hosted payment page over real HTTP: what it shows, its form flow, redirect and postMessage origin. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { json, type RunningSandbox, startSandbox } from './support.ts';

interface Order {
  id: string;
  link: string;
  status: string;
}

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());
beforeEach(() => json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' }));

const SHOP = 'https://shop.example';

async function newOrder(metadata: Record<string, string> = {}, name = 'Organic tee'): Promise<Order> {
  const response = await json<{ data: { order: Order } }>(`${sandbox.baseUrl}/pay-api/v1/orders`, {
    headers: { 'x-api-key': 'pay_sandbox_acme' },
    body: {
      purchase: {
        name,
        description: 'Size M, forest green',
        imageUrl: 'https://cdn.shop.example/tee.png',
        price: '25.00',
        currency: 'EUR',
      },
      metadata: { externalId: 'ord-1', redirectUrl: `${SHOP}/return?order=ord-1`, ...metadata },
    },
  });
  return response.body.data.order;
}

async function page(url: string) {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The page's JSON config for its script (status, postMessage target, redirect). */
function config(text: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="pay-config">(.*?)<\/script>/s.exec(text);
  assert.ok(match, 'page carries its config');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

async function apiStatus(id: string): Promise<string> {
  const response = await json<{ data: { orders: Order[] } }>(
    `${sandbox.baseUrl}/pay-api/v1/merchants/orders?searchId=${id}`,
    { headers: { 'x-api-key': 'pay_sandbox_acme' } },
  );
  return response.body.data.orders[0]!.status;
}

describe('hosted payment page', () => {
  test('shows what is being paid, escaped, with a return link and an embeddable policy', async () => {
    const order = await newOrder({}, 'Tee <script>alert(1)</script>');
    const { status, headers, text } = await page(order.link);
    assert.equal(status, 200);
    assert.match(headers.get('content-type') ?? '', /text\/html/);
    assert.match(text, /Tee &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.doesNotMatch(text, /<script>alert/);
    assert.match(text, /Size M, forest green/);
    assert.match(text, /€25\.00/);
    assert.match(text, /src="https:\/\/cdn\.shop\.example\/tee\.png"/);
    assert.match(text, /<a id="return-link" href="https:\/\/shop\.example\/return\?order=ord-1"/);
    assert.equal(headers.get('x-frame-options'), null);
    assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
    assert.doesNotMatch(text, /<(link|script)[^>]+(src|href)="https?:/, 'no external scripts or styles');
  });

  test('unknown orders are a 404 page', async () => {
    const { status, text } = await page(`${sandbox.baseUrl}/pay/NOSUCHORDER0`);
    assert.equal(status, 404);
    assert.match(text, /Payment not found/);
    const statusJson = await fetch(`${sandbox.baseUrl}/pay/NOSUCHORDER0/status`);
    assert.equal(statusJson.status, 404);
  });

  test('asks for name and email, refuses a bad email, then moves to currency selection', async () => {
    const order = await newOrder();
    const first = await page(order.link);
    assert.match(first.text, /name="email"/);
    assert.equal(await apiStatus(order.id), 'PENDING_USER_CREATION');
    const bad = await post(`${order.link}/customer`, { name: 'Ada', email: 'not-an-email' });
    assert.equal(bad.status, 422);
    const badText = await bad.text();
    assert.match(badText, /role="alert"/);
    assert.match(badText, /value="Ada"/, 'keeps what was typed');
    assert.match(badText, /action="\.\.\/[A-Z0-9]{12}\/customer"/, 'forms still point at the right URL');
    const ok = await post(`${order.link}/customer?parentOrigin=${encodeURIComponent(SHOP)}`, {
      name: 'Ada',
      email: 'ada@example.com',
    });
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), `../${order.id}?parentOrigin=${encodeURIComponent(SHOP)}`);
    assert.equal(await apiStatus(order.id), 'PENDING_CURRENCY_SELECTION');
    const next = await page(order.link);
    assert.match(next.text, /name="currency" value="USDT_TRON"/);
    assert.doesNotMatch(next.text, /name="email"/);
  });

  test('what the payer types becomes the order’s customer, read back through the API (issue 29)', async () => {
    const order = await newOrder({ userCountry: 'DE' });
    const typed = await post(`${order.link}/customer`, { name: 'Test Buyer', email: 'buyer@example.com' });
    assert.equal(typed.status, 303);
    const response = await json<{ data: { orders: Array<{ metadata: Record<string, string> }> } }>(
      `${sandbox.baseUrl}/pay-api/v1/merchants/orders?searchId=${order.id}`,
      { headers: { 'x-api-key': 'pay_sandbox_acme' } },
    );
    const { metadata } = response.body.data.orders[0]!;
    assert.equal(metadata['userName'], 'Test Buyer');
    assert.equal(metadata['userEmail'], 'buyer@example.com');
    assert.equal(metadata['userCountry'], 'DE', 'what the merchant sent stays');
  });

  test('skips the details step when the metadata carries userName and userEmail', async () => {
    const order = await newOrder({ userName: 'Ada', userEmail: 'ada@example.com' });
    const { text } = await page(order.link);
    assert.doesNotMatch(text, /name="email"/);
    assert.match(text, /USDC on Base/);
    assert.equal(await apiStatus(order.id), 'PENDING_CURRENCY_SELECTION');
  });

  test('after choosing a currency it shows the deposit address, amount, memo and countdown', async () => {
    const order = await newOrder({ userName: 'Ada', userEmail: 'ada@example.com' });
    await page(order.link);
    assert.equal((await post(`${order.link}/currency`, { currency: 'XRP' })).status, 303);
    const { text } = await page(order.link);
    assert.match(text, /<code id="address">r[1-9A-HJ-NP-Za-km-z]{33}<\/code>/);
    assert.match(text, /<code id="memo">\d+<\/code>/);
    assert.match(text, /<code id="amount">\d+\.\d{6}<\/code> XRP/);
    assert.match(text, /role="timer"[^>]*>29:5\d</);
    assert.equal(await apiStatus(order.id), 'AWAITING_PAYMENT');
    assert.equal((await post(`${order.link}/currency`, { currency: 'NOPE' })).status, 422);
  });

  test('a simulated payment confirms and sends the payer back to redirectUrl in its own frame', async () => {
    const order = await newOrder({ userName: 'Ada', userEmail: 'ada@example.com' });
    await page(order.link);
    await post(`${order.link}/currency`, { currency: 'USDC_BASE' });
    const before = config((await page(order.link)).text);
    assert.equal(before['redirectUrl'], null, 'no redirect before payment');
    assert.equal((await post(`${order.link}/simulate`, { kind: 'exact' })).status, 303);
    const { text } = await page(order.link);
    assert.match(text, /Payment received/);
    assert.match(
      text,
      /<meta http-equiv="refresh" content="\d+;url=https:\/\/shop\.example\/return\?order=ord-1"/,
    );
    const after = config(text);
    assert.equal(after['status'], 'PAYMENT_CONFIRMED_ACCURATE');
    assert.equal(after['redirectUrl'], `${SHOP}/return?order=ord-1`);
    assert.match(text, /location\.href = cfg\.redirectUrl/, 'navigates its own frame, not window.top');
    assert.doesNotMatch(text, /top\.location/);
    assert.equal(await apiStatus(order.id), 'PAYMENT_CONFIRMED_ACCURATE');
  });

  test('an underpayment on the page asks for the rest; expiring shows a closed page', async () => {
    const order = await newOrder({ userName: 'Ada', userEmail: 'ada@example.com' });
    await page(order.link);
    await post(`${order.link}/currency`, { currency: 'USDC_BASE' });
    await post(`${order.link}/simulate`, { kind: 'underpaid' });
    assert.match((await page(order.link)).text, /Send the rest/);
    const other = await newOrder();
    await post(`${other.link}/simulate`, { kind: 'expire' });
    const closed = await page(other.link);
    assert.match(closed.text, /This payment has expired/);
    assert.equal(config(closed.text)['final'], true);
    const refused = await post(`${other.link}/simulate`, { kind: 'exact' });
    assert.equal(refused.status, 409);
  });

  test('status messages target the redirectUrl origin only, never "*"', async () => {
    const order = await newOrder();
    const plain = config((await page(order.link)).text);
    assert.equal(plain['targetOrigin'], SHOP);
    assert.equal(plain['messageType'], 'SWAPPED_ORDER_STATUS');
    assert.equal(plain['orderId'], order.id);
    const matching = config((await page(`${order.link}?parentOrigin=${encodeURIComponent(SHOP)}`)).text);
    assert.equal(matching['targetOrigin'], SHOP);
    const foreign = config(
      (await page(`${order.link}?parentOrigin=${encodeURIComponent('https://evil.example')}`)).text,
    );
    assert.equal(foreign['targetOrigin'], SHOP, 'a parentOrigin other than the merchant’s is ignored');
    const bare = await newOrder({ redirectUrl: '' });
    const { text } = await page(bare.link);
    assert.equal(config(text)['targetOrigin'], null, 'no redirectUrl, no trusted origin, no message');
    assert.doesNotMatch(text, /Return to merchant/);
    assert.doesNotMatch(text, /postMessage\([^)]*'\*'/);
  });

  test('the status endpoint follows the order for the page’s polling', async () => {
    const order = await newOrder();
    const before = await json<{ status: string; orderId: string }>(`${order.link}/status`);
    assert.deepEqual([before.body.orderId, before.body.status], [order.id, 'PENDING_USER_CREATION']);
    await json(`${sandbox.baseUrl}/control/orders/${order.id}/pay`, { body: { kind: 'overpaid' } });
    const after = await json<{ status: string }>(`${order.link}/status`);
    assert.equal(after.body.status, 'PAYMENT_CONFIRMED_OVERPAID');
  });
});
