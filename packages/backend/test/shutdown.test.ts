/**
 * Graceful shutdown of the built CLI, with a real process and a real SIGTERM: readiness fails at once while
 * requests are still served, a request in flight when the server stops accepting still gets its answer, an open
 * status stream ends with a retry hint, each step is logged, and the process exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { cliCommand } from './cli-process.ts';
import { type Created, newKey, productsFile } from './order-fixtures.ts';
import { freePort, waitFor } from './servers.ts';
import { allowedOrigin } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'shutdown-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** A sandbox control call and an order creation, on the backend at `base`. */
const calls = (base: string) => ({
  control: (p: string, body: unknown) =>
    fetch(`${base}/sandbox/control${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  order: (key: string) =>
    fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: allowedOrigin, 'idempotency-key': key },
      body: JSON.stringify({ product: 'hoodie' }),
    }),
});

// On each runtime the built CLI is meant to run on: Bun and Deno deliver SIGTERM to the same handler.
for (const runtime of ['node', 'bun', 'deno'] as const)
  test(`${runtime}: SIGTERM: /readyz fails, requests still served, in-flight finishes, streams end with retry:, exit 0`, async () => {
    ensurePackagesBuilt();
    const [command, ...args] = cliCommand(runtime);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        PUBLIC_URL: base,
        ALLOWED_ORIGINS: allowedOrigin,
        PRODUCTS_FILE: productsFile,
        DATA_DIR: mkdtempSync(path.join(dataDir, `${runtime}-`)),
        ACCESS_LOG: 'off',
        SHUTDOWN_DRAIN_MS: '3000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    try {
      await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`exited: ${output}`);
        assert.equal((await fetch(`${base}/readyz`)).status, 200);
      }, 'ready');
      const { control, order } = calls(base);
      const created = (await (await order(newKey())).json()) as Created;
      // A status stream, open across the shutdown.
      const stream = await fetch(`${base}/api/orders/${created.orderId}/events?token=${created.statusToken}`);
      assert.equal(stream.status, 200);
      const streamText = stream.text();
      // An order creation held at the upstream (sandbox clock pinned, latency on its create call): in flight.
      assert.equal((await control('/clock', { now: Date.now() })).status, 200);
      assert.equal(
        (await control('/faults', { route: '/pay-api/v1/orders', method: 'POST', latencyMs: 60_000 })).status,
        200,
      );
      const inFlight = order(newKey());
      await waitFor(async () => {
        const pending = (await (await fetch(`${base}/sandbox/control/pending`)).json()) as unknown;
        if (!JSON.stringify(pending).includes('latency')) throw new Error(JSON.stringify(pending));
      }, 'the creation waiting at the upstream');

      child.kill('SIGTERM');
      await waitFor(async () => {
        assert.equal((await fetch(`${base}/readyz`)).status, 503);
      }, 'readiness failing');
      // Still served while draining.
      assert.equal((await fetch(`${base}/api/products`, { headers: { origin: allowedOrigin } })).status, 200);
      // The request in flight when SIGTERM came is answered (let go while the drain still accepts the control call).
      assert.equal((await control('/clock', { advanceMs: 120_000 })).status, 200);
      assert.equal((await inFlight).status, 201);
      // The stream ends once the server stops accepting, with the retry hint last.
      assert.match(await streamText, /retry: 1000\n\n$/);
      // Logged as it happens (lines go out within 250 ms).
      await waitFor(async () => {
        assert.match(output, /no new connections accepted/);
      }, 'the stop logged');
      assert.equal(await exited, 0, output);
      for (const line of [
        /SIGTERM: \/readyz answers 503/,
        /ended 1 status stream\(s\) with a retry hint/,
        /in-flight requests finished/,
        /delivery worker stopped/,
        /exiting 0/,
      ]) {
        assert.match(output, line);
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

test('past SHUTDOWN_TIMEOUT_MS: exit 1, the last line naming the request and the delivery it cut', async () => {
  ensurePackagesBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // A merchant receiver that never answers: the order's event stays in flight.
  const hung = createServer(() => undefined);
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const receiverPort = (hung.address() as AddressInfo).port;
  const child = spawn(process.execPath, [cli], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      PUBLIC_URL: base,
      ALLOWED_ORIGINS: allowedOrigin,
      PRODUCTS_FILE: productsFile,
      DATA_DIR: mkdtempSync(path.join(dataDir, 'forced-')),
      ACCESS_LOG: 'off',
      LOG_FORMAT: 'json',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '2000',
      MERCHANT_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/hooks`,
      MERCHANT_WEBHOOK_SECRET: 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const received = new Promise<void>((resolve) => hung.once('request', () => resolve()));
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`exited: ${output}`);
      assert.equal((await fetch(`${base}/readyz`)).status, 200);
    }, 'ready');
    const { control, order } = calls(base);
    assert.equal((await order(newKey())).status, 201);
    await received;
    // A second creation held at the upstream for a minute: in flight when the timeout ends the process.
    assert.equal((await control('/clock', { now: Date.now() })).status, 200);
    assert.equal(
      (await control('/faults', { route: '/pay-api/v1/orders', method: 'POST', latencyMs: 60_000 })).status,
      200,
    );
    const inFlight = order(newKey()).catch(() => undefined);
    await waitFor(async () => {
      const pending = (await (await fetch(`${base}/sandbox/control/pending`)).json()) as unknown;
      if (!JSON.stringify(pending).includes('latency')) throw new Error(JSON.stringify(pending));
    }, 'the creation waiting at the upstream');

    child.kill('SIGTERM');
    assert.equal(await exited, 1, output);
    await inFlight;
    const last = output.trim().split('\n').pop() as string;
    const line = JSON.parse(last) as { level: string; msg: string; cut: Record<string, number> };
    assert.equal(line.level, 'error');
    assert.match(
      line.msg,
      /not done after SHUTDOWN_TIMEOUT_MS \(2000 ms\): exiting 1, cutting 1 in-flight request, 0 open status streams, 1 event delivery in flight\.$/,
    );
    assert.deepEqual(line.cut, { requests: 1, streams: 0, deliveries: 1 });
  } finally {
    child.kill('SIGKILL');
    hung.closeAllConnections();
    hung.close();
  }
});
