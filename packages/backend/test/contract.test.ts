/**
 * The published contract against what the running backend really does: API.md's error table is errors.ts, and
 * every documented JSON answer of `/api/openapi.json` (read from the routes' own descriptions, whose schemas are
 * the ones the routes use) is what the route answers over real HTTP, with no undocumented field and no secret.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { apiTypes, generatedFile } from '../../../tools/openapi-types/generate.ts';
import { createApp } from '../src/app.ts';
import { errorCodes } from '../src/errors.ts';
import { createCustomerToken } from '../src/index.ts';
import { documentedRoutes } from '../src/openapi.ts';
import { createCheckoutToken } from '../src/tokens.ts';
import {
  createOrder,
  getStatus,
  newKey,
  postOrder,
  postWebhook,
  productsFile,
  upstreamIdOf,
} from './order-fixtures.ts';
import { waitFor } from './servers.ts';
import { type Stack, startStack, testSecrets } from './support.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { PRODUCTS_FILE: productsFile } });
});
after(() => stack.close());

describe('the published contract', () => {
  test("API.md's table of error codes is the one errors.ts answers with", async () => {
    const apiMd = await readFile(new URL('../API.md', import.meta.url), 'utf8');
    const documented = new Map<string, number>();
    for (const [, codes = '', status = ''] of apiMd.matchAll(
      /^\|\s*(`[A-Z_]+`(?:\s*\/\s*`[A-Z_]+`)*)\s*\|\s*(\d{3})\s*\|/gm,
    )) {
      for (const [, code = ''] of codes.matchAll(/`([A-Z_]+)`/g)) documented.set(code, Number(status));
    }
    assert.deepEqual(
      Object.fromEntries([...documented].sort()),
      Object.fromEntries(Object.entries(errorCodes).sort()),
    );
  });

  test('every documented JSON answer is what the route sends, with no undocumented field and no secret', async () => {
    const auth = { authorization: `Bearer ${testSecrets.adminToken}` };
    /** One webhook endpoint made through the API (its creation is itself a checked answer). */
    const endpointCreated = () =>
      stack.api('/api/admin/webhook-endpoints', {
        method: 'POST',
        headers: auth,
        json: { url: 'http://127.0.0.1:9/contract', events: ['order.paid'] },
      });
    let made: Promise<string> | undefined;
    const endpointId = () =>
      (made ??= endpointCreated()
        .then((r) => r.json() as Promise<{ endpoint: { id: string } }>)
        .then((body) => body.endpoint.id));
    const secret = testSecrets.checkoutTokenSecret;
    const created = await createOrder(stack);
    // An underpaid order, for the merchant's actions (ask for the rest, then accept).
    const short = await createOrder(stack);
    await stack.control('POST', `/orders/${upstreamIdOf(short)}/pay`, { kind: 'underpaid' });
    await waitFor(
      async () => assert.equal((await getStatus(stack, short)).status, 'underpaid'),
      'the order to be underpaid',
    );
    const key = newKey();
    // Refunds: of an order overpaid in the sandbox (the ledger told by its webhook).
    const adminPost = (path: string, body: unknown, key = newKey()) =>
      stack.api(path, { method: 'POST', headers: { ...auth, 'idempotency-key': key }, json: body });
    let overpaid: Promise<string> | undefined;
    const overpaidOrderId = () =>
      (overpaid ??= (async () => {
        const order = await createOrder(stack);
        await stack.control('POST', `/orders/${upstreamIdOf(order)}/pay`, { kind: 'overpaid' });
        await waitFor(async () => {
          const view = await stack.api(`/api/orders/${order.orderId}`, {
            headers: { 'x-status-token': order.statusToken },
          });
          if (((await view.json()) as { status: string }).status !== 'overpaid') throw new Error('not yet');
        }, 'the order overpaid');
        return order.orderId;
      })());
    const refundKey = newKey();
    const requestRefund = async () =>
      adminPost(`/api/admin/orders/${await overpaidOrderId()}/refunds`, { of: 'excess' }, refundKey);
    const firstRefundId = async () => {
      const listed = await stack.api(`/api/admin/refunds?orderId=${await overpaidOrderId()}`, {
        headers: auth,
      });
      return ((await listed.json()) as { refunds: Array<{ id: string }> }).refunds[0]?.id ?? '';
    };
    const sentRefund = async () => {
      const made = await adminPost(`/api/admin/orders/${await overpaidOrderId()}/refunds`, {
        of: 'order',
        amount: '0.000001',
      });
      const refund = (await made.json()) as { id: string; claimUrl: string };
      await stack.api(new URL(refund.claimUrl).pathname, {
        method: 'POST',
        json: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      });
      return adminPost(`/api/admin/refunds/${refund.id}/sent`, { txHash: `0x${'ab'.repeat(32)}` });
    };
    const claimRefund = async () => {
      const made = await adminPost(`/api/admin/orders/${await overpaidOrderId()}/refunds`, {
        of: 'order',
        amount: '0.000001',
      });
      const refund = (await made.json()) as { claimUrl: string };
      return stack.api(new URL(refund.claimUrl).pathname, {
        method: 'POST',
        json: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      });
    };
    const calls: Array<[method: string, path: string, status: number, send: () => Promise<Response>]> = [
      ['get', '/api/products', 200, () => stack.api('/api/products')],
      ['get', '/api/products/{id}', 200, () => stack.api('/api/products/hoodie')],
      ['get', '/api/catalog', 200, () => stack.api('/api/catalog?country=DE')],
      [
        'post',
        '/api/quotes/buy',
        200,
        () =>
          stack.api('/api/quotes/buy', {
            method: 'POST',
            json: {
              paymentMethod: 'creditcard',
              country: 'DE',
              fiat: 'EUR',
              crypto: 'ETH',
              fiatAmount: '40',
            },
          }),
      ],
      [
        'post',
        '/api/quotes/sell',
        200,
        () =>
          stack.api('/api/quotes/sell', {
            method: 'POST',
            json: {
              payoutMethod: 'bank-transfer',
              country: 'DE',
              fiat: 'EUR',
              crypto: 'ETH',
              cryptoAmount: '0.02',
            },
          }),
      ],
      [
        'post',
        '/api/ramp-sessions',
        200,
        () =>
          stack.api('/api/ramp-sessions', {
            method: 'POST',
            json: { side: 'sell', fiat: 'EUR', crypto: 'ETH', fiatAmount: '50' },
          }),
      ],
      [
        'post',
        '/api/checkout-tokens/verify',
        200,
        () =>
          stack.api('/api/checkout-tokens/verify', {
            method: 'POST',
            json: {
              token: createCheckoutToken(
                { name: 'Gift', price: '25', currency: 'EUR', reference: 'c-1' },
                secret,
              ),
            },
          }),
      ],
      ['post', '/api/orders', 201, () => postOrder(stack, { product: 'hoodie' }, key)],
      ['post', '/api/orders', 200, () => postOrder(stack, { product: 'hoodie' }, key)],
      [
        'get',
        '/api/orders/{id}',
        200,
        () =>
          stack.api(`/api/orders/${created.orderId}`, { headers: { 'x-status-token': created.statusToken } }),
      ],
      [
        'post',
        '/api/deposit-addresses',
        200,
        () =>
          stack.api('/api/deposit-addresses', {
            method: 'POST',
            json: { customerToken: createCustomerToken({ customerId: 'contract-1' }, secret), chain: 'base' },
          }),
      ],
      [
        'post',
        '/api/webhooks/payments',
        200,
        () =>
          postWebhook(stack, 'payments', {
            orderId: upstreamIdOf(created),
            externalId: created.orderId,
            orderStatus: 'AWAITING_PAYMENT',
          }),
      ],
      [
        'post',
        '/api/webhooks/ramp',
        200,
        () => postWebhook(stack, 'ramp', { order_id: 'contract-ramp-1', order_status: 'payment_pending' }),
      ],
      ['get', '/api/admin/orders', 200, () => stack.api('/api/admin/orders?limit=5', { headers: auth })],
      [
        'get',
        '/api/admin/orders/{id}',
        200,
        () => stack.api(`/api/admin/orders/${created.orderId}`, { headers: auth }),
      ],
      [
        'get',
        '/api/admin/upstream-orders',
        200,
        () => stack.api('/api/admin/upstream-orders?limit=5', { headers: auth }),
      ],
      [
        'get',
        '/api/admin/webhook-endpoints',
        200,
        () => stack.api('/api/admin/webhook-endpoints', { headers: auth }),
      ],
      ['post', '/api/admin/webhook-endpoints', 201, () => endpointCreated()],
      [
        'patch',
        '/api/admin/webhook-endpoints/{id}',
        200,
        async () =>
          stack.api(`/api/admin/webhook-endpoints/${await endpointId()}`, {
            method: 'PATCH',
            headers: auth,
            json: { description: 'contract' },
          }),
      ],
      [
        'post',
        '/api/admin/webhook-endpoints/{id}/rotate-secret',
        200,
        async () =>
          stack.api(`/api/admin/webhook-endpoints/${await endpointId()}/rotate-secret`, {
            method: 'POST',
            headers: auth,
          }),
      ],
      [
        'post',
        '/api/admin/webhook-endpoints/{id}/test',
        202,
        async () =>
          stack.api(`/api/admin/webhook-endpoints/${await endpointId()}/test`, {
            method: 'POST',
            headers: auth,
          }),
      ],
      [
        'post',
        '/api/admin/webhook-endpoints/{id}/replay',
        202,
        async () =>
          stack.api(`/api/admin/webhook-endpoints/${await endpointId()}/replay`, {
            method: 'POST',
            headers: auth,
            json: { from: '2026-01-01', to: new Date(Date.now() + 60_000).toISOString() },
          }),
      ],
      [
        'get',
        '/api/admin/webhook-endpoints/{id}/deliveries',
        200,
        async () =>
          stack.api(`/api/admin/webhook-endpoints/${await endpointId()}/deliveries`, { headers: auth }),
      ],
      [
        'get',
        '/api/admin/upstream-drift',
        200,
        () => stack.api('/api/admin/upstream-drift', { headers: auth }),
      ],
      ['get', '/api/admin/quote-engine', 200, () => stack.api('/api/admin/quote-engine', { headers: auth })],
      [
        'get',
        '/api/admin/upstream-budget',
        200,
        () => stack.api('/api/admin/upstream-budget', { headers: auth }),
      ],
      [
        'get',
        '/api/admin/events',
        200,
        () => stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: auth }),
      ],
      [
        'post',
        '/api/admin/events/{id}/resend',
        200,
        async () => {
          const listed = await stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: auth });
          const { events } = (await listed.json()) as { events: Array<{ id: string }> };
          return stack.api(`/api/admin/events/${events[0]?.id}/resend`, { method: 'POST', headers: auth });
        },
      ],
      [
        'post',
        '/api/admin/events/resend',
        200,
        () => stack.api('/api/admin/events/resend', { method: 'POST', headers: auth, json: { all: true } }),
      ],
      [
        'post',
        '/api/admin/payment-links',
        201,
        () =>
          stack.api('/api/admin/payment-links', {
            method: 'POST',
            headers: auth,
            json: { name: 'Consulting', note: 'internal', currency: 'EUR', amount: '120.00' },
          }),
      ],
      [
        'post',
        '/api/admin/orders/{id}/request-rest',
        200,
        () => stack.api(`/api/admin/orders/${short.orderId}/request-rest`, { method: 'POST', headers: auth }),
      ],
      [
        'post',
        '/api/admin/orders/{id}/accept',
        200,
        () => stack.api(`/api/admin/orders/${short.orderId}/accept`, { method: 'POST', headers: auth }),
      ],
      ['get', '/api/admin/credential', 200, () => stack.api('/api/admin/credential', { headers: auth })],
      // After the payment link above: its entry is in the log.
      ['get', '/api/admin/audit', 200, () => stack.api('/api/admin/audit?limit=5', { headers: auth })],
      [
        'delete',
        '/api/admin/lockouts/{address}',
        200,
        () => stack.api('/api/admin/lockouts/192.0.2.7', { method: 'DELETE', headers: auth }),
      ],
      ['post', '/api/admin/orders/{id}/refunds', 201, () => requestRefund()],
      ['post', '/api/admin/orders/{id}/refunds', 200, () => requestRefund()],
      ['get', '/api/admin/refunds', 200, () => stack.api('/api/admin/refunds', { headers: auth })],
      [
        'post',
        '/api/admin/refunds/{id}/cancel',
        200,
        async () => adminPost(`/api/admin/refunds/${await firstRefundId()}/cancel`, {}),
      ],
      ['post', '/api/admin/refunds/{id}/sent', 200, () => sentRefund()],
      ['post', '/refunds/{token}', 200, () => claimRefund()],
      ['get', '/healthz', 200, () => stack.api('/healthz')],
      ['get', '/readyz', 200, () => stack.api('/readyz')],
    ];
    const secrets = [
      stack.config.ramp.secretKey,
      stack.config.payments.apiKey,
      stack.config.payments.webhookSecret,
      stack.config.checkoutTokenSecret,
      testSecrets.adminToken,
    ];
    const checked = new Set<string>();
    const routes = documentedRoutes(createApp(stack.deps));
    /** The zod schema a route documents for a JSON answer (a plain JSON Schema means not one of ours). */
    const jsonSchemaOf = (route: (typeof routes)[number], status: string) => {
      const schema = route.responses[status]?.content?.['application/json']?.schema;
      return schema instanceof z.ZodType ? schema : undefined;
    };
    for (const [method, path, status, send] of calls) {
      const doc = routes.find((route) => route.method === method && route.path === path);
      const schema = doc && jsonSchemaOf(doc, String(status));
      assert.ok(schema, `${method} ${path} documents a JSON schema for ${status}`);
      const response = await send();
      const text = await response.text();
      assert.equal(response.status, status, `${method} ${path}: ${text}`);
      const body = JSON.parse(text) as unknown;
      const parsed = schema.safeParse(body);
      assert.ok(parsed.success, `${method} ${path} ${status} matches its schema: ${parsed.error?.message}`);
      if (schema instanceof z.ZodObject && body && typeof body === 'object') {
        const extra = Object.keys(body).filter((name) => !(name in schema.shape));
        assert.deepEqual(extra, [], `${method} ${path} sends fields its schema does not document`);
      }
      const everything = `${[...response.headers.entries()].join('\n')}\n${text}`;
      for (const value of secrets) assert.ok(!everything.includes(value), `${method} ${path} leaks a secret`);
      checked.add(`${method} ${path} ${status}`);
    }
    // Every JSON answer the reference documents was checked here (a new one needs a call above).
    const documentedJson = routes.flatMap((route) =>
      Object.keys(route.responses)
        .filter((status) => Number(status) < 400 && jsonSchemaOf(route, status))
        .map((status) => `${route.method} ${route.path} ${status}`),
    );
    const unchecked = documentedJson.filter(
      (entry) => !checked.has(entry) && entry !== 'get /api/openapi.json 200',
    );
    assert.deepEqual(unchecked, []);
  });
  // Last: generating the types keeps the event loop busy for seconds, past the server's keep-alive timeout, and
  // a POST sent next on the idle socket it closed meanwhile fails (undici retries no POST).
  test("the widget's generated API types are the running backend's document (else: npm run api-types)", async () => {
    const document = (await (await stack.api('/api/openapi.json')).json()) as unknown;
    const committed = await readFile(generatedFile, 'utf8');
    assert.ok(
      committed === (await apiTypes(document)),
      'packages/widget/src/api/openapi.gen.ts is stale: run `npm run api-types` and commit it',
    );
  });
});
