/** Ramp API throttling over real HTTP: the per-merchant limit, its window, the always-throttled merchant. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, sandboxPerFile } from './support.ts';

const sandbox = sandboxPerFile();

const supported = (key?: string) => fetch(`${sandbox.api}/get_supported${key ? `?api_key=${key}` : ''}`);

/** Moves the sandbox clock on by a second: every rate window opens afresh. */
const nextWindow = () => json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 1000 } });

/**
 * `count` concurrent requests from one merchant, all inside one rate window: the window is a second of the
 * sandbox's monotonic time, so a burst whose first request left and last answer came back within a second (as
 * this process measures it) was seen whole by one window. On a machine too busy for that, the burst is sent
 * again in the next window, so the counts asserted never depend on the machine's speed.
 */
async function burstInOneWindow(count: number, key: string): Promise<Response[]> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: count }, () => supported(key)));
    if (performance.now() - started < 1000) return responses;
    await Promise.all(responses.map((r) => r.body?.cancel()));
    if (attempt === 20) throw new Error(`20 bursts of ${count} requests each took over a second`);
    await nextWindow();
  }
}

test('more than rampRateLimit requests in a second get 429 with Retry-After, per merchant', async () => {
  await json(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body: { rampRateLimit: 5 } });
  const responses = await burstInOneWindow(8, 'pk_sandbox_busy');
  const statuses = responses.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
  const throttled = responses.find((r) => r.status === 429)!;
  assert.deepEqual(await throttled.json(), { success: false, message: 'Too many requests' });
  assert.ok(Number(throttled.headers.get('retry-after')) >= 1);
  await Promise.all(responses.filter((r) => r !== throttled).map((r) => r.body?.cancel()));

  assert.equal((await supported('pk_sandbox_quiet')).status, 200, 'another merchant has its own budget');
  assert.equal((await supported()).status, 200, 'so do anonymous callers');
  const pricing = await json(`${sandbox.api}/pricing`, { body: { api_key: 'pk_sandbox_busy' } });
  assert.equal(pricing.status, 429, 'the limit covers every /merchant/ endpoint, POSTs too');

  // The window runs on real time plus every advance of the sandbox clock: a second later it has moved on.
  await nextWindow();
  assert.equal((await supported('pk_sandbox_busy')).status, 200, 'the window moves on');
});

test('the default limit is 100 per second', async () => {
  const responses = await burstInOneWindow(130, 'pk_sandbox_default');
  assert.equal(responses.filter((r) => r.status === 200).length, 100);
  assert.equal(responses.filter((r) => r.status === 429).length, 30);
  await Promise.all(responses.map((r) => r.body?.cancel()));
});

test('pk_sandbox_ratelimited is always throttled', async () => {
  const response = await supported('pk_sandbox_ratelimited');
  assert.equal(response.status, 429);
  assert.equal(response.headers.get('retry-after'), '1');
  const quote = await json(`${sandbox.api}/pricing`, {
    body: {
      api_key: 'pk_sandbox_ratelimited',
      payment_method: 'creditcard',
      region: 'DE',
      fiat_amount: 50,
      crypto_currency: 'BTC',
    },
  });
  assert.equal(quote.status, 429);
});
