/**
 * Webhook endpoints as data (API.md "Webhook endpoints") as a merchant runs them, over real HTTP with the sandbox as
 * the upstream, on SQLite and on PostgreSQL: two endpoints with their own event filters and secrets each receive
 * only their events, each verified with its own secret, while a third answers 500 and holds up neither; an order's
 * events reach each endpoint in order (a later one waits while an earlier one is retried) with the order's sequence
 * numbers; a paused endpoint gets nothing, and once resumed a replay of the range catches it up, to it alone; a test
 * event; a rotated secret with the old one still verifying during the overlap, and not after it.
 *
 * Deliveries are sent by the delivery worker's passes (`tick`, as the runtime's loop runs them), and the backend's
 * clock is one the test moves, so a retry falls due and the rotation's overlap ends without waiting.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import { createOrder, productsFile, upstreamIdOf } from './order-fixtures.ts';
import { createDatabase, type Postgres, startPostgres, waitFor } from './servers.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

interface Delivered {
  id: string;
  type: string;
  sequence?: number;
  data: { orderId?: string; endpointId?: string };
  /** Which of the receiver's secrets verified it (by their place in its list). */
  verifiedBy: number[];
}

/**
 * A merchant's receiver: it verifies each delivery with the secrets it is given (any one suffices, as a receiver
 * does during a rotation) and answers 200 unless told otherwise; what it accepted is kept in order. It checks the
 * signature as Standard Webhooks says (the library's `sign` of `id.timestamp.body` among the header's `v1,`
 * signatures) and the timestamp against `now`, the backend's clock, which this test moves (the library's own
 * `verify` checks it against the real time).
 */
async function startReceiver(now: () => number) {
  const secrets: string[] = [];
  let answer = 200;
  const received: Delivered[] = [];
  const refused: string[] = [];
  let requests = 0;
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    requests += 1;
    const id = String(request.headers['webhook-id'] ?? '');
    const timestamp = Number(request.headers['webhook-timestamp']);
    const signatures = String(request.headers['webhook-signature'] ?? '').split(' ');
    const fresh = Math.abs(now() / 1000 - timestamp) < 5 * 60;
    const verifiedBy = secrets.flatMap((secret, index) =>
      fresh && signatures.includes(new Webhook(secret).sign(id, new Date(timestamp * 1000), body))
        ? [index]
        : [],
    );
    if (!verifiedBy.length) {
      refused.push(id);
      response.writeHead(400).end('bad signature');
      return;
    }
    if (answer !== 200) {
      response.writeHead(answer).end('down for maintenance');
      return;
    }
    const payload = JSON.parse(body) as Omit<Delivered, 'verifiedBy'>;
    assert.equal(payload.id, id);
    received.push({ ...payload, verifiedBy });
    response.writeHead(200).end('thanks');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    refused,
    requests: () => requests,
    secrets,
    answer(status: number) {
      answer = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Endpoint {
  id: string;
  events: string[];
  enabled: boolean;
}

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`webhook endpoints (${database})`, () => {
    let stack: Stack;
    let postgres: Postgres | undefined;
    let dataDir: string;
    /** The backend's clock: the real time plus what the test moved it by. */
    let moved = 0;
    const clock = { now: () => Date.now() + moved };
    const receivers = {} as Record<'paidOnly' | 'everything' | 'flaky' | 'down', Receiver>;
    const endpoints = {} as Record<keyof typeof receivers, Endpoint>;

    before(async () => {
      for (const name of ['paidOnly', 'everything', 'flaky', 'down'] as const)
        receivers[name] = await startReceiver(clock.now);
      dataDir = await mkdtemp(path.join(tmpdir(), 'cc-endpoints-'));
      let databaseUrl: string | undefined;
      if (database === 'PostgreSQL') {
        postgres = await startPostgres();
        databaseUrl = await createDatabase(postgres, 'endpoints');
      }
      const store = await createSqlStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
      stack = await startStack({ store, clock, env: { PRODUCTS_FILE: productsFile } });
    });
    after(async () => {
      await stack?.close();
      await postgres?.stop();
      await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
      await rm(dataDir, { recursive: true, force: true });
    });

    const admin = (route: string, init: RequestInit & { json?: unknown } = {}) =>
      stack.api(`/api/admin${route}`, {
        ...init,
        headers: { authorization: `Bearer ${testSecrets.adminToken}`, ...init.headers },
      });
    /**
     * The delivery worker's passes until one finds nothing due, as its loop runs them (a pass that sent something
     * may have let an order's next event through): every due delivery attempted, each order's in turn.
     */
    const deliver = async () => {
      const worker = createDeliveryWorker({
        outbox: stack.deps.outbox,
        clock: stack.deps.clock,
        secrets: undefined,
        resolve: stack.deps.endpoints.resolve,
        log: () => undefined,
      });
      while ((await worker.tick()) > 0);
    };
    /** Moves the backend's clock past any retry's backoff (at most 1 h), so every pending delivery is due. */
    const passRetries = () => {
      moved += 61 * 60 * 1000;
    };
    /** A paid order: its order.created and order.paid written (the sandbox's webhook reached the backend). */
    const paidOrder = async (email: string) => {
      const created = await createOrder(stack, { product: 'hoodie', customer: { email } });
      await stack.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      await waitFor(async () => {
        const { events } = await json<{ events: Array<{ type: string }> }>(
          await admin(`/events?orderId=${created.orderId}`),
        );
        assert.ok(events.some((event) => event.type === 'order.paid'));
      }, 'the order paid');
      return created.orderId;
    };
    const of = (receiver: Receiver, orderId: string) =>
      receiver.received.filter((event) => event.data.orderId === orderId);
    const types = (events: Delivered[]) => events.map((event) => event.type);

    let firstOrder = '';

    test('each endpoint receives only its events, verified with its own secret, while one answers 500', async () => {
      const make = async (name: keyof typeof receivers, events: string[]) => {
        const response = await admin('/webhook-endpoints', {
          method: 'POST',
          json: { url: receivers[name].url, events, description: name },
        });
        assert.equal(response.status, 201);
        const made = await json<{ endpoint: Endpoint; secret: string }>(response);
        assert.match(made.secret, /^whsec_/);
        receivers[name].secrets.push(made.secret);
        endpoints[name] = made.endpoint;
      };
      await make('paidOnly', ['order.paid']);
      await make('everything', ['*']);
      await make('flaky', ['order.created', 'order.paid']);
      await make('down', ['*']);
      const secrets = Object.values(receivers).map((receiver) => receiver.secrets[0]);
      assert.equal(new Set(secrets).size, 4, 'each endpoint has its own secret');
      receivers.flaky.answer(500);
      receivers.down.answer(500);

      firstOrder = await paidOrder('ada@example.com');
      // The healthy endpoints get all theirs; the failing ones have tried their first and wait.
      await deliver();
      assert.deepEqual(types(of(receivers.everything, firstOrder)), ['order.created', 'order.paid']);
      assert.deepEqual(types(of(receivers.paidOnly, firstOrder)), ['order.paid']);
      for (const name of ['paidOnly', 'everything'] as const) {
        assert.deepEqual(receivers[name].refused, [], `${name} verified every delivery`);
        assert.ok(
          receivers[name].received.every((event) => event.verifiedBy.join() === '0'),
          `${name}: signed with its own secret (the receiver knows no other)`,
        );
      }
      assert.equal(receivers.down.requests(), 1, 'the 500 endpoint tried its order.created');
    });

    test("an order's events reach a failing endpoint in order, with the order's sequence numbers", async () => {
      type Deliveries = {
        deliveries: Array<{
          eventId: string;
          type: string;
          orderId: string | null;
          state: string;
          attempts: unknown[];
        }>;
      };
      const flakyDeliveries = async () =>
        (
          await json<Deliveries>(await admin(`/webhook-endpoints/${endpoints.flaky.id}/deliveries`))
        ).deliveries.filter((delivery) => delivery.orderId === firstOrder);
      // Retried while it answers 500: order.paid waits behind order.created, never sent before it.
      passRetries();
      await deliver();
      const waiting = await flakyDeliveries();
      const created = waiting.find((delivery) => delivery.type === 'order.created');
      const paid = waiting.find((delivery) => delivery.type === 'order.paid');
      assert.equal(created?.attempts.length, 2);
      assert.equal(paid?.attempts.length, 0, 'order.paid waits while order.created is retried');
      assert.equal(paid?.state, 'pending');

      receivers.flaky.answer(200);
      passRetries();
      await deliver();
      assert.deepEqual(types(of(receivers.flaky, firstOrder)), ['order.created', 'order.paid']);

      // The sequence is the event's place among the order's events: the same at every endpoint, increasing,
      // with a gap where an endpoint does not hear a type.
      const sequences = (receiver: Receiver) => of(receiver, firstOrder).map((event) => event.sequence);
      const all = sequences(receivers.everything);
      assert.equal(all.length, 2);
      assert.ok((all[0] ?? 0) < (all[1] ?? 0), 'increasing');
      assert.deepEqual(sequences(receivers.flaky), all);
      assert.deepEqual(sequences(receivers.paidOnly), [all[1]]);
      // The endpoint answering 500 still waits; nobody else was held up by it.
      assert.equal(of(receivers.down, firstOrder).length, 0);
    });

    test('a paused endpoint gets nothing; resumed, a replay of the range catches it up, to it alone', async () => {
      const paused = await admin(`/webhook-endpoints/${endpoints.paidOnly.id}`, {
        method: 'PATCH',
        json: { enabled: false },
      });
      assert.equal(paused.status, 200);
      assert.equal((await json<{ endpoint: Endpoint }>(paused)).endpoint.enabled, false);

      const from = new Date(clock.now()).toISOString();
      const second = await paidOrder('grace@example.com');
      await deliver();
      assert.deepEqual(types(of(receivers.everything, second)), ['order.created', 'order.paid']);
      assert.deepEqual(of(receivers.paidOnly, second), [], 'the paused endpoint got nothing');

      const resumed = await admin(`/webhook-endpoints/${endpoints.paidOnly.id}`, {
        method: 'PATCH',
        json: { enabled: true },
      });
      assert.equal((await json<{ endpoint: Endpoint }>(resumed)).endpoint.enabled, true);
      const everythingBefore = receivers.everything.received.length;
      const paidOnlyBefore = receivers.paidOnly.received.length;
      const replay = await admin(`/webhook-endpoints/${endpoints.paidOnly.id}/replay`, {
        method: 'POST',
        json: { from, to: new Date(clock.now() + 1000).toISOString() },
      });
      assert.equal(replay.status, 202);
      assert.deepEqual(await json(replay), { queued: 1 }, 'the one order.paid of the range');
      await deliver();
      const replayed = receivers.paidOnly.received.slice(paidOnlyBefore);
      assert.deepEqual(
        replayed.map((event) => [event.type, event.data.orderId]),
        [['order.paid', second]],
        'the range only: the first order, before it, is not sent again',
      );
      assert.equal(receivers.everything.received.length, everythingBefore, 'replayed to that endpoint alone');
    });

    test('a test event goes to one endpoint; a rotated secret keeps verifying during the overlap, then stops', async () => {
      const testEvent = async () => {
        const sent = await admin(`/webhook-endpoints/${endpoints.everything.id}/test`, { method: 'POST' });
        assert.equal(sent.status, 202);
        const { eventId } = await json<{ eventId: string }>(sent);
        await deliver();
        const got = receivers.everything.received.find((event) => event.id === eventId);
        assert.ok(got, 'the test event arrived');
        assert.equal(got.type, 'webhook.test');
        assert.equal(got.data.endpointId, endpoints.everything.id);
        return got;
      };
      await testEvent();
      for (const name of ['paidOnly', 'flaky', 'down'] as const)
        assert.ok(!receivers[name].received.some((event) => event.type === 'webhook.test'), name);

      const rotated = await admin(`/webhook-endpoints/${endpoints.everything.id}/rotate-secret`, {
        method: 'POST',
      });
      assert.equal(rotated.status, 200);
      const { secret } = await json<{ secret: string }>(rotated);
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, receivers.everything.secrets[0]);
      receivers.everything.secrets.push(secret);
      // Within the overlap each delivery verifies with the old secret and with the new one.
      assert.deepEqual((await testEvent()).verifiedBy, [0, 1]);
      // 25 hours on, the old secret signs no more: only the new one verifies.
      moved += 25 * 60 * 60 * 1000;
      assert.deepEqual((await testEvent()).verifiedBy, [1]);
      assert.deepEqual(receivers.everything.refused, []);
    });
  });
}
