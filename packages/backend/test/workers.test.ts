/**
 * What is particular to the backend on Cloudflare Workers (the HTTP contract, http-contract/workers.test.ts,
 * covers the rest): the variables refused with the command's own messages, the widget bundle and flags
 * arriving as built (already compressed, not compressed again by workerd), the return page, and orders kept
 * across a restart of the runtime.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { widgetBundleFile } from '../src/routes/widget-bundle.ts';
import { createOrder, getStatus, upstreamIdOf, waitFor } from './order-fixtures.ts';
import { allowedOrigin, backendClient, json } from './support.ts';
import { startWorker } from './workers.ts';

describe('the backend on Workers (Miniflare)', () => {
  const stops: Array<() => Promise<void>> = [];
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  test('a variable the command refuses is refused with the same message, naming each problem', async () => {
    const vars = { RAMP_PUBLIC_KEY: 'pk_live_only_one_of_seven' };
    const worker = await startWorker(vars);
    stops.push(worker.stop);
    let expected = '';
    try {
      loadConfig({ ...vars, PUBLIC_URL: worker.url });
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      expected = error.message;
    }
    assert.match(expected, /is missing \(the other upstream variables are set\)/);
    for (const route of ['/api/catalog', '/healthz']) {
      const response = await fetch(`${worker.url}${route}`);
      assert.equal(response.status, 500, route);
      const body = await json<{ error: { code: string; message: string } }>(response);
      assert.equal(body.error.code, 'INTERNAL');
      assert.equal(body.error.message, expected);
    }
  });

  test('the widget bundle, its chunks and the flags arrive byte for byte as built, compressed once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-worker-'));
    const worker = await startWorker({}, { persist: dataDir });
    stops.push(async () => {
      await worker.stop();
      await rm(dataDir, { recursive: true, force: true });
    });
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await fetch(`${worker.url}/widget/crypto-checkout.js`, {
        headers: { 'accept-encoding': encoding },
      });
      assert.equal(response.status, 200, encoding);
      assert.equal(response.headers.get('content-encoding') ?? 'identity', encoding);
      assert.equal(await response.text(), readFileSync(widgetBundleFile, 'utf8'), encoding);
    }
    const loader = readFileSync(widgetBundleFile, 'utf8');
    const chunk = loader.match(/crypto-checkout-[A-Za-z0-9_-]+\.js/)?.[0];
    assert.ok(chunk, 'the loader names a chunk');
    const chunkResponse = await fetch(`${worker.url}/widget/${chunk}`, {
      headers: { 'accept-encoding': 'br' },
    });
    assert.equal(chunkResponse.status, 200);
    assert.equal(
      await chunkResponse.text(),
      readFileSync(path.join(path.dirname(widgetBundleFile), chunk), 'utf8'),
    );
    const flag = await fetch(`${worker.url}/api/flags/de.svg`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(flag.status, 200);
    assert.match(await flag.text(), /^<svg[^>]+id="flag-icons-de"/);
    // The console is not carried by the Worker build (docs/console.md): its page is a 404 that says so.
    const consolePage = await fetch(`${worker.url}/console`);
    assert.equal(consolePage.status, 404);
    assert.match(
      (await json<{ error: { code: string; message: string } }>(consolePage)).error.message,
      /console is not built/,
    );
  });

  test('orders, their status and the return page outlive a restart of the runtime', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cc-worker-'));
    const vars = { ALLOWED_ORIGINS: allowedOrigin };
    let worker = await startWorker(vars, { persist: dataDir });
    stops.push(async () => {
      await worker.stop();
      await rm(dataDir, { recursive: true, force: true });
    });
    let backend = backendClient(worker.url, `${worker.url}/sandbox`);
    const created = await createOrder(backend, { product: 'sticker-pack' });
    await backend.control('POST', `/orders/${upstreamIdOf(created)}/pay`, { kind: 'exact' });
    await waitFor(
      async () => ((await getStatus(backend, created)).status === 'paid' ? true : undefined),
      'the order paid through the sandbox webhook',
      60_000,
    );
    await worker.stop();
    worker = await startWorker(vars, { persist: dataDir });
    backend = backendClient(worker.url, `${worker.url}/sandbox`);
    const view = await getStatus(backend, created);
    assert.equal(view.status, 'paid');
    const ready = await json<{ ready: boolean; storage: { kind: string; database: string } }>(
      await fetch(`${worker.url}/readyz`),
    );
    assert.deepEqual(ready.storage, { kind: 'sqlite', database: 'SQLite in a Durable Object' });
    assert.equal(ready.ready, true);
    const returned = await fetch(`${worker.url}/api/orders/${created.orderId}/return`, {
      redirect: 'manual',
    });
    assert.equal(returned.status, 200);
    assert.match(await returned.text(), /<!doctype html>/i);
  });
});
