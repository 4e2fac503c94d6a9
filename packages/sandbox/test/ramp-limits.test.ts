/** Ramp API throttling and injected faults over real HTTP. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
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

  await sleep(1050);
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

test('faults injected on a ramp route: a status once, then an HTML challenge, then normal again', async () => {
  const body = {
    api_key: 'pk_sandbox_f',
    payment_method: 'creditcard',
    region: 'DE',
    fiat_amount: 50,
    crypto_currency: 'BTC',
  };
  const rule = await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/ramp/api/v1/merchant/pricing', status: 503, times: 1 },
  });
  assert.equal(rule.status, 200);
  const failed = await json<{ success: boolean }>(`${sandbox.api}/pricing`, { body });
  assert.equal(failed.status, 503);
  assert.equal(failed.body.success, false);
  assert.equal((await json(`${sandbox.api}/pricing`, { body })).status, 200, 'times: 1 applies once');

  await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/ramp/api/v1/merchant/*', body: 'html403', times: 1 },
  });
  const challenge = await fetch(`${sandbox.api}/get_supported`);
  assert.equal(challenge.status, 403);
  assert.match(await challenge.text(), /cdn-cgi\/challenge-platform/);
  assert.equal((await supported()).status, 200);
});

test('faults: latency delays the answer, a malformed body breaks the JSON, rules match a prefix', async () => {
  await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/ramp/api/v1/merchant/get_supported', latencyMs: 300, times: 1 },
  });
  const started = performance.now();
  assert.equal((await supported()).status, 200, 'latency alone still answers normally');
  assert.ok(performance.now() - started >= 290, 'after the injected delay');

  await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/ramp/api/v1/merchant/get_supported', body: 'malformed', status: 200, times: 1 },
  });
  const malformed = await supported();
  assert.equal(malformed.status, 200);
  assert.match(malformed.headers.get('content-type') ?? '', /application\/json/);
  await assert.rejects(malformed.json(), SyntaxError, 'a JSON content type with a cut-off body');

  await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/pay-api/*', method: 'POST', body: 'html403' },
  });
  const order = await fetch(`${sandbox.baseUrl}/pay-api/v1/orders`, {
    method: 'POST',
    headers: { 'x-api-key': 'pay_sandbox_f', 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(order.status, 403, 'the Cloudflare challenge in front of pay-api');
  assert.match(order.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await order.text(), /cdn-cgi\/challenge-platform/);
  const list = await json(`${sandbox.baseUrl}/pay-api/v1/merchants/orders`, {
    headers: { 'x-api-key': 'pay_sandbox_f' },
  });
  assert.equal(list.status, 200, 'the rule names POST only');

  await json(`${sandbox.baseUrl}/control/faults`, { body: { route: '/*', status: 503 } });
  assert.equal((await supported()).status, 503, 'a rule for every route');
  const rules = await json(`${sandbox.baseUrl}/control/faults`, { method: 'DELETE' });
  assert.equal(rules.status, 200, 'controls are never faulted, so the rules can always be cleared');
  assert.equal((await supported()).status, 200);
});
