/**
 * `npm run bench -- admin-orders`: the admin's ledger search at 100,000 orders, on SQLite (a file) and
 * PostgreSQL (a server started here): the first page, a deep page by keyset cursor (the 25 oldest), a status
 * filter's deep page, and a search by transaction hash and by e-mail. Median of 20 runs each, in ms. Writes
 * bench/admin-orders-results.json; nothing asserts a timing.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqlStore } from '../packages/backend/src/store/sql-store.ts';
import type { OrderPageQuery, Store } from '../packages/backend/src/store/store.ts';
import { createDatabase, startPostgres } from '../packages/backend/test/servers.ts';
import { benchDir } from './lib.ts';

const orders = 100_000;
const batch = 5000;
const runs = 20;
const base = Date.parse('2026-01-01T00:00:00Z');
const at = (i: number) => new Date(base + i * 1000).toISOString();
const id = (i: number) => `ord_${String(i).padStart(20, '0')}`;

async function seed(store: Store) {
  for (let start = 0; start < orders; start += batch) {
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(orders, start + batch); i++) {
        const paid = i % 3 === 0;
        await tx.set('orders', id(i), {
          id: id(i),
          upstreamId: `SP-${i}`,
          upstreamStatus: paid ? 'PAYMENT_CONFIRMED_ACCURATE' : 'AWAITING_PAYMENT',
          status: paid ? 'paid' : 'awaiting_payment',
          product: { name: 'Hoodie', price: '49.00', currency: 'EUR', reference: `cart-${i}` },
          customer: { name: null, email: `payer${i}@example.com`, country: null },
          payments: paid ? [{ txHash: `0x${i.toString(16).padStart(64, '0')}` }] : [],
          history: [],
          createdAt: at(i),
          updatedAt: at(i),
        });
      }
    });
  }
}

async function median(work: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(runs / 2)] ?? 0) * 100) / 100;
}

async function measure(store: Store) {
  const seedStarted = performance.now();
  await seed(store);
  const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
  const page = (query: Partial<OrderPageQuery>) => () => store.pageOrders({ limit: 26, ...query });
  const deep = { after: { createdAt: at(25), key: id(25) } };
  return {
    seedSeconds,
    firstPageMs: await median(page({})),
    deepPageMs: await median(page(deep)),
    statusDeepPageMs: await median(page({ statuses: ['paid'], ...deep })),
    byTxHashMs: await median(page({ term: `0x${(99_999).toString(16).padStart(64, '0')}` })),
    byEmailMs: await median(page({ term: 'payer12345@example.com' })),
  };
}

export async function measureAdminOrders() {
  const dir = await mkdtemp(join(tmpdir(), 'cc-bench-orders-'));
  const postgres = await startPostgres();
  try {
    const sqlite = await createSqlStore({ dataDir: dir });
    const sqliteResult = await measure(sqlite).finally(() => sqlite.close());
    const pg = await createSqlStore({
      databaseUrl: await createDatabase(postgres, 'bench_orders'),
      dataDir: dir,
    });
    const postgresResult = await measure(pg).finally(() => pg.close());
    return { orders, runs, sqlite: sqliteResult, postgres: postgresResult };
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function writeAdminOrdersResult(result: Awaited<ReturnType<typeof measureAdminOrders>>) {
  writeFileSync(join(benchDir, 'admin-orders-results.json'), `${JSON.stringify(result, null, 2)}\n`);
}
