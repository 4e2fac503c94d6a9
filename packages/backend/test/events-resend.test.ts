/**
 * The bulk re-send of given-up events (`POST /api/admin/events/resend`), as a merchant uses it after a receiver
 * outage: every delivery given up on in a time range (or all of them) goes out again, delivered ones stay as they
 * are, asking twice sends nothing twice, and the audit log says who asked for what and how many it put back. On
 * SQLite and on PostgreSQL, with a real receiver over HTTP.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ServerType, serve } from '@hono/node-server';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import { singleKey } from '../src/secrets/keyring.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import { createOrder, productsFile } from './order-fixtures.ts';
import { createDatabase, type Postgres, startPostgres } from './servers.ts';
import { type Stack, startStack, testSecrets } from './support.ts';

const webhookSecret = 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue';
const admin = { authorization: `Bearer ${testSecrets.adminToken}` };

interface EventView {
  id: string;
  createdAt: string;
  deliveries: Array<{ state: string; attempts: number }>;
}

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`re-sending given-up events (${database})`, () => {
    let stack: Stack;
    let postgres: Postgres | undefined;
    let dataDir: string;
    let receiver: ServerType;
    /** What the receiver answers: 410 (gone: given up at once) until the merchant fixes it. */
    let answer = 410;
    const received: string[] = [];

    before(async () => {
      const port = await new Promise<number>((resolve) => {
        receiver = serve(
          {
            hostname: '127.0.0.1',
            port: 0,
            fetch: async (request) => {
              received.push(request.headers.get('webhook-id') ?? '');
              await request.text();
              return new Response(null, { status: answer });
            },
          },
          (info) => resolve((info as AddressInfo).port),
        );
      });
      dataDir = await mkdtemp(path.join(tmpdir(), 'cc-resend-'));
      let databaseUrl: string | undefined;
      if (database === 'PostgreSQL') {
        postgres = await startPostgres();
        databaseUrl = await createDatabase(postgres, 'resend');
      }
      const store = await createSqlStore({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
      stack = await startStack({
        store,
        env: {
          PRODUCTS_FILE: productsFile,
          MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks`,
          MERCHANT_WEBHOOK_SECRET: webhookSecret,
        },
      });
    });
    after(async () => {
      await stack?.close();
      await postgres?.stop();
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    });

    /** One pass of a delivery worker, as the runtime runs them (every due delivery attempted once). */
    const deliver = () =>
      createDeliveryWorker({
        outbox: stack.deps.outbox,
        clock: stack.deps.clock,
        secrets: singleKey(webhookSecret),
        log: () => undefined,
      }).tick();
    const events = async (query = '') => {
      const response = await stack.api(`/api/admin/events?limit=100${query}`, { headers: admin });
      assert.equal(response.status, 200);
      return ((await response.json()) as { events: EventView[] }).events;
    };
    const resend = async (body: unknown) => {
      const response = await stack.api('/api/admin/events/resend', {
        method: 'POST',
        headers: admin,
        json: body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    test('given-up deliveries go out again, once, by range or all; delivered ones stay; audited', async () => {
      // Three orders whose order.created the receiver refuses (410): given up at once.
      for (let i = 0; i < 3; i += 1) await createOrder(stack);
      assert.equal(await deliver(), 3);
      const failed = await events('&state=failed');
      assert.equal(failed.length, 3);
      const [newest, middle, oldest] = failed as [EventView, EventView, EventView];

      // Neither a range nor all: refused, naming the field.
      const bare = await resend({});
      assert.equal(bare.status, 422);
      assert.match(JSON.stringify(bare.body), /from/);

      // A range that holds only the oldest event (created before the middle one).
      const ranged = await resend({ from: oldest.createdAt, to: middle.createdAt });
      assert.equal(ranged.status, 200, JSON.stringify(ranged.body));
      assert.ok(middle.createdAt > oldest.createdAt, 'orders created one after another');
      assert.deepEqual(ranged.body, { events: 1, deliveries: 1 });

      // All the rest; asked twice, the second finds nothing given up.
      const all = await resend({ all: true });
      assert.equal(all.status, 200);
      assert.deepEqual(all.body, { events: 2, deliveries: 2 });
      assert.deepEqual((await resend({ all: true })).body, { events: 0, deliveries: 0 });
      assert.equal((await events('&state=failed')).length, 0);
      const pending = await events('&state=pending');
      assert.equal(pending.length, 3);
      for (const event of pending)
        assert.equal(event.deliveries.length, 1, 'one delivery per receiver, not two');

      // The receiver fixed: each goes out exactly once more.
      answer = 204;
      received.length = 0;
      assert.equal(await deliver(), 3);
      assert.deepEqual(received.sort(), [newest.id, middle.id, oldest.id].sort());
      assert.equal((await events('&state=delivered')).length, 3);
      // Delivered events are not sent again by another bulk re-send.
      assert.deepEqual((await resend({ all: true })).body, { events: 0, deliveries: 0 });
      assert.equal(await deliver(), 0);

      // Audited like every write: who, what, and how many it put back.
      const audit = (await (await stack.api('/api/admin/audit?limit=10', { headers: admin })).json()) as {
        entries: Array<{
          action: string;
          credential: string;
          status: number;
          details: Record<string, unknown>;
        }>;
      };
      const resends = audit.entries.filter((entry) => entry.action === 'POST /api/admin/events/resend');
      assert.ok(resends.length >= 4, JSON.stringify(audit.entries));
      const first = resends.find((entry) => entry.details?.['all'] === true && entry.status === 200);
      assert.ok(first, JSON.stringify(resends));
      assert.equal(first.credential, 'admin');
      assert.equal(typeof first.details['deliveries'], 'number');
    });
  });
}
