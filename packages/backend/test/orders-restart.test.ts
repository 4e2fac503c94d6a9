/** A restart loses nothing: idempotency records, the order ledger, routes and webhook dedupe live on disk. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { serve } from '@hono/node-server';
import { createApp } from '../src/app.ts';
import { createDeps } from '../src/process/app-deps.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import {
  type Created,
  newKey,
  postOrder,
  postWebhook,
  productsFile,
  sign,
  upstreamIdOf,
} from './order-fixtures.ts';
import { allowedOrigin, json, startStack } from './support.ts';

test('a new app over the same DATA_DIR replays the key, knows the order and its history', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-restart-'));
  const firstStore = await createSqlStore({ dataDir });
  const stack = await startStack({ store: firstStore, env: { PRODUCTS_FILE: productsFile } });
  try {
    const key = newKey();
    const body = { product: 'hoodie', returnUrl: `${allowedOrigin}/thanks` };
    const created = await json<Created>(await postOrder(stack, body, key));
    const event = {
      eventId: 'evt-restart-1',
      eventType: 'PAYMENT_RECEIVED',
      orderId: upstreamIdOf(created),
      orderStatus: 'PAYMENT_CONFIRMED_UNDERPAID',
      externalId: created.orderId,
    };
    assert.deepEqual(await json(await postWebhook(stack, 'payments', event)), { ok: true });
    await firstStore.close();

    // The "restarted" backend: new store, new deps, new app, its own HTTP server, same directory.
    const secondStore = await createSqlStore({ dataDir });
    const app = createApp(createDeps(stack.config, { store: secondStore }));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const replay = await fetch(`${base}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, origin: allowedOrigin },
        body: JSON.stringify(body),
      });
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await json(replay), created);

      const status = await fetch(`${base}/api/orders/${created.orderId}`, {
        headers: { 'x-status-token': created.statusToken },
      });
      assert.equal(status.status, 200);
      const view = await json(status);
      assert.equal(view['status'], 'underpaid');
      assert.equal(view['returnUrl'], `${allowedOrigin}/thanks`);

      // The dedupe set survived too: the same event is a duplicate for the new process.
      const repeat = await fetch(`${base}/api/webhooks/payments`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-swapped-signature': sign(stack.config.payments.webhookSecret, JSON.stringify(event)),
        },
        body: JSON.stringify(event),
      });
      assert.deepEqual(await json(repeat), { ok: true, duplicate: true });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await secondStore.close();
    }
  } finally {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
