/**
 * The bench's reference servers, plain `node` on the same adapter (@hono/node-server) as the backend role, no tsx:
 *
 * - `hello`: a bare Hono app answering `hello` (what `/healthz` is compared with).
 * - `same-bytes`: a bare Hono app serving, at `GET /api/catalog`, exactly the bytes and headers the backend sent for
 *   `BENCH_CATALOG_URL` when this process started (a fresh `X-Request-Id` per answer, as the backend sends): the
 *   reference that does the same work as the cached catalog route, without our middleware.
 *
 * Prints `{"url": …}` once it listens.
 */
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const role = process.argv[2];
const skipped = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-request-id',
]);

async function sameBytes() {
  const source = process.env.BENCH_CATALOG_URL;
  if (!source) throw new Error('BENCH_CATALOG_URL is required');
  const response = await fetch(source);
  const body = await response.text();
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !skipped.has(name)));
  return new Hono().get('/api/catalog', (c) =>
    c.body(body, 200, { ...headers, 'x-request-id': randomUUID() }),
  );
}

const app = role === 'same-bytes' ? await sameBytes() : new Hono().get('/', (c) => c.text('hello'));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(
    `${JSON.stringify({ role, url: `http://127.0.0.1:${info.port}`, pid: process.pid })}\n`,
  );
});
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
