/**
 * Scoped admin access: named credentials (ADMIN_CREDENTIALS, hashes only), read or write, on every admin route;
 * the older ADMIN_TOKEN as the write credential "admin"; every write in the audit log; wrong credentials
 * counted per client address and refused past the limit, a right credential never; a count lifted by the route.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { createApp } from '../src/app.ts';
import { documentedRoutes } from '../src/openapi.ts';
import { createOrder, getStatus, newKey, productsFile, upstreamIdOf } from './order-fixtures.ts';
import { waitFor } from './servers.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

const tokens = {
  support: `cca_${randomBytes(32).toString('hex')}`,
  ops: `cca_${randomBytes(32).toString('hex')}`,
};
const credentialsEnv = `support:read:${tokenSha256(tokens.support)},ops:write:${tokenSha256(tokens.ops)}`;

interface AuditEntry {
  id: string;
  createdAt: string;
  credential: string;
  keyId: string | null;
  scope: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
  clientIp: string;
  requestId: string;
  status: number | null;
  finishedAt: string | null;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('each scope on each admin route', () => {
  let stack: Stack;
  let eventId: string;
  let endpointId: string;
  let orderId: string;
  let doomedId: string;
  let sentId: string;
  let cancelId: string;
  let underpaidId: string;
  before(async () => {
    stack = await startStack({
      env: {
        PRODUCTS_FILE: productsFile,
        ADMIN_CREDENTIALS: credentialsEnv,
        // The wrong credentials below are deliberate; the limit has its own test.
        ADMIN_AUTH_MAX_FAILURES: '1000',
        // Events wait in the outbox for a receiver (no worker runs here): something to re-send.
        MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:9/hooks',
        MERCHANT_WEBHOOK_SECRET: 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue',
      },
    });
    const created = await createOrder(stack);
    orderId = created.orderId;
    // An underpaid order for the merchant's actions (ask for the rest, then accept as paid).
    const short = await createOrder(stack);
    underpaidId = short.orderId;
    await stack.control('POST', `/orders/${upstreamIdOf(short)}/pay`, { kind: 'underpaid' });
    await waitFor(
      async () => assert.equal((await getStatus(stack, short)).status, 'underpaid'),
      'the order to be underpaid',
    );
    const events = await json<{ events: Array<{ id: string }> }>(
      await stack.api(`/api/admin/events?orderId=${created.orderId}`, { headers: bearer(tokens.ops) }),
    );
    eventId = events.events[0]?.id ?? '';
    assert.ok(eventId);
    const endpoint = (url: string) =>
      stack
        .api('/api/admin/webhook-endpoints', {
          method: 'POST',
          headers: bearer(tokens.ops),
          json: { url, events: ['*'] },
        })
        .then((r) => json<{ endpoint: { id: string } }>(r))
        .then((made) => made.endpoint.id);
    endpointId = await endpoint('http://127.0.0.1:9/kept');
    doomedId = await endpoint('http://127.0.0.1:9/deleted');
    // Refunds need something paid: the order overpaid in the sandbox, two refunds (one with its address given).
    await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'overpaid' });
    await waitFor(async () => {
      assert.equal((await getStatus(stack, created)).status, 'overpaid');
    }, 'the order overpaid');
    const refund = () =>
      stack
        .api(`/api/admin/orders/${orderId}/refunds`, {
          method: 'POST',
          headers: { ...bearer(tokens.ops), 'idempotency-key': newKey() },
          json: { of: 'excess', amount: '0.000001' },
        })
        .then((r) => json<{ id: string; claimUrl: string }>(r));
    const toSend = await refund();
    await stack.api(new URL(toSend.claimUrl).pathname, {
      method: 'POST',
      json: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
    });
    sentId = toSend.id;
    cancelId = (await refund()).id;
  });
  const streams = new AbortController();
  after(() => {
    streams.abort();
    return stack.close();
  });

  /** One well-formed request per admin route, keyed `METHOD /path` as the OpenAPI document lists them. */
  const requests: Record<string, () => { path: string; init?: RequestInit & { json?: unknown } }> = {
    'GET /api/admin/orders': () => ({ path: '/api/admin/orders?limit=5' }),
    'GET /api/admin/orders/{id}': () => ({ path: `/api/admin/orders/${orderId}` }),
    'GET /api/admin/upstream-orders': () => ({ path: '/api/admin/upstream-orders?limit=5' }),
    'POST /api/admin/orders/{id}/request-rest': () => ({
      path: `/api/admin/orders/${underpaidId}/request-rest`,
      init: { method: 'POST' },
    }),
    'POST /api/admin/orders/{id}/accept': () => ({
      path: `/api/admin/orders/${underpaidId}/accept`,
      init: { method: 'POST' },
    }),
    'GET /api/admin/webhook-endpoints': () => ({ path: '/api/admin/webhook-endpoints' }),
    'POST /api/admin/webhook-endpoints': () => ({
      path: '/api/admin/webhook-endpoints',
      init: { method: 'POST', json: { url: 'http://127.0.0.1:9/new', events: ['order.paid'] } },
    }),
    'PATCH /api/admin/webhook-endpoints/{id}': () => ({
      path: `/api/admin/webhook-endpoints/${endpointId}`,
      init: { method: 'PATCH', json: { enabled: false } },
    }),
    'DELETE /api/admin/webhook-endpoints/{id}': () => ({
      path: `/api/admin/webhook-endpoints/${doomedId}`,
      init: { method: 'DELETE' },
    }),
    'POST /api/admin/webhook-endpoints/{id}/rotate-secret': () => ({
      path: `/api/admin/webhook-endpoints/${endpointId}/rotate-secret`,
      init: { method: 'POST' },
    }),
    'POST /api/admin/webhook-endpoints/{id}/test': () => ({
      path: `/api/admin/webhook-endpoints/${endpointId}/test`,
      init: { method: 'POST' },
    }),
    'POST /api/admin/webhook-endpoints/{id}/replay': () => ({
      path: `/api/admin/webhook-endpoints/${endpointId}/replay`,
      init: { method: 'POST', json: { from: '2026-01-01', to: new Date(Date.now() + 60_000).toISOString() } },
    }),
    'GET /api/admin/webhook-endpoints/{id}/deliveries': () => ({
      path: `/api/admin/webhook-endpoints/${endpointId}/deliveries`,
    }),
    'POST /api/admin/payment-links': () => ({
      path: '/api/admin/payment-links',
      init: { method: 'POST', json: { name: 'Workshop', note: 'inv 7', currency: 'EUR', amount: '80.00' } },
    }),
    'GET /api/admin/events': () => ({ path: '/api/admin/events' }),
    // A stream: its answer (status, headers) is what is checked; the connections end with the suite.
    'GET /api/admin/events/stream': () => ({
      path: '/api/admin/events/stream',
      init: { signal: streams.signal },
    }),
    'POST /api/admin/events/{id}/resend': () => ({
      path: `/api/admin/events/${eventId}/resend`,
      init: { method: 'POST' },
    }),
    'POST /api/admin/events/resend': () => ({
      path: '/api/admin/events/resend',
      init: { method: 'POST', json: { all: true } },
    }),
    'POST /api/admin/orders/{id}/refunds': () => ({
      path: `/api/admin/orders/${orderId}/refunds`,
      init: {
        method: 'POST',
        headers: { 'idempotency-key': newKey() },
        json: { of: 'order', amount: '0.000001' },
      },
    }),
    'POST /api/admin/refunds/{id}/sent': () => ({
      path: `/api/admin/refunds/${sentId}/sent`,
      init: {
        method: 'POST',
        headers: { 'idempotency-key': newKey() },
        json: { txHash: `0x${'ab'.repeat(32)}` },
      },
    }),
    'POST /api/admin/refunds/{id}/cancel': () => ({
      path: `/api/admin/refunds/${cancelId}/cancel`,
      init: { method: 'POST', headers: { 'idempotency-key': newKey() }, json: {} },
    }),
    'GET /api/admin/refunds': () => ({ path: '/api/admin/refunds' }),
    'GET /api/admin/upstream-drift': () => ({ path: '/api/admin/upstream-drift' }),
    'GET /api/admin/quote-engine': () => ({ path: '/api/admin/quote-engine' }),
    'GET /api/admin/upstream-budget': () => ({ path: '/api/admin/upstream-budget' }),
    'GET /api/admin/credential': () => ({ path: '/api/admin/credential' }),
    'GET /api/admin/audit': () => ({ path: '/api/admin/audit' }),
    'DELETE /api/admin/lockouts/{address}': () => ({
      path: '/api/admin/lockouts/192.0.2.7',
      init: { method: 'DELETE' },
    }),
  };
  const call = (route: string, headers: Record<string, string>) => {
    const { path, init = {} } = (requests[route] as (typeof requests)[string])();
    return stack.api(path, { ...init, headers: { ...headers, ...(init.headers as object) } });
  };

  test('the table above names every admin route the API documents', () => {
    const documented = documentedRoutes(createApp(stack.deps))
      .filter((route) => route.path.startsWith('/api/admin/'))
      .map((route) => `${route.method.toUpperCase()} ${route.path}`)
      .sort();
    assert.deepEqual(documented, Object.keys(requests).sort());
  });

  test('no credential or a wrong one: 401 on every route', async () => {
    for (const route of Object.keys(requests)) {
      assert.equal((await call(route, {})).status, 401, route);
      assert.equal((await call(route, bearer(`${tokens.support}x`))).status, 401, route);
      // The hash itself is not a credential (a leaked configuration gives no access).
      assert.equal((await call(route, bearer(tokenSha256(tokens.ops)))).status, 401, route);
    }
  });

  test('read: every GET answers, every write is refused with 403 saying why', async () => {
    for (const route of Object.keys(requests)) {
      const response = await call(route, bearer(tokens.support));
      if (route.startsWith('GET ')) {
        assert.equal(response.status, 200, route);
        continue;
      }
      assert.equal(response.status, 403, route);
      const { error } = await json<{ error: { code: string; message: string; details: unknown } }>(response);
      assert.equal(error.code, 'FORBIDDEN');
      assert.match(error.message, /"support" has the read scope/);
      assert.match(error.message, /needs a write credential/);
      assert.deepEqual(error.details, { credential: 'support', scope: 'read', needs: 'write' });
    }
  });

  test('write: every route answers, GET and write alike', async () => {
    for (const route of Object.keys(requests)) {
      const response = await call(route, bearer(tokens.ops));
      assert.ok([200, 201, 202, 204].includes(response.status), `${route} → ${response.status}`);
    }
  });

  test('who am I: each credential by name, scope and key id; the older ADMIN_TOKEN is "admin", write', async () => {
    const me = (token: string) =>
      stack.api('/api/admin/credential', { headers: bearer(token) }).then((r) => json(r));
    const keyId = (token: string) => tokenSha256(token).slice(0, 8);
    assert.deepEqual(await me(tokens.support), {
      name: 'support',
      scope: 'read',
      keyId: keyId(tokens.support),
    });
    assert.deepEqual(await me(tokens.ops), { name: 'ops', scope: 'write', keyId: keyId(tokens.ops) });
    assert.deepEqual(await me(testSecrets.adminToken), {
      name: 'admin',
      scope: 'write',
      keyId: keyId(testSecrets.adminToken),
    });
    const legacyWrite = await call('POST /api/admin/payment-links', bearer(testSecrets.adminToken));
    assert.equal(legacyWrite.status, 201);
  });

  test('every write is in the audit log: who, what, target, when, from where, how it ended; reads are not', async () => {
    const started = new Date().toISOString();
    const link = await json<{ orderId: string }>(
      await call('POST /api/admin/payment-links', bearer(tokens.ops)),
    );
    assert.equal((await call('POST /api/admin/events/{id}/resend', bearer(tokens.ops))).status, 200);
    assert.equal((await call('POST /api/admin/payment-links', bearer(tokens.support))).status, 403);
    assert.equal((await call('GET /api/admin/orders', bearer(tokens.ops))).status, 200);
    const missing = await stack.api('/api/admin/events/evt_nope/resend', {
      method: 'POST',
      headers: bearer(tokens.ops),
    });
    assert.equal(missing.status, 404);

    // The support desk reads the log with its read credential.
    const log = await json<{ entries: AuditEntry[] }>(
      await stack.api('/api/admin/audit?limit=5', { headers: bearer(tokens.support) }),
    );
    const [notFound, refused, resend, created] = log.entries;
    assert.ok(notFound && refused && resend && created);
    assert.deepEqual(
      {
        credential: created.credential,
        keyId: created.keyId,
        scope: created.scope,
        action: created.action,
        target: created.target,
        clientIp: created.clientIp,
        status: created.status,
      },
      {
        credential: 'ops',
        keyId: tokenSha256(tokens.ops).slice(0, 8),
        scope: 'write',
        action: 'POST /api/admin/payment-links',
        target: link.orderId,
        clientIp: '127.0.0.1',
        status: 201,
      },
    );
    assert.deepEqual(
      {
        name: created.details?.['name'],
        amount: created.details?.['amount'],
        currency: created.details?.['currency'],
      },
      { name: 'Workshop', amount: '80.00', currency: 'EUR' },
    );
    assert.ok(created.createdAt >= started && created.finishedAt && created.finishedAt >= created.createdAt);
    assert.ok(created.requestId);
    assert.deepEqual(
      [resend.credential, resend.action, resend.target, resend.status],
      ['ops', `POST /api/admin/events/${eventId}/resend`, eventId, 200],
    );
    assert.deepEqual(
      [refused.credential, refused.scope, refused.action, refused.status],
      ['support', 'read', 'POST /api/admin/payment-links', 403],
    );
    assert.deepEqual([notFound.target, notFound.status], ['evt_nope', 404]);
    assert.ok(!log.entries.some((entry) => entry.action.startsWith('GET')), 'reads are not recorded');

    // By credential, and page by page.
    const mine = await json<{ entries: AuditEntry[]; next: string | null }>(
      await stack.api('/api/admin/audit?credential=support&limit=1', { headers: bearer(tokens.ops) }),
    );
    assert.equal(mine.entries.length, 1);
    assert.ok(mine.entries.every((entry) => entry.credential === 'support'));
    assert.ok(mine.next);
    const older = await json<{ entries: AuditEntry[] }>(
      await stack.api(
        `/api/admin/audit?credential=support&limit=50&before=${encodeURIComponent(mine.next)}`,
        {
          headers: bearer(tokens.ops),
        },
      ),
    );
    assert.ok(older.entries.length >= 1, 'the refused write of the scope test');
    assert.ok(older.entries.every((entry) => entry.createdAt < (mine.next as string)));
  });
});

/** A request (GET unless said) from another loopback address (another client, as the backend sees it). */
function getFrom(localAddress: string, url: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(url, { localAddress, headers, method }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
}

describe('wrong credentials are counted and slowed down per client', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: { ADMIN_CREDENTIALS: credentialsEnv, ADMIN_AUTH_MAX_FAILURES: '3' },
    });
  });
  after(() => stack.close());
  const get = (token: string) => stack.api('/api/admin/credential', { headers: bearer(token) });

  test('right credentials do not count; past the limit the wrong ones are refused, a right one never; another client is not', async () => {
    for (let i = 0; i < 5; i += 1) assert.equal((await get(tokens.support)).status, 200);
    for (let i = 0; i < 3; i += 1)
      assert.equal((await get(`wrong-${i}`)).status, 401, `wrong guess ${i + 1}`);
    const refused = await get('wrong-4');
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.equal((await json<{ error: { code: string } }>(refused)).error.code, 'RATE_LIMITED');
    // A right credential is checked first: the holder is let in from the counted address too.
    assert.equal((await get(tokens.ops)).status, 200);
    // Another client address is not counted with it: its wrong guess is a 401, its right one a 200.
    const credentialUrl = `${stack.backendUrl}/api/admin/credential`;
    assert.equal(await getFrom('127.0.0.2', credentialUrl, bearer('wrong-elsewhere')), 401);
    assert.equal(await getFrom('127.0.0.2', credentialUrl, bearer(tokens.ops)), 200);
  });

  test('a write credential lifts the count of an address (audited, naming it); a read one cannot', async () => {
    for (let i = 0; i < 4; i += 1) await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {});
    const lift = (token: string, address: string) =>
      getFrom('127.0.0.4', `${stack.backendUrl}/api/admin/lockouts/${address}`, bearer(token), 'DELETE');
    assert.equal(await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {}), 429);
    assert.equal(await lift(tokens.support, '127.0.0.3'), 403);
    assert.equal(await lift(tokens.ops, 'not-an-address'), 422);
    assert.equal(await lift(tokens.ops, '127.0.0.3'), 200);
    assert.equal(await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {}), 401);
    const { entries } = await json<{ entries: AuditEntry[] }>(
      await stack.api('/api/admin/audit?credential=ops&limit=1', { headers: bearer(tokens.ops) }),
    );
    assert.deepEqual(
      entries.map(({ action, target, clientIp, status }) => ({ action, target, clientIp, status })),
      [
        {
          action: 'DELETE /api/admin/lockouts/127.0.0.3',
          target: '127.0.0.3',
          clientIp: '127.0.0.4',
          status: 200,
        },
      ],
    );
    // `all` lifts every address's count.
    for (let i = 0; i < 4; i += 1) await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {});
    assert.equal(await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {}), 429);
    assert.equal(await lift(tokens.ops, 'all'), 200);
    assert.equal(await getFrom('127.0.0.3', `${stack.backendUrl}/api/admin/credential`, {}), 401);
  });
});
