/** The controls tests and demos drive, over real HTTP: settings and the reset. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSandbox } from '../src/app.ts';
import { type Envelope, json, sandboxPerFile } from './support.ts';

const sandbox = sandboxPerFile();

const settings = () => json<Envelope<Record<string, unknown>>>(`${sandbox.baseUrl}/control/settings`);
const patch = (body: unknown) =>
  json<Envelope<Record<string, unknown>>>(`${sandbox.baseUrl}/control/settings`, { method: 'PATCH', body });

test('every setting starts at its documented default', async () => {
  const { status, body } = await settings();
  assert.equal(status, 200);
  assert.deepEqual(body.data, {
    paymentMethodsShape: 'by-country',
    webhookCasing: 'camel',
    rampRateLimit: 100,
    retryDelaysMs: [500, 1000, 2000, 4000, 8000],
    orderTtlMs: 1_800_000,
    orderIds: 'plain',
    searchIdMatch: 'contains',
    baseFeeJunkEntry: false,
    paymentMethodsCountryFilter: 'honoured',
    supportedShape: 'documented',
    sellQuoteFields: 'all',
    sellFeeCurrency: 'local',
    payApiCasing: 'camel',
    feeFixed: 'converted',
    feeCurrency: 'local',
    feeRounding: 'nearest',
    feeOn: 'priced',
    latePayments: 'unreported',
  });
});

test('a PATCH changes the settings it names and keeps the others; a reset restores the defaults', async () => {
  const changed = await patch({ webhookCasing: 'snake', retryDelaysMs: [10, 20] });
  assert.equal(changed.status, 200);
  assert.equal(changed.body.data['webhookCasing'], 'snake');
  assert.deepEqual(changed.body.data['retryDelaysMs'], [10, 20]);
  const again = await patch({ rampRateLimit: 7 });
  assert.equal(again.body.data['webhookCasing'], 'snake', 'an earlier change stays');
  assert.equal(again.body.data['orderTtlMs'], 1_800_000, 'an unnamed setting keeps its default');
  await json(`${sandbox.baseUrl}/control/reset`, { method: 'POST' });
  const reset = await settings();
  assert.equal(reset.body.data['webhookCasing'], 'camel');
  assert.equal(reset.body.data['rampRateLimit'], 100);
});

test('a setting the sandbox does not know, or a value it does not take, is refused and changes nothing', async () => {
  const typo = await patch({ webhookCasing: 'snake', rampRateLimt: 5 });
  assert.equal(typo.status, 400);
  assert.equal(typo.body.success, false);
  assert.match(typo.body.message ?? '', /rampRateLimt/, 'the unknown key is named');
  const bad = await patch({ rampRateLimit: 0 });
  assert.equal(bad.status, 400);
  const wrongKind = await patch({ paymentMethodsShape: 'nested' });
  assert.equal(wrongKind.status, 400);
  const now = await settings();
  assert.equal(now.body.data['webhookCasing'], 'camel', 'a refused PATCH applies none of its keys');
  assert.equal(now.body.data['rampRateLimit'], 100);
});

test('settings given to createSandbox are checked the same way and survive a reset', async () => {
  assert.throws(() => createSandbox({ baseUrl: 'http://sandbox.test', settings: { orderTtlMs: 5 } }));
  assert.throws(() =>
    createSandbox({
      baseUrl: 'http://sandbox.test',
      settings: { webhookCasng: 'snake' } as Record<string, unknown>,
    }),
  );
  const { state } = createSandbox({ baseUrl: 'http://sandbox.test', settings: { webhookCasing: 'snake' } });
  state.updateSettings({ webhookCasing: 'camel' });
  state.reset();
  assert.equal(state.settings.webhookCasing, 'snake');
});
