/**
 * `listen` and `trigger`, as a developer runs them on a laptop: the built CLI serving a sandbox backend, `listen
 * --forward-to` a receiver of the test's own (a Node HTTP server verifying each request with the Standard Webhooks
 * library and the secret `listen` printed), `trigger order.paid` producing the real event; the backend restarted
 * under it; a wrong credential or no backend refused in one sentence. And the event stream itself over HTTP.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { Webhook } from 'standardwebhooks';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { type CliProcess, cliCommand, startCli } from './cli-process.ts';
import { liveEnv } from './config-env.ts';
import { freePort, waitFor } from './servers.ts';
import { fixtureProductsFile } from './support.ts';

const writeToken = 'listen-test-write-token-0123456789';
const readToken = 'listen-test-read-token-0123456789';
const credentials = `ops:write:${tokenSha256(writeToken)},support:read:${tokenSha256(readToken)}`;

interface Run {
  lines(): string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  child: ChildProcess;
}

/** One run of the built CLI in `cwd` with only `env` (and PATH), its stdout and stderr kept line by line. */
function runCli(args: string[], cwd: string, env: Record<string, string> = {}): Run {
  const [command, ...rest] = cliCommand('node');
  const child = spawn(command, [...rest, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { lines: () => text.split('\n').filter(Boolean), exited, child };
}

interface Delivery {
  headers: Record<string, string>;
  body: string;
  type: string;
  orderId: string | undefined;
}

/** A developer's receiver: verifies every request with the secret `listen` printed (given once known). */
async function startReceiver() {
  let verifier: Webhook | undefined;
  const verified: Delivery[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      try {
        if (!verifier) throw new Error('no secret yet');
        const event = verifier.verify(body, request.headers as Record<string, string>) as {
          type: string;
          data: { orderId?: string };
        };
        verified.push({
          headers: request.headers as Record<string, string>,
          body,
          type: event.type,
          orderId: event.data.orderId,
        });
        response.writeHead(204).end();
      } catch (error) {
        refused.push((error as Error).message);
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    verified,
    refused,
    useSecret(secret: string) {
      verifier = new Webhook(secret);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The first `count` messages of the admin event stream at `query`, then it is closed. */
async function streamMessages(url: string, token: string, query: string, count: number) {
  const stop = new AbortController();
  const response = await fetch(`${url}/api/admin/events/stream${query}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: stop.signal,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const messages: Array<{ id?: string | undefined; event?: string | undefined; data: string }> = [];
  const parsed = response.body
    ?.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  assert.ok(parsed);
  for await (const message of parsed) {
    messages.push(message);
    if (messages.length === count) break;
  }
  stop.abort();
  return messages;
}

describe('listen and trigger against a sandbox backend', () => {
  let backend: CliProcess;
  let cwd: string;
  let dataDir: string;
  let port: number;
  const backendEnv = () => ({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ADMIN_TOKEN: writeToken,
    ADMIN_CREDENTIALS: credentials,
  });

  before(async () => {
    cwd = mkdtempSync(path.join(tmpdir(), 'cc-listen-'));
    dataDir = path.join(cwd, '.data');
    port = await freePort();
    backend = await startCli(backendEnv());
    // The developer's .env: where the backend is and the admin token, as the backend itself reads them.
    writeFileSync(
      path.join(cwd, '.env'),
      `PORT=${port}\nPUBLIC_URL=http://127.0.0.1:${port}\nADMIN_TOKEN=${writeToken}\nPRODUCTS_FILE=${fixtureProductsFile}\n`,
    );
  });
  after(async () => {
    await backend.stop();
    rmSync(cwd, { recursive: true, force: true });
  });

  test('listen forwards a triggered order.paid, signed with the secret it printed, and carries on across a restart', async () => {
    const receiver = await startReceiver();
    const listen = runCli(['listen', '--forward-to', receiver.url], cwd);
    try {
      let secret = '';
      await waitFor(async () => {
        const line = listen.lines().find((candidate) => /signing secret is whsec_/.test(candidate));
        secret = line?.match(/(whsec_\S+)/)?.[1] ?? '';
        assert.ok(secret, `listen printed its secret: ${listen.lines().join('\n')}`);
      }, 'listen ready');
      receiver.useSecret(secret);

      const trigger = runCli(['trigger', 'order.paid', '--url', backend.url, '--token', writeToken], cwd);
      assert.equal(await trigger.exited, 0, trigger.lines().join('\n'));
      const said = trigger
        .lines()
        .join('\n')
        .match(/Triggered order\.paid: event (\S+) for order (\S+)\./);
      assert.ok(said, trigger.lines().join('\n'));
      const [, eventId, orderId] = said;

      await waitFor(async () => {
        const paid = receiver.verified.filter((d) => d.type === 'order.paid' && d.orderId === orderId);
        assert.equal(paid.length, 1, 'one verified order.paid for the order');
        assert.equal(paid[0]?.headers['webhook-id'], eventId);
        assert.ok(
          listen
            .lines()
            .some(
              (line) =>
                line.includes(`order.paid`) &&
                line.includes(eventId ?? '') &&
                line.includes(`order ${orderId}`) &&
                line.includes('-> 204'),
            ),
          listen.lines().join('\n'),
        );
      }, 'the receiver got the order.paid');
      assert.deepEqual(receiver.refused, []);

      // The backend restarts (same port and data): listen says so, reconnects, and the next event arrives too.
      await backend.stop();
      await waitFor(
        async () => assert.ok(listen.lines().some((line) => line.includes('lost the connection'))),
        'listen saw the backend go',
      );
      backend = await startCli(backendEnv());
      await waitFor(
        async () => assert.ok(listen.lines().some((line) => line.startsWith('Reconnected to '))),
        'listen reconnected',
      );
      // A read credential is enough for trigger: it writes nothing through the admin API.
      const again = runCli(['trigger', 'order.expired', '--url', backend.url, '--token', readToken], cwd);
      assert.equal(await again.exited, 0, again.lines().join('\n'));
      const expiredOrder = again
        .lines()
        .join('\n')
        .match(/for order (\S+)\./)?.[1];
      await waitFor(async () => {
        assert.equal(
          receiver.verified.filter((d) => d.type === 'order.expired' && d.orderId === expiredOrder).length,
          1,
        );
      }, 'the receiver got the order.expired after the restart');
      // Nothing it had forwarded before the restart was forwarded again.
      assert.equal(
        receiver.verified.filter((d) => d.type === 'order.paid' && d.orderId === orderId).length,
        1,
      );

      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0, 'Ctrl-C ends listen with 0');
    } finally {
      listen.child.kill('SIGKILL');
      await receiver.close();
    }
  });

  test('trigger deposit.received mints a customer token, asks the backend for its address and pays into it', async () => {
    // From the developer's .env: the same configuration (CHECKOUT_TOKEN_SECRET) the backend reads.
    const run = runCli(['trigger', 'deposit.received'], cwd);
    const code = await run.exited;
    const text = run.lines().join('\n');
    assert.equal(code, 0, text);
    const address = /Deposit address (0x[0-9a-f]{40}) \(base\) for customer (trigger-[0-9a-f-]+)\./.exec(
      text,
    );
    assert.ok(address, text);
    const said = /Triggered deposit\.received: event (\S+) for customer/.exec(text);
    assert.ok(said, text);
    const listed = (await (
      await fetch(`${backend.url}/api/admin/events?limit=50`, {
        headers: { authorization: `Bearer ${readToken}` },
      })
    ).json()) as { events: Array<{ id: string; type: string; payload: { data: Record<string, unknown> } }> };
    const event = listed.events.find((candidate) => candidate.id === said[1]);
    assert.equal(event?.type, 'deposit.received');
    assert.equal(event?.payload.data['address'], address[1]);
    assert.equal(event?.payload.data['customerId'], address[2]);
    assert.equal(event?.payload.data['crypto'], 'USDC');
  });

  test('a wrong token, no backend, and an event trigger cannot make are each refused in one sentence naming the fix', async () => {
    const wrong = runCli(
      ['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--token', 'not-a-token-at-all-0123'],
      cwd,
    );
    assert.equal(await wrong.exited, 1);
    assert.match(
      wrong.lines().join('\n'),
      /refused the admin credential \(401\): pass the right token with --token/,
    );

    const nobody = `http://127.0.0.1:${await freePort()}`;
    const away = runCli(
      ['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--url', nobody, '--token', writeToken],
      cwd,
    );
    assert.equal(await away.exited, 1);
    assert.match(away.lines().join('\n'), new RegExp(`Cannot reach the backend at ${nobody}.*: start it`));

    const ramp = runCli(['trigger', 'ramp.completed'], cwd);
    assert.equal(await ramp.exited, 1);
    assert.match(ramp.lines().join('\n'), /trigger cannot produce ramp\.completed honestly: /);
  });

  test('trigger refuses in live mode (upstream keys configured) before making anything', async () => {
    const live = mkdtempSync(path.join(tmpdir(), 'cc-listen-live-'));
    try {
      const run = runCli(['trigger', 'order.paid'], live, liveEnv);
      const code = await run.exited;
      const text = run.lines().join('\n');
      assert.equal(code, 1, text);
      assert.match(text, /runs with upstream keys \(live mode\): trigger only drives the offline sandbox/);
    } finally {
      rmSync(live, { recursive: true, force: true });
    }
  });

  test('the event stream: a read credential may follow it, none is 401, ?last=N sends the N newest first', async () => {
    const none = await fetch(`${backend.url}/api/admin/events/stream`);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED');

    const listed = (await (
      await fetch(`${backend.url}/api/admin/events?limit=3`, {
        headers: { authorization: `Bearer ${readToken}` },
      })
    ).json()) as { events: Array<{ id: string; type: string; payload: unknown }> };
    assert.equal(listed.events.length, 3, 'the earlier tests made at least 3 events');
    const newest = [...listed.events].reverse();
    const messages = await streamMessages(backend.url, readToken, '?last=3', 3);
    assert.deepEqual(
      messages.map((m) => [m.event, m.id]),
      newest.map((e) => [e.type, e.id]),
    );
    // The data is the event exactly as a webhook receiver gets it as its body.
    assert.deepEqual(JSON.parse(messages[2]?.data ?? ''), newest[2]?.payload);

    const refused = await fetch(`${backend.url}/api/admin/events/stream?events=order.shipped`, {
      headers: { authorization: `Bearer ${readToken}` },
    });
    assert.equal(refused.status, 422);
  });
});
