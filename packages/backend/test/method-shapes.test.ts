/**
 * Every documented shape of the ramp's payment-method list (docs/upstream.md#payment-methods: keyed by country, a
 * flat list with or without each method's countries, one bare method) gives each country exactly its own
 * methods, over real HTTP against the sandbox; a list that cannot say which methods a country has, or that
 * cannot be read, is refused with UPSTREAM_ERROR in the envelope, never guessed (issue 29).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { methodsData } from '../src/schemas/upstream-ramp.ts';
import { json, type Stack, startStack } from './support.ts';

const countries = ['DE', 'BR', 'PL', 'US', 'DK', 'KE', 'JP'];

describe('payment-method lists in every documented shape', () => {
  let stack: Stack;
  /** Each country's own methods, as the sandbox lists them for that country. */
  const own = new Map<string, string[]>();
  before(async () => {
    stack = await startStack();
    for (const country of countries) {
      const response = await fetch(
        `${stack.sandboxUrl}/ramp/api/v1/merchant/get_payment_methods?country=${country}`,
      );
      const { data } = await json<{ data: Array<{ slug: string; disabled: boolean }> }>(response);
      own.set(
        country,
        data.map((method) => method.slug),
      );
    }
  });
  after(() => stack.close());

  /** A backend and sandbox of their own, the sandbox answering in the shape asked for. */
  const fresh = async (settings: Record<string, string>) => {
    const other = await startStack();
    await other.control('PATCH', '/settings', settings);
    return other;
  };

  for (const shape of ['by-country', 'flat', 'flat-countries'] as const) {
    test(`${shape}: each country gets exactly its own methods`, async () => {
      const backend = await fresh({ paymentMethodsShape: shape });
      try {
        for (const country of countries) {
          const methods = await backend.deps.ramp.paymentMethods(country);
          assert.deepEqual(
            methods.map((method) => method.slug).sort(),
            [...(own.get(country) ?? [])].sort(),
            `${shape}, ${country}`,
          );
        }
      } finally {
        await backend.close();
      }
    });
  }

  test('single: each country gets the one method the upstream names for it, its own', async () => {
    const backend = await fresh({ paymentMethodsShape: 'single' });
    try {
      for (const country of countries) {
        const methods = await backend.deps.ramp.paymentMethods(country);
        assert.deepEqual(
          methods.map((method) => method.slug),
          [own.get(country)?.[0]],
          country,
        );
      }
      const catalog = await json<{ paymentMethods: Array<{ id: string }> }>(
        await backend.api('/api/catalog?country=BR'),
      );
      assert.ok(catalog.paymentMethods.length <= 1);
    } finally {
      await backend.close();
    }
  });

  for (const shape of ['flat', 'single'] as const) {
    test(`${shape}, with the country filter ignored: refused, not guessed`, async () => {
      const backend = await fresh({ paymentMethodsShape: shape, paymentMethodsCountryFilter: 'ignored' });
      try {
        const response = await backend.api('/api/catalog?country=DE');
        assert.equal(response.status, 502);
        const { error } = await json<{ error: { code: string; message: string } }>(response);
        assert.equal(error.code, 'UPSTREAM_ERROR');
        assert.match(error.message, /does not say which methods DE has/);
        const quote = await backend.api('/api/quotes/buy', {
          method: 'POST',
          json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '50' },
        });
        assert.equal(quote.status, 502);
      } finally {
        await backend.close();
      }
    });
  }
});

describe('a method list that cannot be read is refused', () => {
  const method = { slug: 'creditcard', name: 'Card', fee: 3, currency: ['EUR'], payment_group: 'creditcard' };
  test('keyed by something other than a country', () => {
    assert.equal(methodsData.safeParse({ methods: [method] }).success, false);
    assert.equal(methodsData.safeParse({ DE: [method], everywhere: [method] }).success, false);
  });
  test('entries none of which can be read', () => {
    assert.equal(methodsData.safeParse([{ name: 'no slug' }, 'text']).success, false);
    assert.equal(methodsData.safeParse({ DE: [{ id: 3 }] }).success, false);
  });
  test('each documented shape is read, countries where the entries name them', () => {
    assert.deepEqual(Object.keys(methodsData.parse({ de: [method], US: method })).sort(), ['DE', 'US']);
    assert.deepEqual(Object.keys(methodsData.parse([{ ...method, countries: ['DE', 'AT'] }])).sort(), [
      'AT',
      'DE',
    ]);
    assert.deepEqual(Object.keys(methodsData.parse(method)), ['*']);
    assert.deepEqual(methodsData.parse([]), {});
  });
});
