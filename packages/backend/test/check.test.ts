/**
 * `crypto-checkout-backend check`: one verdict per item (the configuration, the database, Redis, each upstream
 * key through a read), the fix under each failure, exit 1 on any failure; and no order made upstream.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: plain JavaScript shared with scripts/test.mjs (no types).
import { ensurePackagesBuilt } from '../../../scripts/ensure.mjs';
import { tokenSha256 } from '../src/admin/credentials.ts';
import { runChecks } from '../src/checks/run-check.ts';
import type { Verdict } from '../src/checks/verdicts.ts';
import { createSqlStore } from '../src/store/sql-store.ts';
import { productsFile } from './order-fixtures.ts';
import { startUpstream, type Upstream } from './restartable.ts';
import { createDatabase, freePort, type Postgres, type Redis, startPostgres, startRedis } from './servers.ts';
import { allowedOrigin, sandboxUpstreamEnv, testSecrets } from './support.ts';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

let upstream: Upstream;
let dataDir: string;
/** A configuration ready to go live against the sandbox as its upstream. */
let liveEnv: Record<string, string>;

before(async () => {
  upstream = await startUpstream();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cc-check-'));
  // A database that a start has made (and migrated).
  await (await createSqlStore({ dataDir })).close();
  const { ADMIN_TOKEN: _legacy, ...upstreamEnv } = sandboxUpstreamEnv(upstream.url);
  liveEnv = {
    ...upstreamEnv,
    PUBLIC_URL: 'https://checkout.shop.example',
    ALLOWED_ORIGINS: allowedOrigin,
    PRODUCTS_FILE: productsFile,
    DATA_DIR: dataDir,
    ADMIN_CREDENTIALS: `support:read:${tokenSha256('a-support-token')},ops:write:${tokenSha256('an-ops-token')}`,
    MERCHANT_WEBHOOK_URL: 'https://shop.example/hooks',
    MERCHANT_WEBHOOK_SECRET: 'whsec_Vb7rT2xQ9mLk4NzP8sW3cYd6Hf1Ja5Ue',
  };
});
after(async () => {
  await upstream.close();
  await rm(dataDir, { recursive: true, force: true });
});

const byItem = (verdicts: Verdict[]) => new Map(verdicts.map((verdict) => [verdict.item, verdict]));
const failures = (verdicts: Verdict[]) => verdicts.filter((verdict) => verdict.status === 'fail');

/** How many orders the upstream holds for the test merchant. */
async function upstreamOrderCount() {
  const response = await fetch(`${upstream.url}/pay-api/v1/merchants/orders?limit=1`, {
    headers: { 'x-api-key': testSecrets.payApiKey },
  });
  return ((await response.json()) as { data: { pagination: { totalItems: number } } }).data.pagination
    .totalItems;
}

describe('check', () => {
  test('a sound configuration: every item passes, read from the upstream with the configured keys, and no order is made', async () => {
    const ordersBefore = await upstreamOrderCount();
    const verdicts = await runChecks(liveEnv);
    assert.deepEqual(failures(verdicts), []);
    const items = byItem(verdicts);
    for (const item of [
      'configuration',
      'admin credentials',
      'storage',
      'database schema',
      'payments API key',
      'ramp public key',
      'ramp secret key',
    ]) {
      assert.equal(items.get(item)?.status, 'pass', `${item}: ${items.get(item)?.detail}`);
    }
    assert.match(items.get('admin credentials')?.detail ?? '', /support \(read\), ops \(write\)/);
    assert.equal(await upstreamOrderCount(), ordersBefore, 'no order was made upstream');
  });

  test('each wrong upstream key is named, with its fix', async () => {
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ PAY_API_KEY: 'pay_live_wrong' }, 'payments API key', /PAY_API_KEY/],
      [{ RAMP_PUBLIC_KEY: 'pk_live_wrong' }, 'ramp public key', /RAMP_PUBLIC_KEY/],
      [{ RAMP_SECRET_KEY: 'sk_sandbox_someone-else' }, 'ramp secret key', /RAMP_SECRET_KEY/],
      [{ PAY_API_URL: `http://127.0.0.1:${await freePort()}` }, 'payments API key', /PAY_API_URL/],
    ];
    for (const [change, item, fix] of cases) {
      const bad = failures(await runChecks({ ...liveEnv, ...change }));
      assert.deepEqual(
        bad.map((verdict) => verdict.item),
        [item],
        JSON.stringify(change),
      );
      assert.match(bad[0]?.fix ?? '', fix);
    }
  });

  test('an upstream that answers 503 (an outage): its keys are warnings saying so, not failures; no answer at all fails', async () => {
    upstream.state.faults.add({ route: '/ramp/*', status: 503 });
    upstream.state.faults.add({ route: '/pay-api/*', status: 503 });
    try {
      const verdicts = await runChecks(liveEnv);
      assert.deepEqual(failures(verdicts), []);
      const items = byItem(verdicts);
      for (const item of ['payments API key', 'ramp public key', 'ramp secret key']) {
        assert.equal(items.get(item)?.status, 'warn', item);
        assert.match(items.get(item)?.detail ?? '', /answered 503.*degraded.*not judged/, item);
        assert.match(items.get(item)?.fix ?? '', /once the provider is back/, item);
      }
    } finally {
      upstream.state.faults.clear();
    }
    // Back: judged again. (Nothing answering at PAY_API_URL stays a failure: 'each wrong upstream key' above.)
    assert.equal(byItem(await runChecks(liveEnv)).get('payments API key')?.status, 'pass');
  });

  test('a refused configuration: each problem is a failure with its fix, and nothing else is tried', async () => {
    const verdicts = await runChecks({
      ...liveEnv,
      CHECKOUT_TOKEN_SECRET: 'short',
      ADMIN_CREDENTIALS: 'ops:write:not-a-hash',
    });
    assert.ok(verdicts.every((verdict) => verdict.item === 'configuration' && verdict.status === 'fail'));
    const text = verdicts.map((verdict) => `${verdict.detail} → ${verdict.fix}`).join('\n');
    assert.match(text, /CHECKOUT_TOKEN_SECRET.*16 characters → .*openssl rand/);
    assert.match(text, /ADMIN_CREDENTIALS.*SHA-256.* → .*sha256sum/);
    assert.doesNotMatch(text, /not-a-hash/, 'what may be a pasted token is not echoed');
  });

  test('what works but should not go live as it is: warnings, not failures', async () => {
    const verdicts = await runChecks({
      ...liveEnv,
      ADMIN_TOKEN: testSecrets.adminToken,
      CHECKOUT_TOKEN_SECRET_PREVIOUS: 'an-old-checkout-token-secret',
      PAY_WEBHOOK_SECRET_PREVIOUS: 'whsec_old-0123456789',
      PAY_WEBHOOK_SECRET_PREVIOUS_UNTIL: '2020-01-01T00:00:00Z',
    });
    assert.deepEqual(failures(verdicts), []);
    const items = byItem(verdicts);
    assert.equal(items.get('admin credentials')?.status, 'warn');
    assert.match(items.get('admin credentials')?.fix ?? '', /ADMIN_CREDENTIALS/);
    assert.match(items.get('CHECKOUT_TOKEN_SECRET rotation')?.detail ?? '', /no end/);
    assert.match(items.get('PAY_WEBHOOK_SECRET rotation')?.fix ?? '', /Remove PAY_WEBHOOK_SECRET_PREVIOUS/);
  });
});

describe('check: PostgreSQL and Redis', () => {
  let postgres: Postgres;
  let redis: Redis;
  before(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  });
  after(async () => {
    await Promise.all([postgres.stop(), redis.stop()]);
  });

  test('reachable ones pass; an unmigrated database is a warning; unreachable ones fail with their fix', async () => {
    const databaseUrl = await createDatabase(postgres, 'check_fresh');
    const fresh = byItem(await runChecks({ ...liveEnv, DATABASE_URL: databaseUrl, REDIS_URL: redis.url }));
    assert.equal(fresh.get('storage')?.status, 'pass');
    assert.equal(fresh.get('redis')?.status, 'pass');
    assert.equal(fresh.get('database schema')?.status, 'warn');
    assert.match(fresh.get('database schema')?.fix ?? '', /crypto-checkout-backend migrate/);
    // The check only looked: the database is still unmigrated.
    const again = byItem(await runChecks({ ...liveEnv, DATABASE_URL: databaseUrl }));
    assert.equal(again.get('database schema')?.status, 'warn');

    const closed = await freePort();
    const down = failures(
      await runChecks({
        ...liveEnv,
        DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${closed}/shop`,
        REDIS_URL: `redis://127.0.0.1:${closed}`,
      }),
    );
    assert.deepEqual(down.map((verdict) => verdict.item).sort(), ['redis', 'storage']);
    assert.match(down.find((v) => v.item === 'storage')?.fix ?? '', /DATABASE_URL/);
    assert.match(down.find((v) => v.item === 'redis')?.fix ?? '', /REDIS_URL/);
    assert.doesNotMatch(JSON.stringify(down), /hunter2/, 'the password is never printed');
  });
});

/** Runs the built CLI to its end: exit code and output. */
function runCli(env: Record<string, string>, args: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('the command prints a verdict per item and a fix per failure; it exits 1 on a failure, 0 without', async () => {
  ensurePackagesBuilt();
  const ok = await runCli(liveEnv, ['check']);
  assert.equal(ok.code, 0, ok.output);
  assert.match(ok.output, /ok {4}payments API key/);
  assert.match(ok.output, /No failure/);
  const bad = await runCli({ ...liveEnv, PAY_API_KEY: 'pay_live_wrong' }, ['check']);
  assert.equal(bad.code, 1, bad.output);
  assert.match(bad.output, /FAIL {2}payments API key +the payments API refused PAY_API_KEY \(401\)/);
  assert.match(bad.output, /fix: Copy the API key/);
  assert.match(bad.output, /1 failure/);
});
