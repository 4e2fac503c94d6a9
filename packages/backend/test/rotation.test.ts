/**
 * Rotating each secret without downtime, end to end over HTTP, the backend restarted between the steps as an
 * operator restarts it (README "Rotating secrets"): before, during the overlap (old and new both accepted),
 * after (the old one refused).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { createCheckoutToken, createCustomerToken } from '../src/tokens.ts';
import { startCli } from './cli-process.ts';
import { type Created, newKey, sign, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { type RestartableBackend, startRestartable, startUpstream, type Upstream } from './restartable.ts';
import { allowedOrigin, sandboxUpstreamEnv, testSecrets } from './support.ts';

let upstream: Upstream;
before(async () => {
  upstream = await startUpstream();
});
after(() => upstream.close());

const iso = (ms: number) => new Date(ms).toISOString();

describe('CHECKOUT_TOKEN_SECRET', () => {
  const oldSecret = 'old-checkout-token-secret-0123456789';
  const newSecret = 'new-checkout-token-secret-9876543210';
  let backend: RestartableBackend;
  after(() => backend.close());

  const tip = { name: 'Tip', price: '5.00', currency: 'EUR', expiresInSeconds: 3600 };
  /** What `POST /api/checkout-tokens/verify` answers the token. */
  const verify = async (token: string) => {
    const response = await backend.api('/api/checkout-tokens/verify', { method: 'POST', json: { token } });
    return response.status === 200 ? 'accepted' : `${response.status} ${(await response.json()).error.code}`;
  };
  /** An order paid with a checkout token (the price the token carries), as the widget makes one. */
  const order = (token: string) =>
    backend.api('/api/orders', {
      method: 'POST',
      headers: { origin: allowedOrigin, 'idempotency-key': newKey() },
      json: { checkoutToken: token, returnUrl: `${allowedOrigin}/thanks` },
    });
  /** A customer token's deposit address (the other kind of token the secret signs). */
  const deposit = async (token: string) =>
    (
      await backend.api('/api/deposit-addresses', {
        method: 'POST',
        headers: { origin: allowedOrigin },
        json: { customerToken: token, chain: 'base' },
      })
    ).status;

  test('tokens signed with the old secret keep working through the overlap and stop after it', async () => {
    backend = await startRestartable(upstream, { CHECKOUT_TOKEN_SECRET: oldSecret });
    const before = createCheckoutToken(tip, oldSecret);
    const customerBefore = createCustomerToken({ customerId: 'cus_rotation' }, oldSecret);
    assert.equal(await verify(before), 'accepted');
    assert.equal(await deposit(customerBefore), 200);

    // Step 1: the new secret signs (the merchant's server mints with it); the old one is still accepted.
    await backend.restart({ CHECKOUT_TOKEN_SECRET: newSecret, CHECKOUT_TOKEN_SECRET_PREVIOUS: oldSecret });
    const during = createCheckoutToken(tip, newSecret);
    assert.equal(await verify(before), 'accepted', 'a token minted before the rotation, still in a cart');
    assert.equal(await verify(during), 'accepted');
    assert.equal((await order(before)).status, 201, 'an order from the old token');
    assert.equal((await order(during)).status, 201);
    assert.equal(await deposit(customerBefore), 200, 'a customer token minted before the rotation');

    // An end set in advance closes the overlap by itself, restart or not.
    await backend.restart({
      CHECKOUT_TOKEN_SECRET: newSecret,
      CHECKOUT_TOKEN_SECRET_PREVIOUS: oldSecret,
      CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL: iso(Date.now() - 1000),
    });
    assert.equal(await verify(before), '401 TOKEN_INVALID', 'past CHECKOUT_TOKEN_SECRET_PREVIOUS_UNTIL');
    assert.equal(await verify(during), 'accepted');

    // Step 2: the old secret removed.
    await backend.restart({ CHECKOUT_TOKEN_SECRET: newSecret });
    assert.equal(await verify(before), '401 TOKEN_INVALID');
    assert.equal((await order(before)).status, 401);
    assert.equal(await deposit(customerBefore), 401);
    assert.equal(await verify(during), 'accepted');
  });

  test('a token minted before tokens carried a key id verifies with any listed secret', async () => {
    // The format before the key id: the same payload and HMAC, without `kid`.
    const { createHmac } = await import('node:crypto');
    const now = Math.floor(Date.now() / 1000);
    const body = Buffer.from(
      JSON.stringify({
        typ: 'checkout',
        name: 'Tip',
        price: '5.00',
        currency: 'EUR',
        iat: now,
        exp: now + 600,
      }),
    ).toString('base64url');
    const legacy = `${body}.${createHmac('sha256', oldSecret).update(body).digest('base64url')}`;
    await backend.restart({ CHECKOUT_TOKEN_SECRET: newSecret, CHECKOUT_TOKEN_SECRET_PREVIOUS: oldSecret });
    assert.equal(await verify(legacy), 'accepted');
    await backend.restart({ CHECKOUT_TOKEN_SECRET: newSecret });
    assert.equal(await verify(legacy), '401 TOKEN_INVALID');
  });
});

/** A merchant's receiver verifying with the Standard Webhooks library on one secret, as their code would. */
async function startReceiver(secret: string) {
  const verifier = new Webhook(secret);
  const accepted: Array<{ id: string; signatures: number }> = [];
  const refused: string[] = [];
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    const id = String(request.headers['webhook-id']);
    try {
      verifier.verify(body, request.headers as Record<string, string>);
      const signatures = String(request.headers['webhook-signature']).split(' ').length;
      accepted.push({ id, signatures });
      response.writeHead(204).end();
    } catch {
      refused.push(id);
      response.writeHead(401).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    accepted,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('MERCHANT_WEBHOOK_SECRET', () => {
  const oldSecret = 'whsec_T2xkT2xkT2xkT2xkT2xkT2xkT2xkT2xkT2xk';
  const newSecret = 'whsec_TmV3TmV3TmV3TmV3TmV3TmV3TmV3TmV3TmV3';

  test('events are signed with both secrets during the overlap, so receivers on either verify; the old one stops after', async () => {
    // Two receivers of the same events: one still on the old secret, one already on the new one.
    const onOld = await startReceiver(oldSecret);
    const onNew = await startReceiver(newSecret);
    const urls = `${onOld.url},${onNew.url}`;
    const backend = await startRestartable(upstream, {
      MERCHANT_WEBHOOK_URL: urls,
      MERCHANT_WEBHOOK_SECRET: oldSecret,
    });
    try {
      /** Makes an order and returns its order.created event id once `receiver` has it or refused it. */
      const anEvent = async () => {
        const response = await backend.api('/api/orders', {
          method: 'POST',
          headers: { origin: allowedOrigin, 'idempotency-key': newKey() },
          json: { product: 'hoodie', returnUrl: `${allowedOrigin}/thanks` },
        });
        const created = (await response.json()) as Created;
        const events = await backend.api(`/api/admin/events?orderId=${created.orderId}`, {
          headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
        });
        const [event] = ((await events.json()) as { events: Array<{ id: string }> }).events;
        assert.ok(event, 'order.created is in the outbox');
        return event.id;
      };
      const heard = (receiver: typeof onOld, id: string) =>
        waitFor(
          async () =>
            receiver.accepted.find((entry) => entry.id === id)
              ? 'accepted'
              : receiver.refused.includes(id)
                ? 'refused'
                : undefined,
          `${id} at ${receiver.url}`,
          20_000,
        );

      const first = await anEvent();
      assert.equal(await heard(onOld, first), 'accepted');
      assert.equal(await heard(onNew, first), 'refused', 'the new secret is not in use yet');

      // Step 1: the new secret is current, the old one still signs too.
      await backend.restart({
        MERCHANT_WEBHOOK_URL: urls,
        MERCHANT_WEBHOOK_SECRET: newSecret,
        MERCHANT_WEBHOOK_SECRET_PREVIOUS: oldSecret,
      });
      const during = await anEvent();
      assert.equal(await heard(onOld, during), 'accepted', 'a receiver not yet switched');
      assert.equal(await heard(onNew, during), 'accepted', 'a receiver already switched');
      assert.equal(onNew.accepted.find((entry) => entry.id === during)?.signatures, 2);

      // Step 2: every receiver is on the new secret; the old one is removed.
      await backend.restart({ MERCHANT_WEBHOOK_URL: urls, MERCHANT_WEBHOOK_SECRET: newSecret });
      const afterwards = await anEvent();
      assert.equal(await heard(onNew, afterwards), 'accepted');
      assert.equal(onNew.accepted.find((entry) => entry.id === afterwards)?.signatures, 1);
      assert.equal(await heard(onOld, afterwards), 'refused', 'the old secret signs no more');
    } finally {
      await backend.close();
      await onOld.close();
      await onNew.close();
    }
  });
});

describe('PAY_WEBHOOK_SECRET and RAMP_SECRET_KEY (webhooks from the upstream)', () => {
  test('payments webhooks verify with the old or the new secret during the overlap, the new one only after', async () => {
    const oldSecret = 'whsec_pay_old_0123456789';
    const newSecret = 'whsec_pay_new_9876543210';
    const backend = await startRestartable(upstream, { PAY_WEBHOOK_SECRET: oldSecret });
    try {
      const created = (await (
        await backend.api('/api/orders', {
          method: 'POST',
          headers: { origin: allowedOrigin, 'idempotency-key': newKey() },
          json: { product: 'hoodie', returnUrl: `${allowedOrigin}/thanks` },
        })
      ).json()) as Created;
      let n = 0;
      /** A payments webhook about the order, signed with `secret`: its HTTP status and answer. */
      const post = async (secret: string, orderStatus: string) => {
        n += 1;
        const body = JSON.stringify({
          eventId: `evt-rotation-${n}`,
          orderId: upstreamIdOf(created),
          externalId: created.orderId,
          orderStatus,
        });
        const response = await backend.api('/api/webhooks/payments', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-swapped-signature': sign(secret, body) },
          body,
        });
        return response.status;
      };
      const status = async () =>
        (
          (await (
            await backend.api(`/api/orders/${created.orderId}`, {
              headers: { 'x-status-token': created.statusToken },
            })
          ).json()) as { status: string }
        ).status;

      assert.equal(await post(oldSecret, 'PAYMENT_DETECTED'), 200);
      await backend.restart({ PAY_WEBHOOK_SECRET: newSecret, PAY_WEBHOOK_SECRET_PREVIOUS: oldSecret });
      // The upstream's dashboard still signs with the old secret until its side changes, then with the new.
      assert.equal(await post(oldSecret, 'PAYMENT_CONFIRMED_UNDERPAID'), 200);
      assert.equal(await status(), 'underpaid', 'applied, not just answered');
      assert.equal(await post(newSecret, 'PAYMENT_CONFIRMED_ACCURATE'), 200);
      assert.equal(await status(), 'paid');
      await backend.restart({ PAY_WEBHOOK_SECRET: newSecret });
      assert.equal(await post(oldSecret, 'PAYMENT_CONFIRMED_ACCURATE'), 401);
      assert.equal(await post(newSecret, 'PAYMENT_CONFIRMED_ACCURATE'), 200);
    } finally {
      await backend.close();
    }
  });

  test('a new ramp key pair by a rolling restart: callbacks signed with the old secret still verify during the overlap, widget URLs use the new pair', async () => {
    const backend = await startRestartable(upstream, {});
    try {
      let n = 0;
      const callback = async (secret: string) => {
        n += 1;
        const body = JSON.stringify({ order_id: `ramp-rotation-${n}`, order_status: 'completed' });
        const response = await backend.api('/api/webhooks/ramp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', signature: sign(secret, body) },
          body,
        });
        return response.status;
      };
      const widgetUrl = async () => {
        const response = await backend.api('/api/ramp-sessions', {
          method: 'POST',
          json: {
            side: 'buy',
            method: 'creditcard',
            country: 'DE',
            fiat: 'EUR',
            crypto: 'USDC_BASE',
            fiatAmount: '50',
            walletAddress: '0x000000000000000000000000000000000000dEaD',
            returnUrl: `${allowedOrigin}/thanks`,
          },
        });
        assert.equal(response.status, 200);
        return new URL(((await response.json()) as { url: string }).url);
      };
      const oldSecret = backend.config.ramp.secretKey;
      assert.equal(await callback(oldSecret), 200);

      // The dashboard issued a new pair (the sandbox: another merchant id); the old secret stays for callbacks.
      await backend.restart({
        RAMP_PUBLIC_KEY: 'pk_sandbox_rotated',
        RAMP_SECRET_KEY: 'sk_sandbox_rotated',
        RAMP_SECRET_KEY_PREVIOUS: oldSecret,
      });
      assert.equal(await callback(oldSecret), 200, 'an order opened before the restart calls back');
      assert.equal(await callback('sk_sandbox_rotated'), 200);
      const url = await widgetUrl();
      assert.equal(url.searchParams.get('apiKey'), 'pk_sandbox_rotated');
      assert.equal((await fetch(url)).status, 200, 'the upstream accepts the URL signed with the new secret');

      await backend.restart({ RAMP_PUBLIC_KEY: 'pk_sandbox_rotated', RAMP_SECRET_KEY: 'sk_sandbox_rotated' });
      assert.equal(await callback(oldSecret), 401);
      assert.equal(await callback('sk_sandbox_rotated'), 200);
    } finally {
      await backend.close();
    }
  });
});

describe('finishing a rotation: what still uses an old value', () => {
  test('each acceptance by a previous value is counted in /metrics by secret and key id and logged once, never with the value', async () => {
    const keyIdOf = (value: string) => tokenSha256(value).slice(0, 8);
    const checkout = {
      old: 'old-checkout-token-secret-0123456789',
      new: 'new-checkout-token-secret-9876543210',
    };
    const pay = { old: 'whsec_pay_old_0123456789', new: 'whsec_pay_new_9876543210' };
    const rampOld = 'sk_sandbox_old-merchant';
    const ops = {
      old: `cca_${randomBytes(32).toString('hex')}`,
      new: `cca_${randomBytes(32).toString('hex')}`,
    };
    const metricsToken = randomBytes(24).toString('hex');
    const backend = await startCli({
      ...sandboxUpstreamEnv(upstream.url),
      CHECKOUT_TOKEN_SECRET: checkout.new,
      CHECKOUT_TOKEN_SECRET_PREVIOUS: checkout.old,
      PAY_WEBHOOK_SECRET: pay.new,
      PAY_WEBHOOK_SECRET_PREVIOUS: pay.old,
      RAMP_SECRET_KEY_PREVIOUS: rampOld,
      // The same name twice while its token is rotated.
      ADMIN_CREDENTIALS: `ops:write:${tokenSha256(ops.old)},ops:write:${tokenSha256(ops.new)}`,
      ALLOWED_ORIGINS: allowedOrigin,
      METRICS: 'on',
      METRICS_TOKEN: metricsToken,
    });
    try {
      const api = (apiPath: string, init: RequestInit = {}) => fetch(`${backend.url}${apiPath}`, init);
      const verify = async (secret: string) => {
        const token = createCheckoutToken(
          { name: 'Tip', price: '5.00', currency: 'EUR', expiresInSeconds: 600 },
          secret,
        );
        const response = await api('/api/checkout-tokens/verify', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        });
        assert.equal(response.status, 200);
      };
      let n = 0;
      const webhook = async (route: 'payments' | 'ramp', header: string, secret: string) => {
        n += 1;
        const body = JSON.stringify({
          eventId: `evt-finish-${n}`,
          order_id: `finish-${n}`,
          orderId: `finish-${n}`,
        });
        const response = await api(`/api/webhooks/${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [header]: sign(secret, body) },
          body,
        });
        assert.equal(response.status, 200, `${route} signed with a listed secret`);
      };
      const whoAmI = async (token: string) =>
        (await (
          await api('/api/admin/credential', { headers: { authorization: `Bearer ${token}` } })
        ).json()) as {
          name: string;
          keyId: string;
        };

      await verify(checkout.old);
      await verify(checkout.old);
      await verify(checkout.new);
      await webhook('payments', 'x-swapped-signature', pay.old);
      await webhook('payments', 'x-swapped-signature', pay.new);
      await webhook('ramp', 'signature', rampOld);
      await webhook('ramp', 'signature', testSecrets.rampSecretKey);
      assert.deepEqual(await whoAmI(ops.old), { name: 'ops', scope: 'write', keyId: keyIdOf(ops.old) });
      assert.equal((await whoAmI(ops.new)).keyId, keyIdOf(ops.new));
      assert.equal((await whoAmI(ops.new)).keyId, keyIdOf(ops.new));

      const scrape = await (
        await api('/metrics', { headers: { authorization: `Bearer ${metricsToken}` } })
      ).text();
      const counted = new Map(
        [
          ...scrape.matchAll(
            /^checkout_previous_secret_accepted_total\{secret="([^"]+)",key_id="([^"]+)"\} (\d+)$/gm,
          ),
        ].map((match) => [`${match[1]} ${match[2]}`, Number(match[3])]),
      );
      assert.deepEqual(
        Object.fromEntries(counted),
        {
          [`CHECKOUT_TOKEN_SECRET_PREVIOUS ${keyIdOf(checkout.old)}`]: 2,
          [`PAY_WEBHOOK_SECRET_PREVIOUS ${keyIdOf(pay.old)}`]: 1,
          [`RAMP_SECRET_KEY_PREVIOUS ${keyIdOf(rampOld)}`]: 1,
          // Both entries of the name, each by its key id: the operator removes the one whose count stays 0.
          [`ADMIN_CREDENTIALS ${keyIdOf(ops.old)}`]: 1,
          [`ADMIN_CREDENTIALS ${keyIdOf(ops.new)}`]: 2,
        },
        'the new values of the *_PREVIOUS secrets are not counted',
      );

      // The log is written in batches (every 250 ms): wait for the lines, then count them.
      const rotationLinesNow = () =>
        backend
          .lines()
          .map(
            (line) => JSON.parse(line) as { level: string; msg: string; variable?: string; keyId?: string },
          )
          .filter((line) => line.msg?.startsWith('[rotation]'));
      const rotationLines = await waitFor(
        async () => (rotationLinesNow().length >= 7 ? rotationLinesNow() : undefined),
        'the rotation lines in the log',
      ).catch(() => rotationLinesNow());
      assert.equal(rotationLines.length, 7, 'one line per acceptance');
      assert.ok(rotationLines.every((line) => line.level === 'info'));
      assert.deepEqual(
        rotationLines
          .filter((line) => line.variable === 'PAY_WEBHOOK_SECRET_PREVIOUS')
          .map((line) => line.keyId),
        [keyIdOf(pay.old)],
      );
      const everything = backend.lines().join('\n');
      for (const value of [checkout.old, pay.old, rampOld, ops.old, ops.new])
        assert.ok(!everything.includes(value), 'no line holds a secret');
    } finally {
      await backend.stop();
    }
  });
});
