/**
 * One sandbox for several instances (README "Running several instances"): the sandbox package's own command,
 * `crypto-checkout-sandbox`, run as a process with a data directory; two backend instances (the built CLI) on one
 * PostgreSQL pointed at it. A payment link made through one instance is opened and followed through the other,
 * and after the sandbox restarts the order, the payment route and the payment are still there.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { type Created, newKey, productsFile } from './order-fixtures.ts';
import { createDatabase, freePort, type Postgres, startPostgres, waitFor } from './servers.ts';
import { allowedOrigin, sandboxUpstreamEnv } from './support.ts';

const backendCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const sandboxCli = fileURLToPath(new URL('../../sandbox/dist/cli.js', import.meta.url));

interface Proc {
  start(): Promise<void>;
  stop(): Promise<number | null>;
  output(): string;
}

function proc(file: string, args: string[], env: Record<string, string>, ready: string): Proc {
  let child: ChildProcess | undefined;
  let output = '';
  return {
    output: () => output,
    async start() {
      const started = spawn(process.execPath, [file, ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      started.stdout?.on('data', (chunk) => (output += chunk));
      started.stderr?.on('data', (chunk) => (output += chunk));
      await waitFor(
        async () => {
          if (started.exitCode !== null) throw new Error(`exited ${started.exitCode}: ${output}`);
          const response = await fetch(ready);
          if (!response.ok) throw new Error(`${response.status}`);
        },
        `${path.basename(file)} ready at ${ready}`,
        60_000,
      );
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null)
        return running?.exitCode ?? null;
      return new Promise((resolve) => {
        running.once('exit', (code) => resolve(code));
        running.kill('SIGTERM');
      });
    },
  };
}

let postgres: Postgres;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shared-sandbox-'));
  dirs.push(dir);
  return dir;
};
const running: Proc[] = [];

before(async () => {
  ensurePackagesBuilt();
  postgres = await startPostgres();
});
after(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('a payment link made through one instance opens through another, and survives a sandbox restart', async () => {
  const databaseUrl = await createDatabase(postgres, 'shared_sandbox');
  const [sandboxPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort()]);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const [urlA, urlB] = [portA, portB].map((port) => `http://127.0.0.1:${port}`) as [string, string];
  const sandboxData = tempDir();
  const sandbox = proc(
    sandboxCli,
    [
      '--port',
      String(sandboxPort),
      '--base-url',
      sandboxUrl,
      '--data-dir',
      sandboxData,
      '--webhook-url',
      `${urlB}/api/webhooks/payments`,
    ],
    {},
    `${sandboxUrl}/control/pending`,
  );
  running.push(sandbox);
  await sandbox.start();
  assert.match(sandbox.output(), /state kept in/);
  const instance = (port: number, url: string) =>
    proc(
      backendCli,
      [],
      {
        PORT: String(port),
        PUBLIC_URL: url,
        ALLOWED_ORIGINS: allowedOrigin,
        ...sandboxUpstreamEnv(sandboxUrl),
        PRODUCTS_FILE: productsFile,
        DATA_DIR: tempDir(),
        DATABASE_URL: databaseUrl,
        ACCESS_LOG: 'off',
      },
      `${url}/healthz`,
    );
  const a = instance(portA, urlA);
  const b = instance(portB, urlB);
  running.push(a, b);
  await a.start();
  await b.start();

  const response = await fetch(`${urlA}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: allowedOrigin, 'idempotency-key': newKey() },
    body: JSON.stringify({ product: 'hoodie' }),
  });
  const created = (await response.json()) as Created;
  assert.equal(response.status, 201, JSON.stringify(created));
  assert.ok(created.link.startsWith(`${sandboxUrl}/pay/`), created.link);
  const upstreamId = new URL(created.link).pathname.split('/').pop() ?? '';

  // Through the other instance: the order is known and its payment page opens.
  const readB = () =>
    fetch(`${urlB}/api/orders/${created.orderId}`, { headers: { 'x-status-token': created.statusToken } });
  assert.equal((await readB()).status, 200);
  assert.equal((await fetch(created.link)).status, 200);

  // The sandbox restarts: the order is still there, and paying it reaches instance B as a webhook.
  assert.equal(await sandbox.stop(), 0);
  await sandbox.start();
  const kept = await fetch(`${sandboxUrl}/control/orders/${upstreamId}`);
  assert.equal(kept.status, 200, await kept.clone().text());
  assert.equal((await fetch(created.link)).status, 200);
  const paid = await fetch(`${sandboxUrl}/control/orders/${upstreamId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'exact' }),
  });
  assert.equal(paid.status, 200, await paid.clone().text());
  await waitFor(async () => {
    const view = (await (await readB()).json()) as { status: string };
    if (view.status !== 'paid') throw new Error(view.status);
  }, 'the order paid, as instance B hears it');
  // And through A, which shares the ledger.
  const viewA = (await (
    await fetch(`${urlA}/api/orders/${created.orderId}`, {
      headers: { 'x-status-token': created.statusToken },
    })
  ).json()) as { status: string };
  assert.equal(viewA.status, 'paid');
});
