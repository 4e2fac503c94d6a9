/**
 * The admin API over real HTTP with the sandbox as the upstream: the ledger's search (a paid order found by its
 * transaction hash and by the payer's e-mail; an unknown parameter refused), and webhook endpoints as data (two
 * endpoints with their own filters and secrets each receive only their events, verified, while a third is down).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startBackground } from '../src/process/background.ts';
import { createOrder, productsFile, upstreamIdOf } from './order-fixtures.ts';
import { waitFor } from './servers.ts';

/** waitFor with a condition: it retries until the probe stops throwing. */
const until = (condition: () => Promise<boolean> | boolean, what: string) =>
  waitFor(async () => {
    if (!(await condition())) throw new Error('not yet');
  }, what);

import { json, type Stack, startStack } from './support.ts';

const tokens = { support: 'support-read-token-0123456789abcdef', ops: 'ops-write-token-0123456789abcdef' };
const tokenSha256 = (token: string) => createHash('sha256').update(token).digest('hex');

interface Received {
  type: string;
  data: { orderId?: string; endpointId?: string };
}

/** A receiver that verifies each delivery with its own secret (set once the endpoint is made). */
async function startReceiver() {
  let verifier: Webhook | undefined;
  const received: Received[] = [];
  const refused: string[] = [];
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    try {
      if (!verifier) throw new Error('no secret yet');
      received.push(verifier.verify(body, request.headers as Record<string, string>) as Received);
      response.writeHead(200).end('thanks');
    } catch (error) {
      refused.push((error as Error).message);
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    refused,
    verifyWith(secret: string) {
      verifier = new Webhook(secret);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let stack: Stack;
let worker: ReturnType<typeof startBackground>;
let paidOnly: Awaited<ReturnType<typeof startReceiver>>;
let everything: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  [paidOnly, everything] = await Promise.all([startReceiver(), startReceiver()]);
  stack = await startStack({
    env: {
      PRODUCTS_FILE: productsFile,
      ADMIN_CREDENTIALS: `support:read:${tokenSha256(tokens.support)},ops:write:${tokenSha256(tokens.ops)}`,
    },
  });
  // The delivery worker as the CLI runs it, over the stack's store and endpoints.
  worker = startBackground(stack.deps, {});
});
after(async () => {
  await worker.stop();
  await stack.close();
  await Promise.all([paidOnly.close(), everything.close()]);
});

const admin = (path: string, init: RequestInit & { json?: unknown } = {}, token: string = tokens.ops) =>
  stack.api(`/api/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

interface Page {
  orders: Array<{
    id: string;
    upstreamId: string;
    status: string;
    customerEmail: string | null;
    txHashes: string[];
  }>;
  nextCursor: string | null;
}

test('endpoints with their own filters and secrets each receive only their events, while a third is down', async () => {
  const make = async (url: string, events: string[]) => {
    const response = await admin('/webhook-endpoints', { method: 'POST', json: { url, events } });
    assert.equal(response.status, 201);
    return json<{ endpoint: { id: string; events: string[]; source: string }; secret: string }>(response);
  };
  const a = await make(paidOnly.url, ['order.paid']);
  const b = await make(everything.url, ['*']);
  // Nothing listens there: its deliveries fail and are retried, and hold up no one else's.
  const down = await make('http://127.0.0.1:9/hooks', ['*']);
  assert.match(a.secret, /^whsec_/);
  assert.notEqual(a.secret, b.secret);
  paidOnly.verifyWith(a.secret);
  everything.verifyWith(b.secret);
  const listed = await json<{ endpoints: Array<{ id: string; secret?: string }> }>(
    await admin('/webhook-endpoints'),
  );
  assert.deepEqual(
    listed.endpoints.map((endpoint) => endpoint.id).sort(),
    [a.endpoint.id, b.endpoint.id, down.endpoint.id].sort(),
  );
  assert.ok(
    listed.endpoints.every((endpoint) => endpoint.secret === undefined),
    'secrets are never listed',
  );

  const created = await createOrder(stack, { product: 'hoodie', customer: { email: 'Ada@Example.com' } });
  await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
  const mine = (events: Received[]) => events.filter((event) => event.data.orderId === created.orderId);
  await until(
    async () => mine(paidOnly.received).length === 1 && mine(everything.received).length === 2,
    'deliveries',
  );
  assert.deepEqual(
    mine(paidOnly.received).map((event) => event.type),
    ['order.paid'],
  );
  assert.deepEqual(
    mine(everything.received).map((event) => event.type),
    ['order.created', 'order.paid'],
  );
  assert.deepEqual(paidOnly.refused, []);
  assert.deepEqual(everything.refused, []);

  // The down endpoint's deliveries show their failed attempts; the others' show the receiver's answer.
  type Deliveries = {
    deliveries: Array<{
      orderId: string | null;
      state: string;
      attempts: Array<{ status: number | null; error: string | null; responseExcerpt: string | null }>;
    }>;
  };
  await until(async () => {
    const page = await json<Deliveries>(await admin(`/webhook-endpoints/${down.endpoint.id}/deliveries`));
    return page.deliveries.some((d) => d.orderId === created.orderId && d.attempts.length > 0);
  }, 'a failed attempt recorded');
  const downPage = await json<Deliveries>(await admin(`/webhook-endpoints/${down.endpoint.id}/deliveries`));
  const failed = downPage.deliveries.find((d) => d.orderId === created.orderId && d.attempts.length > 0);
  assert.equal(failed?.state, 'pending');
  assert.equal(failed?.attempts[0]?.error, 'the receiver is unreachable');
  const okPage = await json<Deliveries>(await admin(`/webhook-endpoints/${a.endpoint.id}/deliveries`));
  assert.deepEqual(
    okPage.deliveries.map((d) => [d.state, d.attempts.at(-1)?.status, d.attempts.at(-1)?.responseExcerpt]),
    [['delivered', 200, 'thanks']],
  );

  // A test event goes to that endpoint alone; a paused endpoint gets nothing new.
  const sent = await admin(`/webhook-endpoints/${a.endpoint.id}/test`, { method: 'POST' });
  assert.equal(sent.status, 202);
  await until(async () => paidOnly.received.some((event) => event.type === 'webhook.test'), 'the test event');
  assert.ok(!everything.received.some((event) => event.type === 'webhook.test'));

  // The ledger finds the paid order by its transaction hash and by the payer's e-mail (any case).
  const byEmail = await json<Page>(await admin('/orders?q=ada%40example.com'));
  assert.deepEqual(
    byEmail.orders.map((o) => [o.id, o.status, o.customerEmail]),
    [[created.orderId, 'paid', 'Ada@Example.com']],
  );
  const hash = byEmail.orders[0]?.txHashes[0];
  assert.ok(hash, 'the payment has a transaction hash');
  const byHash = await json<Page>(await admin(`/orders?q=${encodeURIComponent(hash)}&status=paid,overpaid`));
  assert.deepEqual(
    byHash.orders.map((o) => o.id),
    [created.orderId],
  );
  const detail = await json<{
    order: { statusHistory: Array<{ status: string }> };
    events: Array<{ type: string; deliveries: Array<{ endpointId: string }> }>;
  }>(await admin(`/orders/${created.orderId}`));
  assert.equal(detail.order.statusHistory.at(-1)?.status, 'paid');
  const paidEvent = detail.events.find((event) => event.type === 'order.paid');
  assert.deepEqual(
    paidEvent?.deliveries.map((d) => d.endpointId).sort(),
    [a.endpoint.id, b.endpoint.id, down.endpoint.id].sort(),
  );

  // A read credential reads, and may not add an endpoint.
  const refused = await admin(
    '/webhook-endpoints',
    { method: 'POST', json: { url: paidOnly.url, events: ['*'] } },
    tokens.support,
  );
  assert.equal(refused.status, 403);
});

test('the ledger list refuses what it does not know, and pages by cursor', async () => {
  for (const query of [
    'txHash=0xabc',
    'searchId=ord_1',
    'status=shipped',
    'from=yesterday',
    'limit=101',
    'cursor=nope',
  ]) {
    const response = await admin(`/orders?${query}`);
    assert.equal(response.status, 422, query);
    assert.equal((await json<{ error: { code: string } }>(response)).error.code, 'VALIDATION_FAILED');
  }
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await createOrder(stack, { product: 'hoodie' })).orderId);
  const first = await json<Page>(await admin('/orders?limit=2'));
  assert.ok(first.nextCursor);
  const second = await json<Page>(await admin(`/orders?limit=2&cursor=${first.nextCursor}`));
  const seen = [...first.orders, ...second.orders].map((o) => o.id);
  assert.equal(new Set(seen).size, seen.length, 'no order twice across pages');
  assert.deepEqual(seen.slice(0, 3), made.reverse());
});
