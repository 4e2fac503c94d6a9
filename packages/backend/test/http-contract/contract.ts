/**
 * The backend's HTTP contract: what a browser, the upstream and a merchant's systems see of any running backend,
 * over real HTTP only. `httpContract(name, start)` registers it against one target: the CLI on Node, Bun or
 * Deno (SQLite or PostgreSQL), or a Worker in Miniflare. The suite owns the merchant's side (its receiver of
 * events, its admin credentials) and hands the target the variables that point at them.
 *
 * A target runs on its own offline sandbox (no upstream keys set): the sandbox's merchant signs webhooks with
 * the sandbox's key (`sandboxKeys`), and sells `sticker-pack` whichever catalog it has (the sample one or the
 * tests' fixture).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { tokenSha256 } from '../../src/admin/credentials.ts';
import { sandboxKeys } from '../../src/config.ts';
import { startReceiver } from '../merchant-receiver.ts';
import {
  type Created,
  createOrder,
  getStatus,
  newKey,
  postOrder,
  postWebhook,
  readStatusEvents,
  sign,
  upstreamIdOf,
  upstreamOrders,
  waitFor,
} from '../order-fixtures.ts';
import { freePort } from '../servers.ts';
import { allowedOrigin, backendClient, json } from '../support.ts';

/** A running backend, however it runs. */
export interface ContractTarget {
  /** Where it serves, e.g. `http://127.0.0.1:40001` (routes under `/api`). */
  baseUrl: string;
  /** The sandbox it uses as its upstream; its controls are under `${sandboxUrl}/control`. */
  sandboxUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a target with these variables added to its own (as the CLI reads its environment, a Worker its vars):
 * ALLOWED_ORIGINS, ADMIN_CREDENTIALS, ADMIN_AUTH_MAX_FAILURES, MERCHANT_WEBHOOK_URL, MERCHANT_WEBHOOK_SECRET.
 */
export type StartTarget = (env: Record<string, string>) => Promise<ContractTarget>;

const product = 'sticker-pack';
const webhookSecret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
const tokens = {
  support: `cca_${randomBytes(32).toString('hex')}`,
  ops: `cca_${randomBytes(32).toString('hex')}`,
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A payments webhook as the upstream sends it (docs/upstream.md, "Payments webhooks"). */
const paidWebhook = (created: Created) => ({
  eventType: 'ORDER_COMPLETED',
  eventId: `evt-${created.orderId}`,
  orderId: upstreamIdOf(created),
  externalId: created.orderId,
  orderStatus: 'PAYMENT_CONFIRMED_ACCURATE',
  orderCrypto: 'ETH',
  orderCryptoAmount: 0.0012,
});

interface Deliveries {
  events: Array<{
    type: string;
    deliveries: Array<{ state: string; attempts: number; lastError: string | null }>;
  }>;
}

export function httpContract(name: string, start: StartTarget) {
  describe(`HTTP contract: ${name}`, () => {
    let target: ContractTarget;
    let backend: ReturnType<typeof backendClient>;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;

    before(async () => {
      // The merchant's receiver is down when the backend starts; the delivery test brings it up.
      receiver = await startReceiver(webhookSecret, { port: await freePort(), listening: false });
      target = await start({
        ALLOWED_ORIGINS: allowedOrigin,
        ADMIN_CREDENTIALS: `support:read:${tokenSha256(tokens.support)},ops:write:${tokenSha256(tokens.ops)}`,
        ADMIN_AUTH_MAX_FAILURES: '1000',
        MERCHANT_WEBHOOK_URL: receiver.url,
        MERCHANT_WEBHOOK_SECRET: webhookSecret,
      });
      backend = backendClient(target.baseUrl, target.sandboxUrl);
    });
    after(async () => {
      await target?.stop();
      await receiver?.close();
    });

    test("catalog: a country's methods, limits and default fiat", async () => {
      const response = await backend.api('/api/catalog?country=de');
      assert.equal(response.status, 200);
      const catalog = await json<{
        country: string;
        defaults: { fiat: string };
        paymentMethods: Array<{ id: string; min: string }>;
      }>(response);
      assert.equal(catalog.country, 'DE');
      assert.equal(catalog.defaults.fiat, 'EUR');
      assert.ok(catalog.paymentMethods.some((method) => method.id === 'creditcard'));
      assert.match(catalog.paymentMethods[0]?.min ?? '', /^\d+(\.\d+)?$/);
    });

    test('quotes: what the shopper typed is the total, fees inside', async () => {
      const response = await backend.api('/api/quotes/buy', {
        method: 'POST',
        json: {
          paymentMethod: 'creditcard',
          country: 'DE',
          fiat: 'EUR',
          crypto: 'ETH',
          fiatAmount: '100.00',
        },
      });
      assert.equal(response.status, 200);
      const quote = await json<{ fiat: { total: string; amount: string }; crypto: { amount: string } }>(
        response,
      );
      assert.equal(quote.fiat.total, '100.00');
      assert.ok(Number(quote.fiat.amount) < 100, 'the fees come out of the total');
      assert.match(quote.crypto.amount, /^0\.\d+$/);
    });

    test('orders: the same key and body answer the same order, marked as a replay', async () => {
      const key = newKey();
      const first = await postOrder(backend, { product, customer: { email: 'bob@example.com' } }, key);
      assert.equal(first.status, 201);
      const second = await postOrder(backend, { customer: { email: 'bob@example.com' }, product }, key);
      assert.equal(second.status, 200);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await json(second), await json(first));
      const other = await postOrder(backend, { product, customer: { email: 'eve@example.com' } }, key);
      assert.equal(other.status, 409, 'a key reused with another body is refused');
      assert.equal((await json<{ error: { code: string } }>(other)).error.code, 'IDEMPOTENCY_CONFLICT');
    });

    test('orders: keys sent concurrently, each several times, make one order per key, upstream too', async () => {
      const keys = Array.from({ length: 4 }, newKey);
      const responses = await Promise.all(
        keys.flatMap((key) => Array.from({ length: 3 }, () => postOrder(backend, { product }, key))),
      );
      const bodies = await Promise.all(responses.map((response) => json<Created>(response)));
      for (const [k, key] of keys.entries()) {
        const mine = bodies.slice(k * 3, k * 3 + 3);
        const statuses = responses.slice(k * 3, k * 3 + 3).map((response) => response.status);
        assert.deepEqual(statuses.sort(), [200, 200, 201], key);
        assert.equal(new Set(mine.map((body) => body.orderId)).size, 1, key);
      }
      const ids = new Set(bodies.map((body) => body.orderId));
      assert.equal(ids.size, keys.length);
      for (const id of ids) {
        const { orders } = await upstreamOrders(backend, `&searchId=${id}`, sandboxKeys.PAY_API_KEY);
        assert.equal(orders.length, 1, `one upstream order for ${id}`);
      }
    });

    test('webhooks: a signed one is applied once, a forged one is refused with 401', async () => {
      const created = await createOrder(backend, { product });
      const payload = paidWebhook(created);
      const forged = await postWebhook(
        backend,
        'payments',
        payload,
        sign('whsec_someone_else', JSON.stringify(payload)),
      );
      assert.equal(forged.status, 401);
      assert.equal((await getStatus(backend, created)).status, 'pending');
      const signature = sign(sandboxKeys.PAY_WEBHOOK_SECRET, JSON.stringify(payload));
      const first = await postWebhook(backend, 'payments', payload, signature);
      assert.equal(first.status, 200);
      assert.deepEqual(await json(first), { ok: true });
      const view = await getStatus(backend, created);
      assert.equal(view.status, 'paid');
      assert.deepEqual(view.paid, { amount: '0.0012', currency: 'ETH' });
      const again = await postWebhook(backend, 'payments', payload, signature);
      assert.equal(again.status, 200);
      assert.deepEqual(await json(again), { ok: true, duplicate: true });
    });

    test('status stream: a listener sees pending, then paid when the sandbox pays, and the stream ends', async () => {
      const created = await createOrder(backend, { product });
      const events = await backend.api(`/api/orders/${created.orderId}/events?token=${created.statusToken}`);
      assert.equal(events.status, 200);
      assert.match(events.headers.get('content-type') ?? '', /text\/event-stream/);
      let listening: () => void = () => undefined;
      const told = new Promise<void>((resolve) => {
        listening = resolve;
      });
      const reading = readStatusEvents(
        events,
        (statuses) => {
          if (statuses.length) listening();
          return false;
        },
        60_000,
      );
      await told;
      // A real payment: the sandbox sends the backend its signed webhook.
      await backend.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
      const { statuses, ended } = await reading;
      assert.equal(statuses[0], 'pending');
      assert.equal(statuses.at(-1), 'paid');
      assert.equal(ended, true, 'the stream closes after a final status');
    });

    test('admin: the read credential reads and may not write; the write one writes; none is 401', async () => {
      assert.equal((await backend.api('/api/admin/orders?limit=5')).status, 401);
      const read = await backend.api('/api/admin/orders?limit=5', { headers: bearer(tokens.support) });
      assert.equal(read.status, 200);
      const link = { name: 'Workshop', note: 'inv 7', currency: 'EUR', amount: '80.00' };
      const refused = await backend.api('/api/admin/payment-links', {
        method: 'POST',
        headers: bearer(tokens.support),
        json: link,
      });
      assert.equal(refused.status, 403);
      assert.match(
        (await json<{ error: { message: string } }>(refused)).error.message,
        /"support" has the read scope/,
      );
      const written = await backend.api('/api/admin/payment-links', {
        method: 'POST',
        headers: bearer(tokens.ops),
        json: link,
      });
      assert.equal(written.status, 201);
      const audit = await json<{ entries: Array<{ credential: string; action: string }> }>(
        await backend.api('/api/admin/audit', { headers: bearer(tokens.support) }),
      );
      assert.ok(
        audit.entries.some((entry) => entry.credential === 'ops'),
        'the write is in the audit log under its credential',
      );
    });

    test("events: the merchant's receiver down, then back: order.created arrives once, signed", async () => {
      const created = await createOrder(backend, { product });
      const deliveries = async () =>
        json<Deliveries>(
          await backend.api(`/api/admin/events?orderId=${created.orderId}`, { headers: bearer(tokens.ops) }),
        );
      const failed = await waitFor(
        async () => {
          const event = (await deliveries()).events.find((e) => e.type === 'order.created');
          const delivery = event?.deliveries[0];
          return delivery && delivery.attempts >= 1 ? delivery : undefined;
        },
        'a failed delivery to the receiver while it is down',
        60_000,
      );
      assert.equal(failed.state, 'pending');
      assert.equal(failed.lastError, 'the receiver is unreachable');
      await receiver.up();
      const mine = () =>
        receiver.received.filter(
          (r) =>
            r.event.type === 'order.created' &&
            'orderId' in r.event.data &&
            r.event.data.orderId === created.orderId,
        );
      await waitFor(
        async () => (mine().length ? true : undefined),
        'order.created at the receiver once it is up',
        90_000,
      );
      await waitFor(
        async () => {
          const event = (await deliveries()).events.find((e) => e.type === 'order.created');
          return event?.deliveries[0]?.state === 'delivered' ? true : undefined;
        },
        'the delivery marked delivered',
        30_000,
      );
      assert.equal(mine().length, 1, 'once');
      assert.equal(receiver.rejected.length, 0, 'every delivery verified with Standard Webhooks');
    });
  });
}
