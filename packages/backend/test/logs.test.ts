/**
 * The logs of a real run: the built CLI (live keys, the sandbox as upstream, access log on, LOG_LEVEL=debug) taken
 * through a shopper's and a merchant's whole flow. Every line is one JSON object with time, level, message and
 * instance; request lines carry the request id, route template, status and duration; and no line anywhere holds a
 * key, a token, a signature, a customer's e-mail or a deposit or wallet address.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { createCustomerToken } from '../src/index.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { freePort, waitFor } from './servers.ts';
import { sandboxUpstreamEnv, testSecrets } from './support.ts';

const shop = 'https://shop.example';
const metricsToken = 'metrics-bearer-token-never-logged';
const webhookSecret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
const hookToken = 'receiver-query-token-never-logged';
const email = 'ada.lovelace.private@example.com';
const depositEmail = 'deposit.customer.private@example.com';
const wallet = '0x1234567890abcdef1234567890abcdef12345678';

describe('logs of a whole run', () => {
  let sandboxServer: ServerType;
  let receiver: ServerType | undefined;
  let backend: CliProcess;

  before(async () => {
    let sandbox: ReturnType<typeof createSandbox> | undefined;
    const sandboxPort = await new Promise<number>((resolve) => {
      sandboxServer = serve(
        {
          hostname: '127.0.0.1',
          port: 0,
          fetch: (request) => (sandbox as NonNullable<typeof sandbox>).app.fetch(request),
        },
        (info) => resolve((info as AddressInfo).port),
      );
    });
    // The backend's port is picked once the sandbox holds its own, so the two cannot be given the same one.
    const port = await freePort();
    const backendUrl = `http://127.0.0.1:${port}`;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    sandbox = createSandbox({
      baseUrl: sandboxUrl,
      defaultWebhookUrl: `${backendUrl}/api/webhooks/payments`,
    });
    // The merchant's receiver fails: each failed delivery is logged, with its URL (whose token must not show).
    const receiverPort = await new Promise<number>((resolve) => {
      receiver = serve(
        {
          hostname: '127.0.0.1',
          port: 0,
          fetch: async (request) => {
            await request.text();
            return new Response('down', { status: 503 });
          },
        },
        (info) => resolve((info as AddressInfo).port),
      );
    });
    backend = await startCli({
      PORT: String(port),
      ...sandboxUpstreamEnv(sandboxUrl),
      ALLOWED_ORIGINS: shop,
      ACCESS_LOG: 'on',
      LOG_LEVEL: 'debug',
      METRICS: 'on',
      METRICS_TOKEN: metricsToken,
      MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/hooks?token=${hookToken}`,
      MERCHANT_WEBHOOK_SECRET: webhookSecret,
    });
  });
  after(async () => {
    await backend?.stop();
    receiver?.close();
    await new Promise<void>((resolve) => {
      (sandboxServer as ServerType & { closeAllConnections?: () => void }).closeAllConnections?.();
      sandboxServer?.close(() => resolve());
    });
  });

  test('JSON lines with the request fields, and no secret, e-mail or address in any of them', {
    timeout: 90_000,
  }, async () => {
    const api = (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set('origin', shop);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${backend.url}${path}`, {
        signal: AbortSignal.timeout(15_000),
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    };
    const ok = async (response: Response, status = 200) => {
      const text = await response.text();
      assert.equal(response.status, status, text);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const leaks: string[] = [
      testSecrets.rampPublicKey,
      testSecrets.rampSecretKey,
      testSecrets.payApiKey,
      testSecrets.payWebhookSecret,
      testSecrets.checkoutTokenSecret,
      testSecrets.adminToken,
      webhookSecret,
      metricsToken,
      hookToken,
      email,
      depositEmail,
      wallet,
    ];

    // A shopper: the catalog, a quote, an order with their e-mail, its status (token in the query), payment.
    await ok(await api('/api/catalog?country=DE'));
    await ok(
      await api('/api/quotes/buy', {
        method: 'POST',
        json: {
          paymentMethod: 'creditcard',
          country: 'DE',
          fiat: 'EUR',
          crypto: 'USDC_BASE',
          fiatAmount: '50',
        },
      }),
    );
    const order = await ok(
      await api('/api/orders', {
        method: 'POST',
        headers: { 'idempotency-key': `logs-${randomUUID()}` },
        json: {
          product: 'hoodie',
          customer: { name: 'Ada', email, country: 'DE' },
          returnUrl: `${shop}/thanks`,
        },
      }),
      201,
    );
    const statusToken = order['statusToken'] as string;
    leaks.push(statusToken);
    await ok(
      await api(`/api/orders/${order['orderId']}?token=${statusToken}&email=${encodeURIComponent(email)}`),
    );
    const upstreamId = new URL(order['link'] as string).pathname.split('/').pop();
    const sandboxUrl = new URL(order['link'] as string).origin;
    await ok(
      await fetch(`${sandboxUrl}/control/orders/${upstreamId}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'exact' }),
      }),
    );
    await waitFor(async () => {
      const status = await ok(
        await api(`/api/orders/${order['orderId']}`, { headers: { 'x-status-token': statusToken } }),
      );
      assert.equal(status['status'], 'paid');
    }, 'the order paid');
    // A wallet's ramp session (a signed URL) and a customer's deposit address (their e-mail in the token).
    const session = await ok(
      await api('/api/ramp-sessions', {
        method: 'POST',
        json: {
          side: 'buy',
          method: 'creditcard',
          country: 'DE',
          fiat: 'EUR',
          crypto: 'USDC_BASE',
          fiatAmount: '50',
          walletAddress: wallet,
        },
      }),
    );
    const signature = new URL(session['url'] as string).searchParams.get('signature');
    assert.ok(signature, 'a signed ramp URL');
    leaks.push(signature);
    const customerToken = createCustomerToken(
      { customerId: 'cus_logs', email: depositEmail, name: 'Grace', expiresInSeconds: 600 },
      testSecrets.checkoutTokenSecret,
    );
    leaks.push(customerToken);
    const deposit = await ok(
      await api('/api/deposit-addresses', { method: 'POST', json: { customerToken, chain: 'base' } }),
    );
    leaks.push(deposit['address'] as string);
    // The merchant: the admin list (and a wrong token), metrics; a forged webhook.
    await ok(
      await api('/api/admin/orders', { headers: { authorization: `Bearer ${testSecrets.adminToken}` } }),
    );
    assert.equal(
      (await api('/api/admin/orders', { headers: { authorization: 'Bearer wrong-admin-token-x' } })).status,
      401,
    );
    assert.equal(
      (await fetch(`${backend.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }))
        .status,
      200,
    );
    const forged = JSON.stringify({ eventType: 'ORDER_COMPLETED', orderId: upstreamId });
    assert.equal(
      (
        await fetch(`${backend.url}/api/webhooks/payments`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-swapped-signature': createHmac('sha256', 'not-the-secret').update(forged).digest('base64'),
          },
          body: forged,
        })
      ).status,
      401,
    );
    // The order's first event fails to reach the merchant's receiver, and says so (its later events wait behind
    // it, retried in order, so order.created is the one whose failures are logged).
    await waitFor(async () => {
      // With a message: a bare assert.ok re-reads this file to describe itself, at each failed probe.
      assert.ok(
        backend.lines().some((line) => line.includes('"eventType":"order.created"')),
        'no failed delivery of order.created logged yet',
      );
    }, 'a failed delivery logged');
    await backend.stop();

    const lines = backend.lines();
    const parsed = lines.map((line) => {
      assert.match(line, /^\{.*\}$/, 'a JSON object per line');
      return JSON.parse(line) as Record<string, unknown>;
    });
    for (const line of parsed) {
      assert.match(String(line['time']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(['debug', 'info', 'warn', 'error'].includes(String(line['level'])), JSON.stringify(line));
      assert.equal(typeof line['msg'], 'string');
      assert.equal(line['instance'], `${(await import('node:os')).hostname()}:${backend.port}`);
    }
    const requests = parsed.filter((line) => line['route'] !== undefined);
    assert.ok(requests.length >= 12, `${requests.length} request lines`);
    for (const line of requests) {
      assert.match(String(line['requestId']), /^[0-9a-f-]{36}$/);
      assert.equal(typeof line['status'], 'number');
      assert.equal(typeof line['durationMs'], 'number');
    }
    assert.ok(
      requests.some((line) => line['route'] === '/api/orders/:id' && line['status'] === 200),
      'the order read, by its route template',
    );
    assert.ok(
      requests.some((line) => line['route'] === '/api/webhooks/payments' && line['status'] === 401),
      'the forged webhook',
    );
    const delivery = parsed.find((line) => line['eventType'] === 'order.created');
    assert.match(String(delivery?.['target']), /\/hooks\?token=\*\*\*$/);
    // Nothing that unlocks something or names someone, in any line.
    const everything = lines.join('\n');
    for (const secret of leaks) {
      assert.ok(secret && secret.length >= 8, `a leak to look for: ${secret}`);
      assert.ok(!everything.includes(secret), `a log line holds ${secret.slice(0, 12)}…`);
    }
  });
});
