/**
 * The servers the bench talks to, one role per process (`node --import tsx bench/server.ts <role>`), so the
 * load generator never shares an event loop with what it measures. Each prints `{"url": "http://127.0.0.1:…"}`
 * once it listens on an ephemeral loopback port.
 *
 * - `sandbox`: the upstream simulator, with a counter in front of its ramp API (arrivals and 429s, timestamped)
 *   at `GET /__bench/upstream` (`?reset=1` clears it).
 * - `backend`: the backend as `createApp` builds it, live-style config pointing at `BENCH_SANDBOX_URL`, a memory
 *   store, access log off, `RATE_LIMIT_PER_MINUTE` raised; plus `GET /bench/page` (the time-to-first-quote page)
 *   and `GET /__bench/budget` (the upstream budget's own counters). Every answer carries `Server-Timing: app;dur=…,
 *   upstream;dur=…` (the handler's time, and the part spent waiting on upstream calls made for that request),
 *   which the page reads from resource timing; only the bench page's requests (by `Referer`), so the load step
 *   measures the backend as it is. The ramp client is the one `createDeps` makes, except that its
 *   HTTP layer is given a timed `fetch` (the client's own test seam).
 * - `proxy`: the pass-through proxy (bench/passthrough-proxy.ts) in front of `BENCH_SANDBOX_URL`.
 * - `hello`: a bare Hono app answering `hello`, the reference for the catalog's requests per second.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../packages/backend/src/app.ts';
import { loadConfig } from '../packages/backend/src/config.ts';
import { createDeps } from '../packages/backend/src/runtime.ts';
import { createMemoryStore } from '../packages/backend/src/store/memory-store.ts';
import { createSandbox } from '../packages/sandbox/src/index.ts';
import { benchKeys, benchRateLimitPerMinute } from './lib.ts';
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

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>crypto-checkout bench</title>
<script>performance.mark('bench:bundle-before')</script>
<script src="/widget/crypto-checkout.js"></script>
<script>performance.mark('bench:bundle-after')</script></head>
<body><main id="root"></main></body>
</html>`;

async function backendRole(): Promise<string> {
  const sandboxUrl = process.env.BENCH_SANDBOX_URL;
  if (!sandboxUrl) throw new Error('BENCH_SANDBOX_URL is required');
  let handler: Handler = () => new Response(null, { status: 503 });
  const url = await listen(() => handler);
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: url,
    ALLOWED_ORIGINS: url,
    CHECKOUT_TOKEN_SECRET: 'bench-checkout-token-secret-0123456789',
    ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    RAMP_API_URL: `${sandboxUrl}/ramp`,
    RAMP_WIDGET_URL: `${sandboxUrl}/ramp`,
    RAMP_PUBLIC_KEY: benchKeys.rampPublic,
    RAMP_SECRET_KEY: benchKeys.rampSecret,
    PAY_API_URL: `${sandboxUrl}/pay-api`,
    PAY_API_KEY: benchKeys.pay,
    PAY_WEBHOOK_SECRET: benchKeys.payWebhook,
    DATA_DIR: '/nonexistent-the-bench-uses-a-memory-store',
    ACCESS_LOG: 'off',
    RATE_LIMIT_PER_MINUTE: String(benchRateLimitPerMinute),
    ...(process.env.UPSTREAM_BUDGET ? { UPSTREAM_BUDGET: process.env.UPSTREAM_BUDGET } : {}),
  });
  // Upstream time per request: the timed fetch adds to the store of the request it runs for.
  const perRequest = new AsyncLocalStorage<{ upstreamMs: number }>();
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    try {
      return await fetch(input, init);
    } finally {
      const store = perRequest.getStore();
      if (store) store.upstreamMs += performance.now() - started;
    }
  };
  const deps = createDeps(config, { store: createMemoryStore(), rampFetch: timedFetch });
  const backend = createApp(deps);
  const bench = new Hono()
    .get('/bench/page', (c) => c.html(page))
    .get('/__bench/budget', (c) => c.json(deps.ramp.budgetStats()));
  const timed = async (request: Request) => {
    const store = { upstreamMs: 0 };
    const started = performance.now();
    const response = await perRequest.run(store, () => backend.fetch(request));
    const app = performance.now() - started;
    const headers = new Headers(response.headers);
    headers.append('Server-Timing', `app;dur=${app.toFixed(2)}, upstream;dur=${store.upstreamMs.toFixed(2)}`);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  handler = (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/__bench/') || path === '/bench/page') return bench.fetch(request);
    // Only the bench page's requests are timed: the load step measures the backend as it is.
    return request.headers.get('referer')?.endsWith('/bench/page') ? timed(request) : backend.fetch(request);
  };
  return url;
}

async function proxyRole(): Promise<string> {
  const sandboxUrl = process.env.BENCH_SANDBOX_URL;
  if (!sandboxUrl) throw new Error('BENCH_SANDBOX_URL is required');
  const app = createPassthroughProxy(`${sandboxUrl}/ramp/api/v1/merchant`, benchKeys.rampPublic);
  return listen(() => app.fetch);
}

function helloRole(): Promise<string> {
  const app = new Hono().get('/', (c) => c.text('hello'));
  return listen(() => app.fetch);
}

const roles: Record<string, () => Promise<string>> = {
  sandbox: sandboxRole,
  backend: backendRole,
  proxy: proxyRole,
  hello: helloRole,
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
