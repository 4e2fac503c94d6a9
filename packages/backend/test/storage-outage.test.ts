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
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import { createOutbox } from '../src/events/outbox.ts';
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

describe('the delivery worker while PostgreSQL is away', () => {
  let postgres: Postgres;
  let store: Awaited<ReturnType<typeof createSqlStore>>;
  before(async () => {
    postgres = await startPostgres();
    const url = await createDatabase(postgres, 'worker_outage');
    store = await createSqlStore({ databaseUrl: url, dataDir: '/nonexistent-postgres-is-used' });
  });
  after(async () => {
    await store?.close();
    await postgres?.stop();
  });

  test('warns at once, then at growing intervals with a count of those held back, and says when it is back', {
    timeout: 120_000,
  }, async () => {
    let now = Date.parse('2026-11-28T12:00:00Z');
    const clock = { now: () => now };
    const warnings: string[] = [];
    const infos: string[] = [];
    const worker = createDeliveryWorker({
      outbox: createOutbox(store, () => []),
      clock,
      secrets: undefined,
      pollMs: 5,
      log: (line) => warnings.push(line),
      logRecovery: (line) => infos.push(line),
    });
    /** Waits for a pass to end after this call (a failed one counts). */
    const nextPass = async () => {
      const { lastPassEndedAt } = worker.liveness();
      await waitFor(async () => {
        assert.ok(worker.liveness().lastPassEndedAt > lastPassEndedAt, 'no pass ended yet');
      }, 'a delivery pass');
    };
    worker.start();
    try {
      await nextPass();
      assert.equal(warnings.length, 0, 'nothing to say while the database answers');
      await postgres.halt();
      // 90 s of outage, one second of the worker's clock per pass: a warning a second before.
      for (let second = 0; second <= 90; second += 1) {
        await nextPass();
        now += 1000;
      }
      const failing = warnings.filter((line) => line.startsWith('[events] delivery pass failed'));
      // At once, then after 10, 20 and 40 s more (t = 0, 10, 30, 70 s): four lines, not ninety.
      assert.equal(failing.length, 4, failing.join('\n'));
      assert.doesNotMatch(failing[0] as string, /held back/);
      assert.match(
        failing[1] as string,
        /failing for 1\d s; \d+ more like it held back since the last warning/,
      );
      assert.match(failing[3] as string, /failing for 7\d s/);
      assert.equal(infos.length, 0);
      // Started again here, and only here: a failure above leaves it halted for `after` to remove.
      await postgres.start();
      await waitFor(
        async () => {
          now += 1000;
          assert.equal(infos.length, 1, 'no recovery line yet');
        },
        'the recovery line',
        60_000,
      );
      assert.match(
        String(infos.at(0)),
        /^\[events\] the database is reachable again after \d+ s \(\d+ failed attempts\)$/,
      );
      // Back for good: no more warnings.
      const said = warnings.length;
      await nextPass();
      await nextPass();
      assert.equal(warnings.length, said);
    } finally {
      await worker.stop();
    }
  });
});
