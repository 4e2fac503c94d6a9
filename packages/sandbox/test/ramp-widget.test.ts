/** The hosted ramp widget over real HTTP: signed URLs, the flow's routes, orders, signed and retried callbacks. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { BuyQuote } from '../src/ramp/quote-math.ts';
import { widgetSignature } from '../src/ramp/widget/signature.ts';
import { eventually, json, pending, type RunningSandbox, startReceiver, startSandbox } from './support.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
type Callback = Record<string, unknown>;
interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}
interface OrderCreated {
  order: { id: string; status: string; type: string };
  quote: BuyQuote & { crypto_amount: number };
  orderData: {
    order_id: string;
    address: string;
    amount: string;
    crypto: string;
    network: string;
    memo?: string;
  };
}

const PINNED = '2025-06-01T12:00:00.000Z';
let sandbox: RunningSandbox;
let receivers: Receiver[] = [];
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());
beforeEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
  await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
  await json(`${sandbox.baseUrl}/control/clock`, { body: { now: PINNED } });
  await json(`${sandbox.baseUrl}/control/settings`, {
    method: 'PATCH',
    body: { retryDelaysMs: [30, 30, 30] },
  });
});

/**
 * What a merchant backend does (docs/upstream.md#url-signing), written independently of the sandbox's own
 * helper.
 */
function sign(query: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(`?${query}`).digest('base64');
  return `${query}&signature=${encodeURIComponent(signature)}`;
}

const enc = encodeURIComponent;
const widget = (path: '/ramp/' | '/ramp/sell', query: string) => fetch(`${sandbox.baseUrl}${path}?${query}`);

function configOf(page: string): { session: string; prefix: string; type: string } {
  const match = /<script type="application\/json" id="config">([^<]*)<\/script>/.exec(page);
  assert.ok(match, 'the page carries its config');
  return JSON.parse(match[1]!);
}

async function receiver(respond?: (index: number) => number) {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

const signatureOf = (body: string, merchant: string) =>
  createHmac('sha256', `sk_sandbox_${merchant}`).update(body).digest('base64');

describe('signed widget URLs', () => {
  const vectorQuery =
    'apiKey=pk_test_abc&currencyCode=USDC_BASE&walletAddress=0x000000000000000000000000000000000000dEaD&method=creditcard&baseCurrencyCode=USD&baseCurrencyAmount=100.00&lockBaseCurrency=true';

  test('the signing function reproduces the test vector (docs/upstream.md#test-vectors)', () => {
    assert.equal(
      widgetSignature('sk_test_key', `?${vectorQuery}`),
      'oS8OgS5OIG+i6FWUnbzl/MZkLNDueGSbOOjcJ9cHEE4=',
    );
    assert.ok(
      sign(vectorQuery, 'sk_test_key').endsWith(
        '&signature=oS8OgS5OIG%2Bi6FWUnbzl%2FMZkLNDueGSbOOjcJ9cHEE4%3D',
      ),
    );
  });

  test('the test vector URL itself is refused: pk_test_abc is not a sandbox key', async () => {
    const response = await widget('/ramp/', sign(vectorQuery, 'sk_test_key'));
    assert.equal(response.status, 403);
    assert.match(await response.text(), /Invalid apiKey/);
  });

  test('the same query signed with a sandbox key pair opens the widget', async () => {
    const query = vectorQuery.replace('pk_test_abc', 'pk_sandbox_shop');
    const response = await widget('/ramp/', sign(query, 'sk_sandbox_shop'));
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, /Buy USD Coin \(Base\)/);
    assert.match(page, /<label[^>]*for="amount"/, 'the amount input is labelled');
    assert.equal(configOf(page).type, 'buy');
  });

  test('signatures are checked over the raw, still-encoded query', async () => {
    const query = `apiKey=pk_sandbox_shop&currencyCode=BTC&walletAddress=bc1qxyz&redirectUrl=${enc('https://shop.example/done?id={orderId}')}`;
    assert.equal((await widget('/ramp/', sign(query, 'sk_sandbox_shop'))).status, 200);
    const overDecoded = createHmac('sha256', 'sk_sandbox_shop')
      .update(`?${decodeURIComponent(query)}`)
      .digest('base64');
    const refused = await widget('/ramp/', `${query}&signature=${enc(overDecoded)}`);
    assert.equal(refused.status, 403);
  });

  test('wrong, missing, misplaced or tampered signatures get a 403 error page', async () => {
    const query = 'apiKey=pk_sandbox_shop&currencyCode=ETH&walletAddress=0xabc&baseCurrencyAmount=50';
    const cases: Array<[string, RegExp]> = [
      [sign(query, 'sk_sandbox_other'), /Invalid signature/],
      [query, /Missing signature/],
      [`${sign(query, 'sk_sandbox_shop')}&email=a%40b.co`, /The signature must be the final parameter/],
      [
        sign(query, 'sk_sandbox_shop').replace('baseCurrencyAmount=50', 'baseCurrencyAmount=5000'),
        /Invalid signature/,
      ],
      [sign(query.replace('pk_sandbox_shop', 'pk_live_shop'), 'sk_live_shop'), /Invalid apiKey/],
      [sign('currencyCode=ETH&walletAddress=0xabc', 'sk_sandbox_shop'), /Missing apiKey/],
    ];
    for (const [url, message] of cases) {
      const response = await widget('/ramp/', url);
      assert.equal(response.status, 403, url);
      const page = await response.text();
      assert.match(page, message, url);
      assert.match(page, /SWAPPED_ERROR/, 'an embedder hears about it');
    }
    const sellUnsigned = await widget('/ramp/sell', 'apiKey=pk_sandbox_shop');
    assert.equal(sellUnsigned.status, 403);
  });

  test('signed but invalid parameters get a 400 page naming the problem', async () => {
    const cases: Array<[string, RegExp]> = [
      ['apiKey=pk_sandbox_shop&walletAddress=0xabc', /currencyCode: is required/],
      ['apiKey=pk_sandbox_shop&currencyCode=ETH', /walletAddress: is required/],
      ['apiKey=pk_sandbox_shop&currencyCode=NOPE&walletAddress=x', /Unsupported currencyCode: NOPE/],
      [
        'apiKey=pk_sandbox_shop&currencyCode=ETH&walletAddress=0xabc&baseCurrencyAmount=10.123',
        /at most 2 decimals/,
      ],
      [
        'apiKey=pk_sandbox_shop&currencyCode=ETH&walletAddress=0xabc&method=pix&baseCountry=DE',
        /Unsupported region/,
      ],
      [
        'apiKey=pk_sandbox_shop&currencyCode=ETH&walletAddress=0xabc&redirectUrl=javascript%3Aalert(1)',
        /redirectUrl/,
      ],
    ];
    for (const [query, message] of cases) {
      const response = await widget('/ramp/', sign(query, 'sk_sandbox_shop'));
      assert.equal(response.status, 400, query);
      assert.match(await response.text(), message, query);
    }
  });
});

describe('widget flow', () => {
  async function openBuy(extra = '', merchant = 'shop') {
    const query = `apiKey=pk_sandbox_${merchant}&currencyCode=LTC&walletAddress=ltc1qcustomer&method=creditcard&baseCurrencyCode=USD&baseCurrencyAmount=100.00&externalCustomerId=cust-42${extra}`;
    const response = await widget('/ramp/', sign(query, `sk_sandbox_${merchant}`));
    assert.equal(response.status, 200);
    const page = await response.text();
    return { page, ...configOf(page) };
  }

  const post = <T>(prefix: string, path: string, body: unknown = {}) =>
    json<Envelope<T>>(`${sandbox.baseUrl.replace(/\/$/, '')}${prefix}${path}`, { body });

  test('the widget quotes exactly like the pricing API at the same moment', async () => {
    const { page, prefix, session } = await openBuy();
    const api = await json<Envelope<BuyQuote>>(`${sandbox.baseUrl}/ramp/api/v1/merchant/pricing`, {
      body: {
        api_key: 'pk_sandbox_shop',
        payment_method: 'creditcard',
        region: 'US',
        fiat_currency: 'USD',
        fiat_amount: 100,
        crypto_currency: 'LTC',
      },
    });
    const q = api.body.data;
    assert.ok(page.includes(`${q.crypto_amount} LTC`), 'the page shows the crypto amount');
    assert.ok(page.includes(`${q.fiat_amount_incl_fees_local.toFixed(2)} USD`), 'and the total');
    const requote = await post<BuyQuote>(prefix, `/sessions/${session}/quote`, { fiatAmount: 100 });
    assert.deepEqual(requote.body.data, q);
    const tooLow = await post(prefix, `/sessions/${session}/quote`, { fiatAmount: 3 });
    assert.equal(tooLow.status, 400);
    assert.equal(tooLow.body.message, 'Amount too low: minimum is 7 EUR');
  });

  test('a buy sends signed callbacks payment_pending → order_completed → order_broadcasted, retrying failures', async () => {
    const hook = await receiver((index) => (index === 0 ? 500 : 200));
    const redirect = enc('https://shop.example/thanks?order={orderId}&status={orderStatus}');
    const { prefix, session } = await openBuy(`&responseUrl=${enc(hook.url)}&redirectUrl=${redirect}`);

    const created = await post<OrderCreated>(prefix, `/sessions/${session}/orders`, {
      email: 'buyer@example.com',
    });
    assert.equal(created.status, 200);
    const { order, quote, orderData } = created.body.data;
    assert.equal(order.status, 'payment_pending');
    assert.equal(orderData.order_id, order.id);
    assert.equal(orderData.address, 'ltc1qcustomer');
    assert.equal(orderData.amount, String(quote.crypto_amount));
    assert.equal(orderData.network, 'litecoin');

    await hook.waitFor(2); // the first attempt got a 500, the retry a 200
    assert.equal(hook.received[0]!.body, hook.received[1]!.body, 'a retry repeats the same body');

    const completed = await post<{ order: { status: string }; redirect: string }>(
      prefix,
      `/orders/${order.id}/complete`,
    );
    assert.equal(completed.body.data.order.status, 'order_completed');
    assert.equal(
      completed.body.data.redirect,
      `https://shop.example/thanks?order=${order.id}&status=order_completed`,
    );
    await hook.waitFor(4);

    const bodies = hook.received.map((r) => JSON.parse(r.body) as Callback);
    assert.deepEqual(
      bodies.map((b) => b['order_status']),
      ['payment_pending', 'payment_pending', 'order_completed', 'order_broadcasted'],
    );
    for (const request of hook.received) {
      assert.equal(
        request.headers['signature'],
        signatureOf(request.body, 'shop'),
        'signed with sk_sandbox_shop',
      );
      assert.equal(request.headers['content-type'], 'application/json');
    }
    const pending = bodies[0]!;
    assert.equal(pending['order_id'], order.id);
    assert.equal(pending['order_type'], 'buy');
    assert.equal(pending['order_crypto'], 'LTC');
    assert.equal(pending['order_crypto_amount'], String(quote.crypto_amount), 'a string');
    assert.equal(pending['order_crypto_address'], 'ltc1qcustomer');
    assert.equal(pending['order_crypto_tag'], null);
    assert.equal(pending['external_customer_id'], 'cust-42');
    assert.equal(pending['external_transaction_id'], null);
    assert.equal(pending['order_amount_eur'], quote.fiat_amount_excl_fees);
    assert.equal(pending['order_amount_eur_plus_fees'], quote.fiat_amount_incl_fees);
    assert.ok(Math.abs((pending['order_amount_usd'] as number) - 100) <= 0.01);
    assert.equal(pending['network'], 'litecoin');
    assert.equal(pending['transaction_id'], undefined, 'no transaction id before the broadcast');
    assert.match(String(bodies[3]!['transaction_id']), /^[0-9a-f]{64}$/);

    const deliveries = await json<Envelope<Array<{ attempts: Array<{ status: number }> }>>>(
      `${sandbox.baseUrl}/control/deliveries?kind=ramp-callback&merchant=shop`,
    );
    assert.deepEqual(
      deliveries.body.data[0]!.attempts.map((a) => a.status),
      [500, 200],
    );

    const status = await json<Envelope<Callback>>(`${sandbox.baseUrl}/ramp/api/v1/merchant/get_status`, {
      body: { order_id: order.id, api_key: 'pk_sandbox_shop' },
    });
    assert.equal(status.body.data['order_status'], 'order_broadcasted');
    assert.equal(status.body.data['transaction_id'], bodies[3]!['transaction_id']);
    assert.equal(status.body.data['processing_fee'], quote.processing_fee);

    const again = await post(prefix, `/orders/${order.id}/cancel`);
    assert.equal(again.status, 409, 'a broadcast order cannot be cancelled');
  });

  test('a cancelled buy ends with order_cancelled and nothing after it', async () => {
    const hook = await receiver();
    const { prefix, session } = await openBuy(`&responseUrl=${enc(hook.url)}`);
    const { order } = (
      await post<OrderCreated>(prefix, `/sessions/${session}/orders`, { email: 'b@example.com' })
    ).body.data;
    const cancelled = await post<{ order: { status: string }; redirect: string | null }>(
      prefix,
      `/orders/${order.id}/cancel`,
    );
    assert.equal(cancelled.body.data.order.status, 'order_cancelled');
    assert.equal(cancelled.body.data.redirect, null);
    await hook.waitFor(2);
    assert.equal((await post(prefix, `/orders/${order.id}/complete`)).status, 409);
    // Nothing more can come: both callbacks are settled and the sandbox has no follow-up or retry left to run.
    await eventually(async () => {
      const log = await json<Envelope<Array<{ state: string }>>>(
        `${sandbox.baseUrl}/control/deliveries?kind=ramp-callback&merchant=shop`,
      );
      return log.body.data.length === 2 && log.body.data.every((d) => d.state === 'delivered')
        ? true
        : undefined;
    }, 'both callbacks delivered');
    assert.deepEqual((await pending(sandbox.baseUrl)).inRealTime, []);
    assert.deepEqual(
      hook.received.map((r) => (JSON.parse(r.body) as Callback)['order_status']),
      ['payment_pending', 'order_cancelled'],
    );
  });

  test('a sell gives a deposit address with a memo for XRP and goes payout_pending → order_completed', async () => {
    const hook = await receiver();
    const query = `apiKey=pk_sandbox_seller&cryptoCurrencyCode=XRP&fiatCurrencyCode=EUR&fiatCurrencyAmount=200&method=skrill&responseUrl=${enc(hook.url)}`;
    const response = await widget('/ramp/sell', sign(query, 'sk_sandbox_seller'));
    assert.equal(response.status, 200);
    const { prefix, session, type } = configOf(await response.text());
    assert.equal(type, 'sell');
    const created = await post<OrderCreated>(prefix, `/sessions/${session}/orders`, {
      email: 's@example.com',
    });
    const { order, orderData, quote } = created.body.data;
    assert.match(orderData.address, /^r[1-9A-Za-z]{33}$/);
    assert.match(orderData.memo ?? '', /^\d+$/);
    assert.equal(quote.fiat_amount_incl_fees_local, 200);
    assert.equal((await post(prefix, `/orders/${order.id}/complete`)).body.success, true);
    await hook.waitFor(3);
    const bodies = hook.received.map((r) => JSON.parse(r.body) as Callback);
    assert.deepEqual(
      bodies.map((b) => b['order_status']),
      ['payment_pending', 'payout_pending', 'order_completed'],
    );
    assert.equal(bodies[0]!['order_type'], 'sell');
    assert.equal(bodies[0]!['order_crypto_tag'], orderData.memo);
    assert.equal(bodies[0]!['order_amount_eur_plus_fees'], 200);
    for (const request of hook.received)
      assert.equal(request.headers['signature'], signatureOf(request.body, 'seller'));
  });

  test('get_status is per merchant and needs a key', async () => {
    const { prefix, session } = await openBuy();
    const { order } = (
      await post<OrderCreated>(prefix, `/sessions/${session}/orders`, { email: 'c@example.com' })
    ).body.data;
    const url = `${sandbox.baseUrl}/ramp/api/v1/merchant/get_status`;
    const mine = await json<Envelope<Callback>>(url, {
      body: { order_id: order.id, api_key: 'pk_sandbox_shop' },
    });
    assert.equal(mine.body.data['order_status'], 'payment_pending');
    const theirs = await json(url, { body: { order_id: order.id, api_key: 'pk_sandbox_other' } });
    assert.deepEqual(theirs.body, { success: false, message: 'Order not found' });
    assert.equal(theirs.status, 404);
    assert.equal((await json(url, { body: { order_id: order.id } })).status, 401);
  });

  test('an order needs a valid email; a reset drops sessions and orders', async () => {
    const { prefix, session } = await openBuy();
    const bad = await post(prefix, `/sessions/${session}/orders`, { email: 'not-an-email' });
    assert.equal(bad.status, 400);
    await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
    const gone = await post(prefix, `/sessions/${session}/orders`, { email: 'a@example.com' });
    assert.equal(gone.status, 404);
  });
});
