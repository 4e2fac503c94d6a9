/**
 * A backend killed while it makes an order (SIGKILL: nothing in hand is finished) leaves that order's
 * Idempotency-Key claimed. The shopper's retry, with the same key as the element sends it, is answered by the next
 * process with the one order the killed process was making, once that process's upstream call has had its time
 * (twice UPSTREAM_TIMEOUT_MS), rather than "still in progress" until the claim is two minutes old.
 * The built CLI as a merchant runs it (SQLite in one DATA_DIR), the sandbox as its upstream with its clock pinned,
 * so the killed process's order creation is held upstream until the test lets it through.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { type CliProcess, startCli } from './cli-process.ts';
import { waitFor } from './servers.ts';
import { sandboxUpstreamEnv, testSecrets } from './support.ts';

const shop = 'https://shop.example';
let sandboxServer: ServerType;
let sandboxUrl: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-takeover-'));
const running: CliProcess[] = [];

before(async () => {
  let sandbox: ReturnType<typeof createSandbox> | undefined;
  const port = await new Promise<number>((resolve) => {
    sandboxServer = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: (request) => (sandbox as NonNullable<typeof sandbox>).app.fetch(request),
      },
      (info) => resolve((info as AddressInfo).port),
    );
  });
  sandboxUrl = `http://127.0.0.1:${port}`;
  sandbox = createSandbox({ baseUrl: sandboxUrl });
});

after(async () => {
  for (const cli of running) await cli.stop();
  await new Promise((resolve) => sandboxServer.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const control = async (pathname: string, body?: unknown) => {
  const response = await fetch(`${sandboxUrl}/control${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  assert.ok(response.ok, `${pathname}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: unknown }).data;
};

const backend = async () => {
  const cli = await startCli({
    ...sandboxUpstreamEnv(sandboxUrl),
    DATA_DIR: dataDir,
    ALLOWED_ORIGINS: shop,
    UPSTREAM_TIMEOUT_MS: '1500',
  });
  running.push(cli);
  return cli;
};

const postOrder = (cli: CliProcess, key: string) =>
  fetch(`${cli.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop, 'idempotency-key': key },
    body: JSON.stringify({ product: 'hoodie', returnUrl: `${shop}/thanks` }),
  });

test('a retry after the process making its order was killed gets that one order, within seconds', {
  timeout: 60_000,
}, async () => {
  const key = `takeover-${randomUUID()}`;
  const first = await backend();
  // The upstream holds the order creation until its clock moves: the process is killed with the call in flight.
  await control('/clock', { now: Date.now() });
  await control('/faults', { route: '/pay-api*', method: 'POST', latencyMs: 60_000, times: 1 });
  const lost = postOrder(first, key).catch((error: unknown) => error);
  await waitFor(async () => {
    const pending = (await control('/pending')) as { onSandboxClock: Array<{ what: string }> };
    assert.ok(pending.onSandboxClock.some((entry) => entry.what.startsWith('latency POST /pay-api')));
  }, 'the order creation held upstream');
  await first.kill();
  assert.ok((await lost) instanceof Error, 'the killed process never answered');
  // The upstream finishes what it was asked, as a real one does when its caller has gone.
  await control('/clock', { advanceMs: 60_000 });
  await control('/clock', { reset: true });

  const second = await backend();
  const answers: number[] = [];
  let order: { orderId: string; link: string } | undefined;
  await waitFor(
    async () => {
      const response = await postOrder(second, key);
      answers.push(response.status);
      const body = await response.text();
      assert.notEqual(response.status, 409, body);
      assert.equal(response.status, 201, body);
      order = JSON.parse(body);
    },
    'the retry answered with an order',
    20_000,
  );
  assert.ok(order);
  // Refused only while the killed process's upstream call could still have been under way.
  assert.deepEqual(
    [...new Set(answers.slice(0, -1))].filter((status) => status !== 409),
    [],
  );

  // One order upstream for it: the one the killed process asked for, found rather than made again.
  const listed = await fetch(
    `${sandboxUrl}/pay-api/v1/merchants/orders?searchId=${encodeURIComponent(order.orderId)}&limit=100`,
    { headers: { 'x-api-key': testSecrets.payApiKey } },
  );
  const { data } = (await listed.json()) as { data: { orders: Array<{ externalId?: string }> } };
  assert.equal(data.orders.filter((upstream) => upstream.externalId === order?.orderId).length, 1);

  // The same key again is the same order, replayed.
  const replay = await postOrder(second, key);
  assert.equal(replay.status, 200);
  assert.equal(((await replay.json()) as { orderId: string }).orderId, order.orderId);
});
