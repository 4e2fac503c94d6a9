/**
 * The database or Redis away: at start the process names what it cannot reach and exits non-zero; while
 * running, requests that need the database get 503 SERVICE_UNAVAILABLE in the envelope, nothing crashes, and
 * service comes back with the database.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { createSqlStore } from '../src/store/sql-store.ts';
import { createOrder, productsFile } from './order-fixtures.ts';
import { createDatabase, freePort, type Postgres, startPostgres, waitFor } from './servers.ts';
import { type Stack, startStack } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Runs the CLI to its end; its exit code and what it printed. */
function runCli(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env['PATH'] ?? '', PORT: '0', ACCESS_LOG: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('a database or Redis that is down at start', () => {
  before(() => ensurePackagesBuilt());

  test('PostgreSQL: the message names it, the exit code is not 0', async () => {
    const port = await freePort();
    const { code, output } = await runCli({ DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/shop` });
    assert.notEqual(code, 0);
    assert.match(
      output,
      new RegExp(`database \\(PostgreSQL at 127\\.0\\.0\\.1:${port}/shop\\) cannot be reached`),
    );
    assert.match(output, /Check DATABASE_URL/);
    assert.doesNotMatch(output, /hunter2/, 'the password is never printed');
    assert.doesNotMatch(output, /listening/);
  });

  test('Redis: the message names it, the exit code is not 0', async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-outage-'));
    const { code, output } = await runCli({ REDIS_URL: `redis://127.0.0.1:${port}`, DATA_DIR: dataDir });
    await rm(dataDir, { recursive: true, force: true });
    assert.notEqual(code, 0);
    assert.match(output, /Redis \(REDIS_URL\) cannot be reached/);
    assert.match(output, /Check REDIS_URL/);
  });
});

test('`migrate` brings the database to the current schema and exits 0', async () => {
  ensurePackagesBuilt();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-migrate-'));
  try {
    const { code, output } = await runCli({ DATA_DIR: dataDir }, ['migrate']);
    assert.equal(code, 0, output);
    assert.match(output, /SQLite at .*crypto-checkout\.sqlite: applied \d+ migration\(s\)/);
    const store = await createSqlStore({ dataDir });
    assert.deepEqual(await store.values('orders'), []);
    await store.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe('PostgreSQL going away while the backend runs', () => {
  let postgres: Postgres;
  let stack: Stack;
  before(async () => {
    postgres = await startPostgres();
    const url = await createDatabase(postgres, 'outage');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-outage-'));
    const store = await createSqlStore({ databaseUrl: url, dataDir });
    stack = await startStack({ store, env: { PRODUCTS_FILE: productsFile } });
  });
  after(async () => {
    await stack?.close();
    await postgres?.stop();
  });

  test('503 SERVICE_UNAVAILABLE in the envelope, no crash, and service again once it is back', async () => {
    const created = await createOrder(stack);
    const read = () => stack.api(`/api/orders/${created.orderId}?token=${created.statusToken}`);
    assert.equal((await read()).status, 200);

    await postgres.halt();
    try {
      const during = await read();
      assert.equal(during.status, 503);
      assert.ok(during.headers.get('retry-after'));
      const body = (await during.json()) as { error: { code: string; message: string; requestId: string } };
      assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
      assert.ok(body.error.requestId);
      assert.doesNotMatch(body.error.message, /127\.0\.0\.1|postgres/i, 'no address leaks to clients');
      // Creating is refused the same way (and leaves nothing half-done to clean up).
      const refused = await stack.api('/api/orders', {
        method: 'POST',
        headers: { origin: 'https://shop.example', 'idempotency-key': 'outage-key-1' },
        json: { product: 'hoodie' },
      });
      assert.equal(refused.status, 503);
      // Routes that need no database still answer.
      assert.equal((await stack.api('/healthz')).status, 200);
    } finally {
      await postgres.start();
    }
    // Back: the pool reconnects by itself (awaited as a condition).
    // Until then a read is 503; any other status ends the wait and fails below.
    let status = 0;
    await waitFor(async () => {
      const response = await read();
      await response.body?.cancel();
      status = response.status;
      if (status === 503) throw new Error('still 503');
    }, 'orders readable again after PostgreSQL came back');
    assert.equal(status, 200);
    const again = await stack.api('/api/orders', {
      method: 'POST',
      headers: { origin: 'https://shop.example', 'idempotency-key': 'outage-key-1' },
      json: { product: 'hoodie' },
    });
    assert.equal(again.status, 201);
  });
});
