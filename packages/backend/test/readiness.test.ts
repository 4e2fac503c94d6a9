/**
 * `/healthz` stays liveness; `/readyz` tells the truth: storage (PostgreSQL stopped and started again), Redis
 * (likewise), the delivery worker, and a draining instance take the instance out (503); the upstream with the
 * configured keys (refused, unreachable, too slow) leaves it ready (200) and named in `degraded`. Real servers: the built CLI on real PostgreSQL and Redis, the sandbox as upstream.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createReadinessChecks, type ReadinessReport } from '../src/checks/readiness.ts';
import { createDeliveryWorker } from '../src/events/delivery-worker.ts';
import { configureLogging } from '../src/logger.ts';
import { UpstreamBudget } from '../src/upstream/budget.ts';
import { type CliProcess, startCli } from './cli-process.ts';
import {
  createDatabase,
  freePort,
  type Postgres,
  type Redis,
  startPostgres,
  startRedis,
  waitFor,
} from './servers.ts';
import { type Stack, startStack } from './support.ts';

const readiness = async (url: string) => {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as ReadinessReport };
};

describe('readiness of the CLI on PostgreSQL and Redis (sandbox upstream)', () => {
  let postgres: Postgres;
  let redis: Redis;
  let backend: CliProcess;
  let databaseUrl: string;
  const password = 'pw-never-shown-4711';

  before(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    // PostgreSQL trusts loopback here, so any password is accepted: it is there to be hidden.
    databaseUrl = (await createDatabase(postgres, 'readiness')).replace('postgres@', `postgres:${password}@`);
    backend = await startCli({ DATABASE_URL: databaseUrl, REDIS_URL: redis.url, ACCESS_LOG: 'off' });
  });
  after(async () => {
    await backend?.stop();
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  test('ready, naming the storage, Redis and the sandbox upstream; the start names them too, never the password', async () => {
    const { status, body } = await readiness(backend.url);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.ready, true);
    assert.deepEqual(body.storage, {
      kind: 'postgresql',
      host: `127.0.0.1:${postgres.port}`,
      database: 'readiness',
    });
    assert.deepEqual(body.redis, { host: `127.0.0.1:${redis.port}` });
    assert.deepEqual(body.upstream, {
      mode: 'sandbox',
      ramp: `${backend.url}/sandbox/ramp`,
      payments: `${backend.url}/sandbox/pay-api`,
    });
    for (const name of [
      'storage',
      'redis',
      'upstreamRamp',
      'upstreamPayments',
      'outboxWorker',
      'shutdown',
    ] as const) {
      assert.equal(body.checks[name].status, 'ok', `${name}: ${JSON.stringify(body.checks[name])}`);
      assert.equal(body.checks[name].required, !name.startsWith('upstream'), name);
    }
    assert.deepEqual(body.degraded, []);
    assert.equal(typeof body.checks.storage.latencyMs, 'number');
    assert.ok(!JSON.stringify(body).includes(password), 'the password in /readyz');
    // Lines go out within 250 ms of being written: the process may answer before its first lines are out.
    await waitFor(async () => {
      assert.ok(
        backend.lines().some((line) => line.includes('checkout backend started')),
        'no start line yet',
      );
    }, 'the start line');
    const started = backend.lines().find((line) => line.includes('checkout backend started'));
    assert.ok(started, backend.lines().join('\n'));
    const line = JSON.parse(started) as { msg: string; storage: unknown; redis: unknown; upstream: unknown };
    assert.deepEqual(line.storage, body.storage);
    assert.deepEqual(line.redis, body.redis);
    assert.deepEqual(line.upstream, body.upstream);
    assert.ok(
      backend.lines().some((l) => l.includes(`STORAGE: PostgreSQL at 127.0.0.1:${postgres.port}/readiness`)),
    );
    assert.ok(!backend.lines().join('\n').includes(password), 'a log line shows the password');
  });

  test('PostgreSQL stopped → 503 naming storage within seconds; started again → 200', {
    timeout: 90_000,
  }, async () => {
    await postgres.halt();
    try {
      await waitFor(
        async () => {
          const { status, body } = await readiness(backend.url);
          assert.equal(status, 503);
          assert.ok(body.failing.includes('storage'), JSON.stringify(body.failing));
          assert.match(body.checks.storage.lastError?.message ?? '', /PostgreSQL at 127\.0\.0\.1/);
        },
        '/readyz 503 naming storage',
        15_000,
      );
      // Liveness is not readiness: the process still answers.
      assert.equal((await fetch(`${backend.url}/healthz`)).status, 200);
    } finally {
      await postgres.start();
    }
    await waitFor(
      async () => {
        const { status, body } = await readiness(backend.url);
        assert.equal(status, 200, JSON.stringify(body.failing));
        // The failure is still told, as the last error, with when it was seen.
        assert.ok(body.checks.storage.lastError?.at, 'the outage kept as the last error');
      },
      '/readyz 200 once PostgreSQL is back',
      30_000,
    );
  });

  test('Redis stopped → 503 naming redis within seconds; started again → 200', {
    timeout: 90_000,
  }, async () => {
    await redis.halt();
    try {
      await waitFor(
        async () => {
          const { status, body } = await readiness(backend.url);
          assert.equal(status, 503);
          assert.ok(body.failing.includes('redis'), JSON.stringify(body.failing));
          assert.equal(body.checks.storage.status, 'ok');
          // One sentence naming where and what, not the client's "Stream isn't writeable…".
          assert.equal(
            body.checks.redis.lastError?.message,
            `Redis at 127.0.0.1:${redis.port} is not reachable (connection refused)`,
          );
        },
        '/readyz 503 naming redis',
        15_000,
      );
    } finally {
      await redis.start();
    }
    await waitFor(
      async () => {
        const { status, body } = await readiness(backend.url);
        assert.equal(status, 200, JSON.stringify(body.failing));
      },
      '/readyz 200 once Redis is back',
      30_000,
    );
    // The log says it once at first, and once when it is over.
    const said = backend.lines().map((line) => String((JSON.parse(line) as { msg?: string }).msg));
    assert.ok(
      said.some((msg) => msg.startsWith(`[redis] Redis at 127.0.0.1:${redis.port} is not reachable (`)),
      said.filter((msg) => msg.startsWith('[redis]')).join('\n'),
    );
    await waitFor(async () => {
      const lines = backend.lines().map((line) => String((JSON.parse(line) as { msg?: string }).msg));
      assert.ok(
        lines.some((msg) =>
          new RegExp(
            `^\\[redis\\] Redis at 127\\.0\\.0\\.1:${redis.port} is reachable again after \\d+ s`,
          ).test(msg),
        ),
        lines.filter((msg) => msg.startsWith('[redis]')).join('\n'),
      );
    }, 'the line saying Redis is back');
  });
});

/** Lines the backend logs while `work` runs, parsed. */
async function logged<T>(
  work: () => Promise<T>,
): Promise<{ result: T; lines: Array<Record<string, unknown>> }> {
  const lines: Array<Record<string, unknown>> = [];
  configureLogging({
    format: 'json',
    level: 'debug',
    destination: new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  });
  try {
    return { result: await work(), lines };
  } finally {
    configureLogging({ format: 'json', level: 'warn' });
  }
}

describe('readiness against the upstream, live keys', () => {
  test('keys the upstream refuses → still ready (200), both upstreams degraded; the log has the status and the upstream message', async () => {
    const stack = await startStack({
      env: { RAMP_PUBLIC_KEY: 'pk_live_not_this_merchant', PAY_API_KEY: 'pay_live_not_this_merchant' },
    });
    try {
      const { result, lines } = await logged(() => readiness(stack.backendUrl));
      assert.equal(result.status, 200);
      assert.equal(result.body.ready, true);
      assert.deepEqual(result.body.failing, []);
      assert.deepEqual(result.body.degraded, ['upstreamRamp', 'upstreamPayments']);
      assert.equal(result.body.checks.upstreamRamp.status, 'failing');
      assert.equal(result.body.checks.upstreamRamp.required, false);
      assert.match(
        result.body.checks.upstreamRamp.lastError?.message ?? '',
        /credentials were refused \(401: Invalid apiKey\)/,
      );
      assert.match(
        result.body.checks.upstreamPayments.lastError?.message ?? '',
        /credentials were refused \(401/,
      );
      assert.equal(result.body.upstream.mode, 'live');
      const ramp = lines.find((line) => line['endpoint'] === '/api/v1/merchant/get_supported');
      assert.ok(ramp, JSON.stringify(lines));
      assert.equal(ramp['status'], 401);
      assert.equal(ramp['upstreamMessage'], 'Invalid apiKey');
      assert.equal(ramp['attempt'], 1);
      assert.equal(ramp['level'], 'warn');
    } finally {
      await stack.close();
    }
  });

  test('an upstream that cannot be reached (refused, or silent past the timeout) → still ready (200), degraded naming it; the log says why', async () => {
    const closedPort = await freePort();
    // Accepts connections and never answers.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const stack = await startStack({
      env: {
        RAMP_API_URL: `http://127.0.0.1:${closedPort}`,
        PAY_API_URL: `http://127.0.0.1:${silentPort}`,
        UPSTREAM_TIMEOUT_MS: '300',
      },
    });
    try {
      const { result, lines } = await logged(async () => {
        let last = await readiness(stack.backendUrl);
        // The slow one answers (with its timeout) after the first readiness call may have given up waiting.
        await waitFor(async () => {
          last = await readiness(stack.backendUrl);
          assert.ok(last.body.checks.upstreamPayments.lastError, 'the payments probe has not finished');
        }, 'the payments probe to time out');
        return last;
      });
      assert.equal(result.status, 200);
      assert.deepEqual(result.body.failing, []);
      assert.deepEqual(result.body.degraded, ['upstreamRamp', 'upstreamPayments']);
      assert.equal(
        result.body.checks.upstreamRamp.lastError?.message,
        'unreachable: connection refused (ECONNREFUSED)',
      );
      assert.equal(result.body.checks.upstreamPayments.lastError?.message, 'no answer in time');
      const refused = lines.find((line) => line['upstream'] === 'ramp');
      assert.ok(refused, JSON.stringify(lines));
      assert.equal(refused['cause'], 'refused');
      assert.equal(refused['code'], 'ECONNREFUSED');
      assert.equal(refused['endpoint'], '/api/v1/merchant/get_supported');
      assert.equal(refused['attempt'], 1);
      const timedOut = lines.find((line) => line['upstream'] === 'payments');
      assert.equal(timedOut?.['cause'], 'timeout');
      assert.equal(timedOut?.['endpoint'], '/merchants/orders');
    } finally {
      await stack.close();
      silent.close();
    }
  });

  test('the upstream is probed at most once per 30 s, through the shared budget; the last result answers between', async () => {
    const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
    const stack: Stack = await startStack({ clock });
    try {
      const probes = () => stack.upstream.arrivals.length;
      const granted = () => stack.deps.ramp.budgetStats().granted;
      const first = await readiness(stack.backendUrl);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const [calls, tokens] = [probes(), granted()];
      assert.equal(calls, 1, 'one ramp call for the first readiness');
      assert.equal(tokens, 2, 'both probes took a token of the budget');
      for (let i = 0; i < 5; i += 1) assert.equal((await readiness(stack.backendUrl)).status, 200);
      assert.equal(probes(), calls, 'no new probe within 30 s');
      assert.equal(granted(), tokens);
      clock.offsetMs += 30_000;
      const later = await readiness(stack.backendUrl);
      assert.equal(later.status, 200);
      await waitFor(async () => {
        assert.equal(probes(), calls + 1, 'probed again once 30 s have passed');
        assert.equal(granted(), tokens + 2);
      }, 'the due probes');
      for (let i = 0; i < 3; i += 1) assert.equal((await readiness(stack.backendUrl)).status, 200);
      assert.equal(probes(), calls + 1, 'and not again until 30 s more');
    } finally {
      await stack.close();
    }
  });

  // Without the fix, `run()` waits for the held probe and the test ends by its timeout.
  test('a due probe the upstream holds does not hold /readyz: the last result answers while it runs', {
    timeout: 120_000,
  }, async () => {
    const stack = await startStack();
    const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
    // The probes' fetch: after the first round, each call hangs until the test lets it through.
    let hold = false;
    const held: Array<() => void> = [];
    const probeFetch: typeof fetch = (input, init) =>
      hold
        ? new Promise<Response>((resolve) => held.push(() => resolve(fetch(input, init))))
        : fetch(input, init);
    // Waiting for a due probe as long as it takes would hold a load balancer's check past its timeout.
    const readiness = createReadinessChecks(
      {
        config: stack.config,
        store: stack.deps.store,
        budget: new UpstreamBudget({ perSecond: 10 }),
        clock,
        fetch: probeFetch,
      },
      { probeWaitMs: 600_000 },
    );
    try {
      const first = await readiness.run();
      assert.equal(first.checks.upstreamRamp.status, 'ok');
      hold = true;
      clock.offsetMs += 30_000;
      const during = await readiness.run();
      await waitFor(async () => assert.equal(held.length, 2), 'both due probes on their way, held');
      assert.equal(during.checks.upstreamRamp.status, 'ok', 'the last result answers meanwhile');
      assert.equal(during.checks.upstreamPayments.status, 'ok');
      assert.deepEqual(during.failing, []);
    } finally {
      for (const release of held) release();
      await stack.close();
    }
  });

  test('a stopped delivery worker, and an instance marked as draining, are not ready', async () => {
    const stack = await startStack();
    try {
      const worker = createDeliveryWorker({
        outbox: stack.deps.outbox,
        clock: stack.deps.clock,
        secrets: undefined,
      });
      assert.equal((await readiness(stack.backendUrl)).body.checks.outboxWorker.status, 'skipped');
      stack.deps.readiness.watchWorker(worker);
      worker.start();
      await waitFor(
        async () => assert.equal((await readiness(stack.backendUrl)).status, 200),
        'ready with its worker',
      );
      await worker.stop();
      const stopped = await readiness(stack.backendUrl);
      assert.equal(stopped.status, 503);
      assert.deepEqual(stopped.body.failing, ['outboxWorker']);
      worker.start();
      stack.deps.readiness.markDraining();
      const draining = await readiness(stack.backendUrl);
      assert.equal(draining.status, 503);
      assert.deepEqual(draining.body.failing, ['shutdown']);
      assert.equal(draining.body.checks.shutdown.lastError?.message, 'the instance is shutting down');
      await worker.stop();
    } finally {
      await stack.close();
    }
  });
});
