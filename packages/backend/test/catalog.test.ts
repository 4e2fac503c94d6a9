import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, type Stack, startStack } from './support.ts';

interface Catalog {
  country: string;
  paymentMethods: Array<{ id: string; min: string; currencies: string[]; limits: { currency: string } }>;
  payoutMethods: Array<{ id: string }>;
  cryptos: Array<{ code: string; symbol: string; networkFee: string }>;
  countries: Array<{ code: string; currency: string }>;
  chains: Array<{ id: string }>;
  defaults: { country: string; fiat: string; crypto: string; paymentMethod: string | null };
}

describe('GET /api/catalog', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  test("a country's methods, currencies and defaults, in API.md's shape", async () => {
    const response = await stack.api('/api/catalog?country=de');
    assert.equal(response.status, 200);
    const catalog = await json<Catalog>(response);
    assert.equal(catalog.country, 'DE');
    assert.equal(catalog.defaults.fiat, 'EUR');
    assert.ok(catalog.paymentMethods.some((method) => method.id === 'creditcard'));
    assert.ok(catalog.payoutMethods.some((method) => method.id === 'bank-transfer'));
    assert.equal(catalog.paymentMethods[0]?.limits.currency, 'EUR');
    assert.match(catalog.paymentMethods[0]?.min ?? '', /^\d+(\.\d+)?$/);
    assert.ok(catalog.cryptos.some((crypto) => crypto.code === 'USDC_BASE' && crypto.symbol === 'USDC'));
    assert.ok(catalog.chains.some((chain) => chain.id === 'base'));
    // Only Germany's methods: PIX is Brazil's.
    assert.ok(!catalog.paymentMethods.some((method) => method.id === 'pix'));
    const brazil = await json<Catalog>(await stack.api('/api/catalog?country=BR'));
    assert.equal(brazil.defaults.fiat, 'BRL');
    assert.ok(brazil.paymentMethods.some((method) => method.id === 'pix'));
  });

  test('the country comes from headers, else DEFAULT_COUNTRY', async () => {
    const cf = await json<Catalog>(await stack.api('/api/catalog', { headers: { 'cf-ipcountry': 'FR' } }));
    assert.equal(cf.country, 'FR');
    const lang = await json<Catalog>(
      await stack.api('/api/catalog', { headers: { 'accept-language': 'pl-PL,pl;q=0.9' } }),
    );
    assert.equal(lang.country, 'PL');
    const none = await json<Catalog>(
      await stack.api('/api/catalog', { headers: { 'accept-language': 'en' } }),
    );
    assert.equal(none.country, stack.config.defaultCountry);
    const bad = await stack.api('/api/catalog?country=Germany');
    assert.equal(bad.status, 422);
    assert.equal((await json<{ error: { code: string } }>(bad)).error.code, 'VALIDATION_FAILED');
  });

  test('catalog reads are cached: many requests, one upstream call per list', async () => {
    const fresh = await startStack();
    try {
      await Promise.all(Array.from({ length: 20 }, () => fresh.api('/api/catalog?country=DE')));
      for (let i = 0; i < 5; i += 1) await fresh.api('/api/catalog?country=DE');
      // get_supported, get_payment_methods, get_payout_methods: one each.
      assert.equal(fresh.deps.ramp.budgetStats().granted, 3);
    } finally {
      await fresh.close();
    }
  });

  test('a flat payment-method list is accepted; the country is then asked for by name', async () => {
    const flat = await startStack();
    try {
      await flat.control('PATCH', '/settings', { paymentMethodsShape: 'flat' });
      const de = await json<Catalog>(await flat.api('/api/catalog?country=DE'));
      const br = await json<Catalog>(await flat.api('/api/catalog?country=BR'));
      assert.ok(de.paymentMethods.some((method) => method.id === 'creditcard'));
      assert.ok(
        !de.paymentMethods.some((method) => method.id === 'pix'),
        'Germany does not get Brazil methods',
      );
      assert.ok(br.paymentMethods.some((method) => method.id === 'pix'));
    } finally {
      await flat.close();
    }
  });
});
