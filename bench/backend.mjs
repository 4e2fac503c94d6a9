/**
 * The bench's `backend` role: the built `@crypto-checkout/backend` package (dist, plain `node`, no tsx in the
 * process: what production runs), live-style config pointing at `BENCH_SANDBOX_URL`, a memory store, access log
 * off, `RATE_LIMIT_PER_MINUTE` raised; plus `GET /bench/page` (the time-to-first-quote page) and
 * `GET /__bench/budget` (the upstream budget's own counters). Answers to the bench page's requests (by `Referer`)
 * carry `Server-Timing: app;dur=…, upstream;dur=…` (the handler's time, and the part spent waiting on upstream calls
 * made for that request), which the page reads from resource timing; the load step measures the backend as it is.
 * The ramp client is the one `createDeps` makes, except that its HTTP layer is given a timed `fetch` (its test seam).
 * Prints `{"url": …}` once it listens. Keys, secrets, upstream URLs and limits come from the parent
 * (`BENCH_LIVE_ENV`: bench/lib.ts `liveEnv`, the same the CLI role runs with).
 */
// As the CLI does: V8's young generation kept at its first size (packages/backend/src/process/young-generation.ts) before
// the backend's modules load, so those come by dynamic import.
import '@crypto-checkout/backend/young-generation';
import { AsyncLocalStorage } from 'node:async_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const { createApp, createDeps, createMemoryStore, loadConfig } = await import('@crypto-checkout/backend');
const { createAdaptorServer } = await import('@hono/node-server');
const { Hono } = await import('hono');

const live = JSON.parse(process.env.BENCH_LIVE_ENV ?? '{}');
if (!live.RAMP_API_URL) throw new Error('BENCH_LIVE_ENV is required');

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>crypto-checkout bench</title>
<script>performance.mark('bench:bundle-before')</script>
<script src="/widget/crypto-checkout.js"></script>
<script>performance.mark('bench:bundle-after')</script></head>
<body><main id="root"></main></body>
</html>`;

let handler = () => new Response(null, { status: 503 });
const url = await new Promise((resolve) => {
  // As the CLI listens (packages/backend/src/process/command.ts): a longer accept queue than Node's default.
  const server = createAdaptorServer({ fetch: (request, env) => handler(request, env) });
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
    resolve(`http://127.0.0.1:${server.address().port}`),
  );
});

const config = loadConfig({
  PORT: '0',
  PUBLIC_URL: url,
  ALLOWED_ORIGINS: url,
  ...live,
  DATA_DIR: '/nonexistent-the-bench-uses-a-memory-store',
  ...(process.env.UPSTREAM_BUDGET ? { UPSTREAM_BUDGET: process.env.UPSTREAM_BUDGET } : {}),
  ...(process.env.MARKUP ? { MARKUP: process.env.MARKUP } : {}),
});

// Upstream time per request: the timed fetch adds to the store of the request it runs for.
const perRequest = new AsyncLocalStorage();
const timedFetch = async (input, init) => {
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
// The quote engine's refresher and sampler, as createRuntime starts them.
deps.quotes.start();
const bench = new Hono()
  .get('/bench/page', (c) => c.html(page))
  .get('/__bench/budget', (c) => c.json(deps.ramp.budgetStats()))
  // Where the memory is: V8's heap (used and reserved, and by space), buffers outside it, and the RSS.
  .get('/__bench/memory', (c) =>
    c.json({
      ...process.memoryUsage(),
      spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((space) => [
          space.space_name,
          { size: space.space_size, used: space.space_used_size },
        ]),
      ),
    }),
  );
const timed = async (request, env) => {
  const store = { upstreamMs: 0 };
  const started = performance.now();
  const response = await perRequest.run(store, () => backend.fetch(request, env));
  const app = performance.now() - started;
  const headers = new Headers(response.headers);
  headers.append('Server-Timing', `app;dur=${app.toFixed(2)}, upstream;dur=${store.upstreamMs.toFixed(2)}`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};
// The adapter's bindings (the socket) go through to the app, as `serve({ fetch: app.fetch })` passes them.
handler = (request, env) => {
  const { url } = request;
  if (url.includes('/__bench/') || url.endsWith('/bench/page')) return bench.fetch(request);
  // Only the bench page's requests are timed: the load step measures the backend as it is.
  // (the Node request's own headers: asking the Request for them would build a Headers object for every request)
  return env?.incoming?.headers.referer?.endsWith('/bench/page')
    ? timed(request, env)
    : backend.fetch(request, env);
};

process.stdout.write(`${JSON.stringify({ role: 'backend', url, pid: process.pid })}\n`);
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
