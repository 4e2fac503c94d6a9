/**
 * The servers the bench talks to, one role per process (`node --import tsx bench/server.ts <role>`), so the
 * load generator never shares an event loop with what it measures. Each prints `{"url": "http://127.0.0.1:…"}`
 * once it listens on an ephemeral loopback port.
 *
 * - `sandbox`: the upstream simulator, with a counter in front of its ramp API (arrivals and 429s, timestamped)
 *   at `GET /__bench/upstream` (`?reset=1` clears it).
 * - `backend`: in bench/backend.mjs, a plain-JavaScript process running the built backend package.
 * - `proxy`: the pass-through proxy (bench/passthrough-proxy.ts) in front of `BENCH_SANDBOX_URL`.
 *
 * The references `hello` and `same-bytes` run on plain node like the backend: bench/bare.mjs.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createSandbox } from '../packages/sandbox/src/index.ts';
import { benchKeys } from './lib.ts';
import { createPassthroughProxy } from './passthrough-proxy.ts';

type Handler = (request: Request) => Response | Promise<Response>;

function listen(handler: () => Handler): Promise<string> {
  return new Promise((resolve) => {
    serve({ fetch: (request) => handler()(request), port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(`http://127.0.0.1:${(info as AddressInfo).port}`),
    );
  });
}

function sandboxRole(): Promise<string> {
  let url = '';
  let app: Hono | undefined;
  /** performance.now() of each ramp API arrival, and of each 429 answered. */
  let arrivals: number[] = [];
  let throttled: number[] = [];
  const counter = new Hono().get('/__bench/upstream', (c) => {
    const body = { arrivals, throttled, now: performance.now() };
    if (c.req.query('reset')) {
      arrivals = [];
      throttled = [];
    }
    return c.json(body);
  });
  const handler: Handler = async (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/__bench/')) return counter.fetch(request);
    if (!app) return new Response(null, { status: 503 });
    if (!path.startsWith('/ramp/api/v1/merchant/')) return app.fetch(request);
    arrivals.push(performance.now());
    const response = await app.fetch(request);
    if (response.status === 429) throttled.push(performance.now());
    return response;
  };
  return listen(() => handler).then((base) => {
    url = base;
    app = createSandbox({ baseUrl: url }).app as unknown as Hono;
    return url;
  });
}

async function proxyRole(): Promise<string> {
  const sandboxUrl = process.env.BENCH_SANDBOX_URL;
  if (!sandboxUrl) throw new Error('BENCH_SANDBOX_URL is required');
  const app = createPassthroughProxy(`${sandboxUrl}/ramp/api/v1/merchant`, benchKeys.rampPublic);
  return listen(() => app.fetch);
}

const roles: Record<string, () => Promise<string>> = {
  sandbox: sandboxRole,
  proxy: proxyRole,
};

const role = process.argv[2] ?? '';
const start = roles[role];
if (!start) {
  console.error(`usage: bench/server.ts ${Object.keys(roles).join('|')}`);
  process.exit(2);
}
const url = await start();
process.stdout.write(`${JSON.stringify({ role, url, pid: process.pid })}\n`);
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
