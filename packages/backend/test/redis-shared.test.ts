/**
 * What several instances share through a real Redis (started for this file): one upstream budget under
 * contention from three instances, single-flight of identical upstream reads, the order-status fan-out, and
 * what happens while Redis is away.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../src/errors.ts';
import { connectShared, type SharedState } from '../src/shared/redis.ts';
import type { Release } from '../src/upstream/budget.ts';
import { RedisBudget } from '../src/upstream/redis-budget.ts';
import { type Redis as RedisServer, startRedis, waitFor } from './servers.ts';
import { mostInWindow, startStack } from './support.ts';

let server: RedisServer;
const instances: SharedState[] = [];

before(async () => {
  server = await startRedis();
  for (let i = 0; i < 3; i += 1) instances.push(await connectShared(server.url));
});
after(async () => {
  for (const instance of instances) await instance.close();
  await server.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shared upstream budget', () => {
  test('three instances calling at once never put more than the budget into any window', async () => {
    const windowMs = 200;
    const perWindow = 10;
    const budgets = instances.map(
      (shared) =>
        new RedisBudget({
          redis: shared.redis,
          perSecond: perWindow,
          windowMs,
          holdMs: 2000,
          maxWaitMs: 400,
          key: 'cc:test-budget',
        }),
    );
    const arrivals: number[] = [];
    let busy = 0;
    // 150 calls over ~600 ms from three instances, each lasting 5–60 ms and reaching the upstream at a random
    // moment between its grant and its end, as a real call over a network does.
    const calls = Array.from({ length: 150 }, async (_, i) => {
      await sleep((i % 50) * 12);
      let release: Release;
      try {
        release = await (budgets[i % 3] as RedisBudget).acquire();
      } catch (error) {
        assert.ok(error instanceof AppError && error.code === 'UPSTREAM_BUSY', String(error));
        busy += 1;
        return;
      }
      const granted = performance.now();
      const duration = 5 + Math.random() * 55;
      await sleep(duration * Math.random());
      arrivals.push(performance.now());
      await sleep(Math.max(0, granted + duration - performance.now()));
      release();
    });
    await Promise.all(calls);
    arrivals.sort((a, b) => a - b);
    assert.ok(
      mostInWindow(arrivals, windowMs) <= perWindow,
      `${mostInWindow(arrivals, windowMs)} in one window`,
    );
    // It did ration rather than refuse everything: over ~0.8 s at 10 per 200 ms, at least 20 went through.
    assert.ok(arrivals.length >= 20, `${arrivals.length} granted, ${busy} busy`);
    assert.equal(arrivals.length + busy, 150);
  });
});

describe('shared cache', () => {
  test('identical reads from three instances at once make one upstream call; the answer serves all', async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      await sleep(50);
      return { price: '10.00', at: loads };
    };
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (instances[i % 3] as SharedState).cache.run('test:quote-1', 1000, load),
      ),
    );
    assert.equal(loads, 1);
    for (const answer of answers) assert.deepEqual(answer, { price: '10.00', at: 1 });
  });

  test('a failed load is not kept: the next caller loads again', async () => {
    const [first, second] = instances as [SharedState, SharedState];
    await assert.rejects(
      first.cache.run('test:fails', 1000, async () => Promise.reject(new Error('upstream down'))),
    );
    assert.deepEqual(await second.cache.run('test:fails', 1000, async () => ({ ok: true })), { ok: true });
  });
});

describe('order-status fan-out', () => {
  test('a change published by one instance reaches the others, not itself', async () => {
    const [a, b, c] = instances as [SharedState, SharedState, SharedState];
    const heardByB = new Promise<string>((resolve) => b.fanout.onOrder(resolve));
    const heardByC = new Promise<string>((resolve) => c.fanout.onOrder(resolve));
    const heardByA: string[] = [];
    a.fanout.onOrder((id) => heardByA.push(id));
    a.fanout.publish('ord_fanout');
    assert.equal(await heardByB, 'ord_fanout');
    assert.equal(await heardByC, 'ord_fanout');
    assert.deepEqual(heardByA, []);
  });
});

describe('which instances run', () => {
  test('an instance runs while it keeps its key alive; closed, or killed, it soon no longer does', async () => {
    const [one, two] = instances as [SharedState, SharedState];
    assert.equal(await two.alive(one.instanceId), true);
    assert.equal(await two.alive('an-instance-that-never-ran'), false);
    const leaving = await connectShared(server.url);
    assert.equal(await one.alive(leaving.instanceId), true);
    await leaving.close();
    assert.equal(await one.alive(leaving.instanceId), false, 'closed: gone at once');

    // Killed: a process of its own, which cannot say goodbye; its key runs out (INSTANCE_ALIVE_MS).
    const redisModule = new URL('../src/shared/redis.ts', import.meta.url).href;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { connectShared } = await import(${JSON.stringify(redisModule)});
         const shared = await connectShared(process.env.REDIS_URL);
         console.log(shared.instanceId);
         setInterval(() => {}, 1000);`,
      ],
      { env: { ...process.env, REDIS_URL: server.url }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [id] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      assert.equal(await one.alive(id), true);
      child.kill('SIGKILL');
      await once(child, 'exit');
      await waitFor(async () => {
        assert.equal(await one.alive(id), false);
      }, 'the killed instance no longer counted as running');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('Redis away', () => {
  test('the budget answers 503 without a fallback, divides itself with one, and recovers when Redis is back', async () => {
    const shared = await connectShared(server.url);
    const strict = new RedisBudget({ redis: shared.redis, perSecond: 90, holdMs: 2000, key: 'cc:test-away' });
    const divided = new RedisBudget({
      redis: shared.redis,
      perSecond: 90,
      holdMs: 2000,
      key: 'cc:test-away',
      fallbackInstances: 3,
    });
    (await strict.acquire())();
    await server.halt();
    try {
      await assert.rejects(
        strict.acquire(),
        (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE',
      );
      // The fallback: this instance's own budget of 90 ÷ 3 = 30 per second.
      const releases = await Promise.all(Array.from({ length: 30 }, () => divided.acquire()));
      await assert.rejects(
        divided.acquire(),
        (error: unknown) => error instanceof AppError && error.code === 'UPSTREAM_BUSY',
      );
      for (const release of releases) release();
    } finally {
      await server.start();
    }
    // Back: the shared budget grants again once the client has reconnected (a condition, awaited).
    // Until then a refusal is SERVICE_UNAVAILABLE; anything else ends the wait and fails below.
    let unexpected: unknown;
    await waitFor(async () => {
      try {
        (await strict.acquire())();
      } catch (error) {
        if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') throw error;
        unexpected = error;
      }
    }, 'the shared budget granting again after Redis came back');
    assert.equal(unexpected, undefined);
    strict.close();
    divided.close();
    await shared.close();
  });
});

describe('per-client limit', () => {
  test('a client spreading its requests over two instances gets one limit, not one per instance', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '5' };
    const [a, b] = instances as [SharedState, SharedState];
    // The test before this one stopped Redis: these instances' clients may still be reconnecting (until then
    // the limiter answers 503, as it should).
    await waitFor(async () => {
      await a.redis.ping();
      await b.redis.ping();
    }, 'both instances connected to Redis again');
    const one = await startStack({ env, shared: a });
    const two = await startStack({ env, shared: b });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const response = await (i % 2 ? two : one).api('/api/products');
        statuses.push(response.status);
        await response.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
