/** Ramp API throttling over real HTTP: the per-merchant limit, its window, the always-throttled merchant. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { json, sandboxPerFile } from './support.ts';

const sandbox = sandboxPerFile();

const supported = (key?: string) => fetch(`${sandbox.api}/get_supported${key ? `?api_key=${key}` : ''}`);

test('more than rampRateLimit requests in a second get 429 with Retry-After, per merchant', async () => {
  await json(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body: { rampRateLimit: 5 } });
  const responses = await Promise.all(Array.from({ length: 8 }, () => supported('pk_sandbox_busy')));
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
  await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 1000 } });
  assert.equal((await supported('pk_sandbox_busy')).status, 200, 'the window moves on');
});

test('the default limit is 100 per second', async () => {
  // A burst of 130: at least 100 go through (the limit is not lower) and the rest of the second is refused.
  // Exact counts would depend on the burst fitting into one second on a busy machine.
  const responses = await Promise.all(Array.from({ length: 130 }, () => supported('pk_sandbox_default')));
  const ok = responses.filter((r) => r.status === 200).length;
  assert.ok(ok >= 100, `${ok} requests went through`);
  assert.ok(
    responses.some((r) => r.status === 429),
    'some of the burst was throttled',
  );
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
