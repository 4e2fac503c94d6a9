/**
 * Every documented shape of the ramp's payment-method list (docs/upstream.md#payment-methods: keyed by country, a
 * flat list with or without each method's countries, one bare method) gives each country exactly its own
 * methods, over real HTTP against the sandbox. Where the list cannot say which methods a country has (the
 * upstream ignoring the country filter), the methods taking the country's fiat are offered, each confirmed by its
 * first pricing call in that region, and one refused there is dropped (issue 47, part 5); a list that cannot be
 * read is refused with UPSTREAM_ERROR in the envelope.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { configureLogging } from '../src/logger.ts';
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

  /** A buy quote over HTTP. */
  const buy = (backend: Stack, country: string, fiat: string, paymentMethod: string) =>
    backend.api('/api/quotes/buy', {
      method: 'POST',
      json: { paymentMethod, country, fiat, crypto: 'ETH', fiatAmount: '50' },
    });

  for (const shape of ['by-country', 'flat', 'flat-countries', 'single'] as const) {
    for (const filter of ['honoured', 'ignored'] as const) {
      test(`${shape}, the country filter ${filter}: the catalog, the methods and a quote are served`, async () => {
        const backend = await fresh({ paymentMethodsShape: shape, paymentMethodsCountryFilter: filter });
        try {
          const response = await backend.api('/api/catalog?country=DE');
          assert.equal(response.status, 200, await response.clone().text());
          const catalog = await json<{ paymentMethods: Array<{ id: string; currencies: string[] }> }>(
            response,
          );
          assert.ok(catalog.paymentMethods.length >= 1, `${shape}/${filter}: DE has methods`);
          const methods = await backend.deps.ramp.paymentMethods('DE');
          // Each method offered takes the country's fiat, or is one the list gives DE.
          for (const method of methods)
            assert.ok(
              method.currencies.includes('EUR') || own.get('DE')?.includes(method.slug),
              `${shape}/${filter}: ${method.slug} in DE`,
            );
          const first = catalog.paymentMethods[0]?.id as string;
          const quote = await buy(backend, 'DE', 'EUR', first);
          assert.equal(quote.status, 200, `${shape}/${filter}: ${await quote.clone().text()}`);
        } finally {
          await backend.close();
        }
      });
    }
  }

  test('where the list does not say: the methods taking the fiat are offered, and one the region refuses is dropped, in the log', async () => {
    const lines: string[] = [];
    configureLogging({
      format: 'json',
      level: 'warn',
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      }),
    });
    const backend = await fresh({ paymentMethodsShape: 'flat', paymentMethodsCountryFilter: 'ignored' });
    try {
      // The US pays in USD; Skrill takes USD but is not offered in the US (the sandbox's table).
      const before = await json<{ paymentMethods: Array<{ id: string }> }>(
        await backend.api('/api/catalog?country=US'),
      );
      const offered = before.paymentMethods.map((method) => method.id);
      assert.ok(offered.includes('skrill') && offered.includes('creditcard'), `offered: ${offered}`);
      assert.ok(!offered.includes('pix'), 'PIX takes no USD: not offered');
      const card = await buy(backend, 'US', 'USD', 'creditcard');
      assert.equal(card.status, 200, await card.clone().text());
      const skrill = await buy(backend, 'US', 'USD', 'skrill');
      assert.equal(skrill.status, 422);
      assert.equal((await json<{ error: { code: string } }>(skrill)).error.code, 'METHOD_UNAVAILABLE');
      const after = await json<{ paymentMethods: Array<{ id: string }> }>(
        await backend.api('/api/catalog?country=US'),
      );
      const kept = after.paymentMethods.map((method) => method.id);
      assert.ok(!kept.includes('skrill'), `Skrill dropped: ${kept}`);
      assert.ok(kept.includes('creditcard'), `the card kept: ${kept}`);
      const again = await buy(backend, 'US', 'USD', 'skrill');
      assert.equal(again.status, 422, 'refused from the catalog now, without asking the upstream');
      assert.ok(
        lines.some((line) => /does not say which methods US has: offering the \d+ taking USD/.test(line)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((line) =>
          /skrill dropped from US's methods: its first pricing call there was refused/.test(line),
        ),
        lines.join('\n'),
      );
    } finally {
      await backend.close();
      configureLogging({ format: 'json', level: 'warn' });
    }
  });
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
