/**
 * The README's ways of mounting the backend in an app the merchant already has, run as written
 * (`docs/examples/*.ts`, each quoted whole in packages/backend/README.md), and mounts the host app could break:
 * Express with `express.json()` ahead of the checkout, where the body (and a webhook's signed bytes) is gone.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { createCheckout, loadConfig } from '../src/index.ts';
import { freePort, requestFrom, waitFor } from './servers.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const examples = path.join(root, 'docs', 'examples');
const dataDirs: string[] = [];
after(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mount-'));
  dataDirs.push(dir);
  return dir;
};

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64');

/** A running example: its process, what it printed, and stop. */
async function runExample(file: string, env: Record<string, string>, probe: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(examples, file)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`exited: ${output}`);
        const response = await fetch(probe);
        if (!response.ok) throw new Error(`${response.status}`);
      },
      `${file} serves ${probe}`,
      60_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What a shopper does under a mount: a product, an order (with its payment link), an unknown path. */
async function shopUnder(base: string) {
  const products = await fetch(`${base}/api/products`);
  assert.equal(products.status, 200);
  const order = await fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ product: 'ember-mug' }),
  });
  const created = (await order.json()) as { id?: string; link?: string; error?: unknown };
  assert.equal(order.status, 201, JSON.stringify(created));
  const unknown = await fetch(`${base}/no/such/path`);
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get('content-type') ?? '', /application\/json/);
  const envelope = (await unknown.json()) as { error: { code: string } };
  assert.equal(envelope.error.code, 'NOT_FOUND');
  return created;
}

const countSandboxLines = (output: string) => output.match(/offline SANDBOX/g)?.length ?? 0;

describe('the README mount snippets, run as written', () => {
  test('README quotes each example file whole', () => {
    const readme = readFileSync(path.join(root, 'packages', 'backend', 'README.md'), 'utf8');
    for (const file of ['hono-mount.ts', 'node-mount.ts', 'express-mount.ts', 'fetch-handler.ts']) {
      const source = readFileSync(path.join(examples, file), 'utf8').trim();
      assert.ok(
        readme.includes(`\`\`\`ts\n${source}\n\`\`\``),
        `README does not quote docs/examples/${file} as it is`,
      );
    }
  });

  for (const [file, mount] of [
    ['hono-mount.ts', '/checkout'],
    ['node-mount.ts', ''],
    ['express-mount.ts', '/checkout'],
  ] as const) {
    test(`${file}: orders under the mount, its payment link on the served port, the envelope, SANDBOX said once`, async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}${mount}`;
      const example = await runExample(
        file,
        { PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir() },
        `${base}/healthz`,
      );
      try {
        const created = await shopUnder(base);
        // The payment page is the mounted sandbox's, at the address being served.
        assert.ok(created.link?.startsWith(`${base}/sandbox/pay/`), created.link);
        assert.equal((await fetch(created.link ?? '')).status, 200);
        assert.equal(countSandboxLines(example.output()), 1, example.output());
      } finally {
        await example.stop();
      }
    });
  }

  test('fetch-handler.ts: the exported GET and POST serve whole URLs under PUBLIC_URL', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/checkout`;
    const example = await runExample(
      '../../packages/backend/test/fixtures/serve-route-handler.ts',
      { PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir() },
      `${base}/healthz`,
    );
    try {
      const created = await shopUnder(base);
      assert.equal((await fetch(created.link ?? '')).status, 200);
      assert.equal(countSandboxLines(example.output()), 1, example.output());
    } finally {
      await example.stop();
    }
  });
});

describe('fetch-handler.ts hands the client address in: each client is its own', () => {
  const adminToken = 'mount-admin-token-0123456789abcdef';
  const shopper = '127.0.0.2';
  const other = '127.0.0.3';

  test("one client's 10 wrong tokens and 125 requests leave another alone; the audit names the client", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/checkout`;
    const example = await runExample(
      '../../packages/backend/test/fixtures/serve-route-handler.ts',
      { PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir(), ADMIN_TOKEN: adminToken },
      `${base}/healthz`,
    );
    const whoAmI = (from: string, token: string) =>
      requestFrom(from, `${base}/api/admin/credential`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((answer) => answer.status);
    try {
      for (let i = 0; i < 10; i += 1)
        assert.equal(await whoAmI(shopper, `wrong-${i}`), 401, `guess ${i + 1}`);
      assert.equal(await whoAmI(shopper, 'wrong-11'), 429);
      assert.equal(await whoAmI(other, 'wrong-elsewhere'), 401);
      assert.equal(await whoAmI(other, adminToken), 200);
      assert.equal(await whoAmI(shopper, adminToken), 200, 'a right credential is never kept out');

      const statuses: number[] = [];
      for (let n = 0; n < 125; n += 1)
        statuses.push((await requestFrom(shopper, `${base}/api/products`)).status);
      assert.ok(statuses.indexOf(429) >= 120, `refused from request ${statuses.indexOf(429) + 1}`);
      assert.equal((await requestFrom(other, `${base}/api/products`)).status, 200);

      // The other client lifts the shopper's count: audited under its own address.
      const lift = await requestFrom(other, `${base}/api/admin/lockouts/${shopper}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      assert.equal(lift.status, 200, lift.body);
      assert.equal(await whoAmI(shopper, 'wrong-after'), 401);
      const audit = await requestFrom(other, `${base}/api/admin/audit?limit=1`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const [entry] = (JSON.parse(audit.body) as { entries: Array<{ action: string; clientIp: string }> })
        .entries;
      assert.deepEqual(entry && { action: entry.action, clientIp: entry.clientIp }, {
        action: `DELETE /api/admin/lockouts/${shopper}`,
        clientIp: other,
      });
    } finally {
      await example.stop();
    }
  });
});

describe('Express with express.json() ahead of the checkout', () => {
  async function expressApp(parser: express.RequestHandler) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/checkout`;
    const checkout = await createCheckout(
      loadConfig({ PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir() }),
    );
    const app = express();
    app.use(parser);
    app.use('/checkout', getRequestListener(checkout.fetch));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
    });
    return {
      base,
      secret: checkout.config.payments.webhookSecret,
      close: async () => {
        await new Promise((resolve) => server.close(resolve));
        await checkout.close();
      },
    };
  }

  const postJson = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
      body,
    });

  test('with no raw body kept, an order and a webhook are refused naming the cause and the fix', async () => {
    const host = await expressApp(express.json());
    try {
      for (const url of [`${host.base}/api/orders`, `${host.base}/api/webhooks/payments`]) {
        const body = JSON.stringify({ product: 'ember-mug' });
        const response = await postJson(url, body, { 'x-swapped-signature': sign(host.secret, body) });
        assert.equal(response.status, 500);
        const { error } = (await response.json()) as { error: { code: string; message: string } };
        assert.equal(error.code, 'BODY_ALREADY_READ');
        assert.match(error.message, /express\.json\(\)/);
        assert.match(error.message, /before the body parser/);
        assert.match(error.message, /rawBody/);
      }
    } finally {
      await host.close();
    }
  });

  test('with req.rawBody kept, orders work and webhook signatures are checked over the bytes sent', async () => {
    const host = await expressApp(
      express.json({
        verify: (req, _res, buf) => {
          (req as unknown as { rawBody: Buffer }).rawBody = buf;
        },
      }),
    );
    try {
      const order = await postJson(`${host.base}/api/orders`, JSON.stringify({ product: 'ember-mug' }));
      assert.equal(order.status, 201);
      // Spacing a parser would not keep: a signature over re-serialised JSON would not match these bytes.
      const body = '{ "eventId" : "evt-mount-1",  "event": "ORDER_CREATED", "orderId": "nope" }';
      const good = await postJson(`${host.base}/api/webhooks/payments`, body, {
        'x-swapped-signature': sign(host.secret, body),
      });
      assert.equal(good.status, 200, await good.clone().text());
      const forged = await postJson(`${host.base}/api/webhooks/payments`, body, {
        'x-swapped-signature': sign('not-the-secret', body),
      });
      assert.equal(forged.status, 401);
      const resigned = await postJson(`${host.base}/api/webhooks/payments`, body, {
        'x-swapped-signature': sign(host.secret, JSON.stringify(JSON.parse(body))),
      });
      assert.equal(resigned.status, 401);
    } finally {
      await host.close();
    }
  });
});
