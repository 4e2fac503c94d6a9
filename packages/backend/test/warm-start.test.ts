/**
 * Warm before ready (quotes/warm-start/): a fresh instance with Redis starts from the references another instance
 * shared and answers its first quote for them without an upstream call; a lone instance is not ready until it has
 * primed its busiest combinations, says what it primed in its log, and primes within its share of the budget.
 * Each on SQLite and on PostgreSQL, the built CLI in processes of their own, the sandbox in this process counting
 * the ramp calls that reach it.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSandbox } from '@crypto-checkout/sandbox';
import { type ServerType, serve } from '@hono/node-server';
import { Redis as RedisClient } from 'ioredis';
import { CALLS_PER_PRIME, PRIME_SHARE } from '../src/quotes/warm-start/priming.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import { createDatabase, type Postgres, type Redis, startPostgres, startRedis, waitFor } from './servers.ts';
import { allowedOrigin, mostInWindow, sandboxUpstreamEnv } from './support.ts';

/** The sandbox as the instances' upstream, each ramp call that reaches it noted (its path, when). */
interface Upstream {
  url: string;
  calls: { path: string; at: number }[];
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const calls: Upstream['calls'] = [];
  let sandbox: ReturnType<typeof createSandbox> | undefined;
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: (request) => {
          const { pathname } = new URL(request.url);
          if (pathname.startsWith('/ramp/api/')) calls.push({ path: pathname, at: performance.now() });
          return (sandbox as NonNullable<typeof sandbox>).app.fetch(request);
        },
      },
      (info) => resolve((info as AddressInfo).port),
    );
  });
  const url = `http://127.0.0.1:${port}`;
  sandbox = createSandbox({ baseUrl: url });
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        (server as ServerType & { closeAllConnections?: () => void }).closeAllConnections?.();
        server?.close(() => resolve());
      }),
  };
}

interface Readiness {
  ready: boolean;
  failing: string[];
  checks: { warmStart: { status: string; detail?: string } };
}
const readiness = async (cli: CliProcess) => {
  const response = await fetch(`${cli.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Readiness };
};

/** Polls /readyz until it says ready; every answer on the way. */
async function untilReady(cli: CliProcess): Promise<Array<{ status: number; body: Readiness }>> {
  const seen: Array<{ status: number; body: Readiness }> = [];
  await waitFor(
    async () => {
      const answer = await readiness(cli);
      seen.push(answer);
      if (answer.status !== 200) throw new Error(`not ready: ${JSON.stringify(answer.body.failing)}`);
    },
    'ready',
    60_000,
  );
  return seen;
}

interface CatalogDefaults {
  defaults: { country: string; fiat: string; crypto: string; paymentMethod: string };
  cryptos: { code: string }[];
}
const quote = async (cli: CliProcess, body: Record<string, string>) => {
  const response = await fetch(`${cli.url}/api/quotes/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { source?: string } };
};

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

for (const backend of backends) {
  describe(`warm start (${backend.name})`, () => {
    let upstream: Upstream;
    let postgres: Postgres | undefined;
    let redis: Redis;
    let databaseUrl: string | undefined;
    const started: CliProcess[] = [];
    const cli = async (env: Record<string, string>) => {
      const instance = await startCli({
        ...sandboxUpstreamEnv(upstream.url),
        ALLOWED_ORIGINS: allowedOrigin,
        ACCESS_LOG: 'off',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...env,
      });
      started.push(instance);
      return instance;
    };
    before(async () => {
      upstream = await startUpstream();
      redis = await startRedis();
      if (backend.postgres) {
        postgres = await startPostgres();
        databaseUrl = await createDatabase(postgres, 'warm');
      }
    });
    after(async () => {
      await Promise.all(started.map((instance) => instance.stop()));
      await upstream?.close();
      await Promise.all([redis?.stop(), postgres?.stop()]);
    });

    test('a fresh instance answers its first quote from the references another shared through Redis, with no upstream call', async () => {
      // References stay fresh (derive without asking) for a minute: long enough for a second instance to start. The
      // drift sampler is off: its own checks of derived answers would be counted with the quote's calls.
      const shared = { REDIS_URL: redis.url, QUOTE_DERIVE_FRESH_MS: '60000', QUOTE_SAMPLER_SHARE: '0' };
      const first = await cli(shared);
      await untilReady(first);
      // A combination nothing primed: the country's default method and fiat, another crypto than its default.
      const catalog = (await (await fetch(`${first.url}/api/catalog?country=FR`)).json()) as CatalogDefaults;
      const { fiat, paymentMethod } = catalog.defaults;
      const crypto = catalog.cryptos
        .map((entry) => entry.code)
        .find((code) => code !== catalog.defaults.crypto);
      assert.ok(crypto, 'the catalog lists a second crypto');
      const asked = { country: 'FR', fiat, crypto, paymentMethod };
      const learnt = await quote(first, { ...asked, fiatAmount: '120' });
      assert.equal(learnt.status, 200, JSON.stringify(learnt.body));
      // A second amount: the total it checks confirms the fee model (as on any instance, a second upstream answer).
      assert.equal((await quote(first, { ...asked, fiatAmount: '135' })).status, 200);
      // Shared once the first instance has written it.
      const client = new RedisClient(redis.url, { lazyConnect: true });
      await client.connect();
      try {
        await waitFor(async () => {
          const keys = await client.zrange('cc:warm:references', '0', '-1');
          if (!keys.some((key) => key.includes(`|FR|${fiat}|${crypto}|`)))
            throw new Error(`not shared yet: ${keys.length} combinations`);
        }, 'the reference shared');
      } finally {
        client.disconnect();
      }

      // Its refresher is the first instance's, not the fresh one's: gone before the fresh one is asked.
      await first.stop();
      const fresh = await cli(shared);
      const seen = await untilReady(fresh);
      assert.match(seen.at(-1)?.body.checks.warmStart.detail ?? '', /started from \d+ shared combinations/);
      assert.ok(
        fresh
          .lines()
          .some((line) =>
            /\[warm-start\] ready: \d+ combinations adopted from the other instances/.test(line),
          ),
        fresh.lines().join('\n'),
      );
      const before = upstream.calls.length;
      const answered = await quote(fresh, { ...asked, fiatAmount: '150' });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(answered.body.source, 'derived');
      assert.deepEqual(upstream.calls.slice(before), [], 'no ramp call for the first quote');
      // Its refresher would call the upstream during the next test.
      await fresh.stop();
    });

    test('a lone instance is not ready until it has primed its busiest combinations, within its share of the budget', async () => {
      const budget = 40;
      const callsBefore = upstream.calls.length;
      const lone = await cli({ UPSTREAM_BUDGET: String(budget) });
      const seen = await untilReady(lone);
      const readyAt = performance.now();
      const first = seen[0];
      assert.equal(first?.status, 503, 'not ready while it primes');
      assert.deepEqual(first?.body.failing, ['warmStart']);
      assert.match(first?.body.checks.warmStart.detail ?? '', /warming up/);
      assert.match(seen.at(-1)?.body.checks.warmStart.detail ?? '', /primed \d+ of \d+ combinations/);

      await waitFor(async () => {
        if (!lone.lines().some((line) => line.includes('[warm-start] ready: primed')))
          throw new Error('no warm-start line yet');
      }, 'the warm-start line');
      const line = lone.lines().find((entry) => entry.includes('[warm-start] ready: primed')) as string;
      const said = /primed (\d+) of (\d+) combinations.*, (\d+) upstream calls/.exec(line);
      assert.ok(said, line);
      const [primed, tried, calls] = said.slice(1).map(Number) as [number, number, number];
      assert.ok(primed >= 1 && primed <= tried, line);
      const fresh = upstream.calls.slice(callsBefore).filter((call) => call.at <= readyAt);
      assert.ok(calls >= primed, `${line}: each combination primed took an upstream call`);
      // Priming's pricing calls in any second stay within its share (CALLS_PER_PRIME calls a prime at most).
      const primingCalls = fresh.filter((call) => call.path.endsWith('/pricing')).map((call) => call.at);
      assert.ok(primingCalls.length >= primed, 'each combination primed was priced upstream');
      assert.ok(
        mostInWindow(primingCalls) <= Math.floor(budget * PRIME_SHARE),
        `${mostInWindow(primingCalls)} pricing calls in one second; share ${budget * PRIME_SHARE} (${CALLS_PER_PRIME} a prime)`,
      );

      // What it primed is answered without the upstream: the country's defaults, as the widget asks first.
      const catalog = (await (await fetch(`${lone.url}/api/catalog?country=DE`)).json()) as CatalogDefaults;
      const { country, fiat, crypto, paymentMethod } = catalog.defaults;
      const callsNow = upstream.calls.length;
      const answered = await quote(lone, { country, fiat, crypto, paymentMethod, fiatAmount: '100' });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.notEqual(answered.body.source, 'upstream');
      assert.deepEqual(upstream.calls.slice(callsNow), [], 'no ramp call for the first quote');
    });
  });
}
