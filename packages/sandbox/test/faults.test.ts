/** Injected faults over real HTTP: statuses, bodies, latency on the sandbox clock, seeded probability. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventually, json, pending, sandboxPerFile } from './support.ts';

const sandbox = sandboxPerFile();

const supported = () => fetch(`${sandbox.api}/get_supported`);
const addFault = (rule: Record<string, unknown>) => json(`${sandbox.baseUrl}/control/faults`, { body: rule });
const PINNED = Date.parse('2025-06-01T12:00:00.000Z');

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

test('faults: a malformed or empty body, rules by method, a prefix, every route', async () => {
  await json(`${sandbox.baseUrl}/control/faults`, {
    body: { route: '/ramp/api/v1/merchant/get_supported', body: 'malformed', status: 200, times: 1 },
  });
  const malformed = await supported();
  assert.equal(malformed.status, 200);
  assert.match(malformed.headers.get('content-type') ?? '', /application\/json/);
  await assert.rejects(malformed.json(), SyntaxError, 'a JSON content type with a cut-off body');

  await addFault({ route: '/ramp/api/v1/merchant/get_supported', body: 'empty', status: 200, times: 1 });
  const empty = await supported();
  assert.equal(empty.status, 204, 'an empty body with 200 is a 204, as HTTP wants');
  assert.equal(await empty.text(), '');

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

test('latency waits on the sandbox clock: a pinned clock holds the answer until it is advanced past it', async () => {
  await json(`${sandbox.baseUrl}/control/clock`, { body: { now: PINNED } });
  await addFault({ route: '/ramp/api/v1/merchant/get_supported', latencyMs: 300, times: 1 });
  let settled = false;
  const answer = supported().then((response) => {
    settled = true;
    return response;
  });
  const held = await eventually(
    async () => (await pending(sandbox.baseUrl)).onSandboxClock[0],
    'the held answer',
  );
  assert.equal(held.what, 'latency GET /ramp/api/v1/merchant/get_supported');
  assert.equal(held.until, new Date(PINNED + 300).toISOString(), 'due 300 ms of sandbox time after it came');

  await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 299 } });
  assert.equal(
    (await pending(sandbox.baseUrl)).onSandboxClock.length,
    1,
    'one millisecond short: still held',
  );
  assert.equal(settled, false);

  await json(`${sandbox.baseUrl}/control/clock`, { body: { advanceMs: 1 } });
  const response = await answer;
  assert.equal(response.status, 200, 'latency alone still answers normally');
  assert.equal(((await response.json()) as { success: boolean }).success, true);
  assert.deepEqual((await pending(sandbox.baseUrl)).onSandboxClock, []);
});

test('a reset lets a held answer go, with no fault left', async () => {
  await json(`${sandbox.baseUrl}/control/clock`, { body: { now: PINNED } });
  await addFault({ route: '/ramp/api/v1/merchant/get_supported', latencyMs: 60_000, status: 503 });
  const answer = supported();
  await eventually(async () => (await pending(sandbox.baseUrl)).onSandboxClock[0], 'the held answer');
  await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
  assert.equal((await answer).status, 503, 'the rule it met still decides its answer');
  assert.deepEqual((await json<{ data: unknown[] }>(`${sandbox.baseUrl}/control/faults`)).body.data, []);
  assert.equal((await supported()).status, 200);
});

test('probability picks the same requests for the same seed, every run', async () => {
  /** Twenty requests in a row under one rule; which of them failed. */
  const pattern = async (rule: Record<string, unknown>) => {
    await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
    await addFault({ route: '/ramp/api/v1/merchant/get_supported', status: 503, ...rule });
    let picked = '';
    for (let i = 0; i < 20; i += 1) {
      const response = await supported();
      await response.body?.cancel();
      picked += response.status === 503 ? 'x' : '.';
    }
    return picked;
  };
  const first = await pattern({ probability: 0.3, seed: 7 });
  assert.match(first, /x/, 'some requests fail');
  assert.match(first, /\./, 'some go through');
  assert.equal(await pattern({ probability: 0.3, seed: 7 }), first, 'the same seed picks the same requests');
  assert.notEqual(await pattern({ probability: 0.3, seed: 8 }), first, 'another seed picks others');
  assert.equal(await pattern({ probability: 1 }), 'x'.repeat(20));
  assert.equal(await pattern({ probability: 0 }), '.'.repeat(20));
});
