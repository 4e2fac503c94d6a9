/**
 * `createCheckout` as a merchant's app mounts it: served on a real port in sandbox mode (SQLite in a temporary
 * DATA_DIR), its in-process `onEvent` hook hearing fulfilment events, given beside the config or, the first
 * way, inside `config.events`; on SQLite it holds DATA_DIR against other processes, as the command does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type ServerType, serve } from '@hono/node-server';
import {
  type Checkout,
  type Config,
  createCheckout,
  DataDirInUse,
  type FulfilmentEvent,
  type LegacyCheckoutConfig,
  loadConfig,
} from '../src/index.ts';
import { startCli } from './cli-process.ts';
import { waitFor } from './order-fixtures.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Serves whatever `mount` builds on a free port, building it once the port (its PUBLIC_URL) is known. */
async function serveCheckout(mount: (config: Config) => Promise<Checkout>) {
  let checkout: Checkout | undefined;
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve(
      {
        fetch: (request) => checkout?.fetch(request) ?? new Response(null, { status: 503 }),
        port: 0,
        hostname: '127.0.0.1',
      },
      (info) => resolve((info as AddressInfo).port),
    );
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-test-'));
  dirs.push(dataDir);
  const url = `http://127.0.0.1:${port}`;
  checkout = await mount(
    loadConfig({ PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, ACCESS_LOG: 'off' }),
  );
  const created = await checkout.fetch(
    new Request(`${url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, 'idempotency-key': `checkout-${port}` },
      body: JSON.stringify({ product: 'ember-mug' }),
    }),
  );
  assert.equal(created.status, 201, await created.clone().text());
  const { orderId } = (await created.json()) as { orderId: string };
  return {
    orderId,
    async close() {
      await checkout?.close();
      (server as ServerType & { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    },
  };
}

const createdEventOf = (heard: FulfilmentEvent[], orderId: string) => async () =>
  heard.find(
    (event) => event.type === 'order.created' && 'orderId' in event.data && event.data.orderId === orderId,
  );

describe('createCheckout(config, { onEvent })', () => {
  test('the hook hears the order it created', async () => {
    const heard: FulfilmentEvent[] = [];
    const running = await serveCheckout((config) =>
      createCheckout(config, { onEvent: (event) => heard.push(event) }),
    );
    try {
      await waitFor(createdEventOf(heard, running.orderId), 'order.created heard by onEvent', 10_000);
    } finally {
      await running.close();
    }
  });

  test('onEvent inside config.events (the first way) still hears it', async () => {
    const heard: FulfilmentEvent[] = [];
    const running = await serveCheckout((config) => {
      const legacy: LegacyCheckoutConfig = {
        ...config,
        events: { ...config.events, onEvent: (event) => heard.push(event) },
      };
      return createCheckout(legacy);
    });
    try {
      await waitFor(createdEventOf(heard, running.orderId), 'order.created heard by the legacy hook', 10_000);
    } finally {
      await running.close();
    }
  });

  test('onEvent given both ways is refused, naming the way to keep', async () => {
    const config = loadConfig({ PORT: '0', DATA_DIR: '/nonexistent-not-opened' });
    const legacy: LegacyCheckoutConfig = {
      ...config,
      events: { ...config.events, onEvent: () => undefined },
    };
    await assert.rejects(
      createCheckout(legacy, { onEvent: () => undefined }),
      /createCheckout\(config, \{ onEvent \}\)/,
    );
  });
});

describe('createCheckout on SQLite holds DATA_DIR, as the command does', () => {
  test('a second process on its DATA_DIR is refused, and so is a checkout on a DATA_DIR another process holds', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'checkout-lock-'));
    dirs.push(dataDir);
    const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ACCESS_LOG: 'off' });
    const mounted = await createCheckout(config);
    // Two checkouts in one app on one DATA_DIR share this process's hold.
    const second = await createCheckout(config);
    try {
      await assert.rejects(
        startCli({ DATA_DIR: dataDir }),
        new RegExp(`DATA_DIR \\S+ is in use by another process \\(pid ${process.pid} `),
      );
    } finally {
      await second.close();
      await mounted.close();
    }
    // Closed, it lets go: the command takes the directory, and a checkout mounted now is refused, naming it.
    const cli = await startCli({ DATA_DIR: dataDir });
    try {
      await assert.rejects(
        createCheckout(config),
        (error: unknown) =>
          error instanceof DataDirInUse && /is in use by another process \(pid \d+ /.test(error.message),
      );
    } finally {
      await cli.stop();
    }
  });
});
