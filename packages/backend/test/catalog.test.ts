import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import type { RampSupported } from '../src/schemas/upstream-ramp.ts';
import { UpstreamBudget } from '../src/upstream/budget.ts';
import { createRampClient } from '../src/upstream/ramp-client.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

interface Terms {
  currency: string;
  fixedFee: string;
  min: string | null;
  max: string | null;
  converted: boolean;
}

interface Catalog {
  country: string;
  paymentMethods: Array<{
    id: string;
    min: string;
    fixedFee: string;
    currencies: string[];
    limits: { currency: string };
    terms: Terms[];
  }>;
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

  test('is sent brotli- or gzip-compressed to a client that accepts it, the same JSON as uncompressed', async () => {
    // node:http, which (unlike fetch) neither asks for an encoding nor decodes one by itself.
    const get = (acceptEncoding?: string) =>
      new Promise<{ encoding: string | undefined; vary: string; body: Buffer }>((resolve, reject) => {
        const request = httpGet(
          `${stack.backendUrl}/api/catalog?country=DE`,
          { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                encoding: response.headers['content-encoding'],
                vary: String(response.headers.vary),
                body: Buffer.concat(chunks),
              }),
            );
          },
        );
        request.on('error', reject);
      });
    const plain = await get();
    assert.equal(plain.encoding, undefined);
    const catalog = JSON.parse(plain.body.toString()) as Catalog;
    assert.equal(catalog.country, 'DE');
    const brotli = await get('gzip, deflate, br');
    assert.equal(brotli.encoding, 'br');
    assert.match(brotli.vary, /Accept-Encoding/);
    assert.ok(brotli.body.length < plain.body.length / 3, `${brotli.body.length} B of ${plain.body.length}`);
    assert.deepEqual(JSON.parse(brotliDecompressSync(brotli.body).toString()), catalog);
    const gzip = await get('gzip');
    assert.equal(gzip.encoding, 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(gzip.body).toString()), catalog);
  });

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
    // A script subtag before the region, and the underscore some clients write.
    for (const [header, country] of [
      ['pt-Latn-BR,pt;q=0.8', 'BR'],
      ['fr_FR', 'FR'],
    ] as const) {
      const read = await json<Catalog>(
        await stack.api('/api/catalog', { headers: { 'accept-language': header } }),
      );
      assert.equal(read.country, country, header);
    }
    // What is not a language tag (WebKitGTK under LANG=C.UTF-8 sends `C`), a UN region, an empty header or a
    // malformed one name no country: the default, never a guess read out of noise.
    for (const header of ['C', '', 'es-419', '*', 'en-US-!!', 'C.UTF-8']) {
      const read = await json<Catalog>(
        await stack.api('/api/catalog', { headers: { 'accept-language': header } }),
      );
      assert.equal(read.country, stack.config.defaultCountry, JSON.stringify(header));
    }
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

  test('served with an ETag and public caching; If-None-Match answers 304 without a body', async () => {
    const first = await stack.api('/api/catalog?country=DE');
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'public, max-age=60');
    assert.match(first.headers.get('content-type') ?? '', /^application\/json/);
    const etag = first.headers.get('etag') ?? '';
    assert.match(etag, /^"[\w-]+"$/);
    const body = await first.text();
    const again = await stack.api('/api/catalog?country=DE');
    assert.equal(again.headers.get('etag'), etag, 'the same catalog, the same tag');
    assert.equal(await again.text(), body);
    const other = await stack.api('/api/catalog?country=BR');
    assert.notEqual(other.headers.get('etag'), etag, 'another country, another tag');
    await other.arrayBuffer();

    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const cached = await stack.api('/api/catalog?country=DE', {
        headers: { 'if-none-match': ifNoneMatch },
      });
      assert.equal(cached.status, 304, ifNoneMatch);
      assert.equal(cached.headers.get('etag'), etag);
      assert.equal(await cached.text(), '');
    }
    const changed = await stack.api('/api/catalog?country=DE', { headers: { 'if-none-match': '"stale"' } });
    assert.equal(changed.status, 200);
    assert.equal(await changed.text(), body);

    // From headers, caches must key on them.
    const byHeader = await stack.api('/api/catalog', { headers: { 'cf-ipcountry': 'DE' } });
    assert.match(byHeader.headers.get('vary') ?? '', /CF-IPCountry/i);
    assert.equal(byHeader.headers.get('etag'), etag);
    await byHeader.arrayBuffer();
  });

  test('when the ramp catalog is refreshed, the response and its ETag follow', async () => {
    // The real ramp client, except that `supported()` answers what a refresh would bring: a new object.
    let supported = await stack.deps.ramp.supported();
    const app = createApp({ ...stack.deps, ramp: { ...stack.deps.ramp, supported: async () => supported } });
    const get = (headers: Record<string, string> = {}) => app.request('/api/catalog?country=DE', { headers });
    const before = await get();
    const etag = before.headers.get('etag') ?? '';
    const fiats = (await json<{ fiats: Array<{ code: string }> }>(before)).fiats;
    assert.ok(!fiats.some((fiat) => fiat.code === 'XTS'));
    assert.equal((await get({ 'if-none-match': etag })).status, 304, 'nothing changed yet');

    const refreshed: RampSupported = {
      ...supported,
      supported_fiats: [...supported.supported_fiats, { iso: 'XTS', name: 'Test currency' }],
    };
    supported = refreshed;
    const after = await get({ 'if-none-match': etag });
    assert.equal(after.status, 200, 'the old tag no longer matches');
    assert.notEqual(after.headers.get('etag'), etag);
    const body = await json<{ fiats: Array<{ code: string }> }>(after);
    assert.ok(body.fiats.some((fiat) => fiat.code === 'XTS'));
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

describe("the methods' terms in each currency (issue 15)", () => {
  interface Priced {
    fiat: { total: string; currency: string };
  }
  interface Refused {
    error: { code: string; details: { min: string; max: string; currency: string } };
  }
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  const card = async (country: string) => {
    const catalog = await json<Catalog>(await stack.api(`/api/catalog?country=${country}`));
    const method = catalog.paymentMethods.find((m) => m.id === 'creditcard');
    assert.ok(method, `no card in ${country}`);
    return method;
  };
  const quote = (country: string, fiat: string, fiatAmount: string) =>
    stack.api('/api/quotes/buy', {
      method: 'POST',
      json: { paymentMethod: 'creditcard', country, fiat, crypto: 'USDC_BASE', fiatAmount },
    });

  // USD has cents; JPY has none, so there the rounding of the exact bounds (totals to the cent) is visible.
  for (const [country, fiat, digits] of [
    ['US', 'USD', 2],
    ['JP', 'JPY', 0],
  ] as const) {
    test(`${fiat}'s are converted from EUR, the least rounded up and the most down: both bounds are quoted, one unit past either is refused with the same figure`, async () => {
      // A first quote teaches the backend the exact rate (until then it has the fee tables' rough one, if any).
      assert.equal((await quote(country, fiat, digits ? '100' : '20000')).status, 200);
      const terms = (await card(country)).terms.find((t) => t.currency === fiat);
      assert.ok(terms?.min && terms.max, `the card states ${fiat} limits`);
      assert.equal(terms.converted, true);
      const shape = digits ? /^\d+\.\d{2}$/ : /^\d+$/;
      for (const figure of [terms.min, terms.max, terms.fixedFee]) assert.match(figure, shape);

      for (const bound of [terms.min, terms.max]) {
        const response = await quote(country, fiat, bound);
        assert.equal(response.status, 200, `${bound} ${fiat} is within the limits the catalog shows`);
        assert.equal((await json<Priced>(response)).fiat.total, bound);
      }
      const step = (amount: string, units: number) => (Number(amount) + units / 10 ** digits).toFixed(digits);
      const low = await quote(country, fiat, step(terms.min, -1));
      assert.equal(low.status, 422);
      const lowBody = await json<Refused>(low);
      assert.equal(lowBody.error.code, 'AMOUNT_TOO_LOW');
      assert.deepEqual([lowBody.error.details.min, lowBody.error.details.currency], [terms.min, fiat]);
      const high = await quote(country, fiat, step(terms.max, 1));
      assert.equal(high.status, 422);
      const highBody = await json<Refused>(high);
      assert.equal(highBody.error.code, 'AMOUNT_TOO_HIGH');
      assert.deepEqual([highBody.error.details.max, highBody.error.details.currency], [terms.max, fiat]);
    });
  }

  test("EUR's are the method's own figures, not marked converted", async () => {
    const method = await card('DE');
    const eur = method.terms.find((t) => t.currency === 'EUR');
    assert.ok(eur, 'the card states EUR terms');
    assert.equal(eur.converted, false);
    assert.equal(eur.fixedFee, method.fixedFee);
    assert.ok(method.terms.every((t) => t.converted === (t.currency !== 'EUR')));
  });
});

describe('a method whose base_fee map has an unreadable entry (issue 13, case 7)', () => {
  test('keeps the method, drops the entry, and says so once in the log', async () => {
    const stack = await startStack();
    const logged: string[] = [];
    try {
      await stack.control('PATCH', '/settings', { baseFeeJunkEntry: true });
      // The shopper's view: Poland still offers BLIK, its fee read from the entries that are numbers.
      const poland = await json<Catalog>(await stack.api('/api/catalog?country=PL'));
      const blik = poland.paymentMethods.find((method) => method.id === 'blik');
      assert.ok(blik, `BLIK is still offered: ${poland.paymentMethods.map((m) => m.id)}`);
      assert.match(blik.fixedFee, /^\d+\.\d{2}$/);
      // The operator's view: a client reading the same answer logs the dropped entry, once per method.
      const client = createRampClient({
        apiUrl: `${stack.sandboxUrl}/ramp`,
        widgetUrl: `${stack.sandboxUrl}/ramp`,
        publicKey: testSecrets.rampPublicKey,
        secretKey: testSecrets.rampSecretKey,
        timeoutMs: 5000,
        budget: new UpstreamBudget({ perSecond: 50 }),
        clock: systemClock,
        log: (line) => logged.push(line),
      });
      await client.paymentMethods('PL');
      await client.paymentMethods('DE');
      const about = logged.filter((line) => line.includes('blik.base_fee.XXX'));
      assert.equal(about.length, 1, logged.join('\n'));
      assert.ok(client.drift().some((entry) => entry.field === 'blik.base_fee.XXX'));
      await client.close();
    } finally {
      await stack.close();
    }
  });
});

describe('a flat method list whose upstream ignores the country filter (issue 13, case 4; issue 29; issue 47)', () => {
  test("offers each country the methods taking its fiat, since nothing says which are the country's", async () => {
    const stack = await startStack();
    try {
      await stack.control('PATCH', '/settings', {
        paymentMethodsShape: 'flat',
        paymentMethodsCountryFilter: 'ignored',
      });
      for (const [country, fiat, own, foreign] of [
        ['DE', 'EUR', 'creditcard', 'pix'],
        ['BR', 'BRL', 'pix', 'blik'],
      ] as const) {
        const response = await stack.api(`/api/catalog?country=${country}`);
        assert.equal(response.status, 200);
        const catalog = await json<Catalog>(response);
        const ids = catalog.paymentMethods.map((method) => method.id);
        assert.ok(ids.includes(own) && !ids.includes(foreign), `${country} is offered ${ids}`);
        assert.ok(
          catalog.paymentMethods.every((method) => method.currencies.includes(fiat)),
          `${country}: each takes ${fiat}`,
        );
      }
      // Each method naming its countries, the same upstream is read exactly (test/method-shapes.test.ts).
      const fresh = await startStack();
      try {
        await fresh.control('PATCH', '/settings', {
          paymentMethodsShape: 'flat-countries',
          paymentMethodsCountryFilter: 'ignored',
        });
        const germany = await json<Catalog>(await fresh.api('/api/catalog?country=DE'));
        const ids = germany.paymentMethods.map((method) => method.id);
        assert.ok(!ids.includes('pix') && !ids.includes('blik'), `Germany is offered ${ids}`);
        assert.ok(ids.includes('creditcard'), `Germany keeps the card: ${ids}`);
      } finally {
        await fresh.close();
      }
    } finally {
      await stack.close();
    }
  });
});

describe('ramp data in a shape no document describes (issue 13, case 6)', () => {
  test('the shopper gets 502 UPSTREAM_ERROR, not an empty catalog or a 422; the operator sees the drift', async () => {
    const stack = await startStack();
    try {
      await stack.control('PATCH', '/settings', { supportedShape: 'renamed' });
      const catalog = await stack.api('/api/catalog?country=DE');
      assert.equal(catalog.status, 502);
      assert.equal((await json<{ error: { code: string } }>(catalog)).error.code, 'UPSTREAM_ERROR');
      const quote = await stack.api('/api/quotes/buy', {
        method: 'POST',
        json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '50' },
      });
      assert.equal(quote.status, 502);
      assert.equal((await json<{ error: { code: string } }>(quote)).error.code, 'UPSTREAM_ERROR');
      const health = await json<{ upstreamDrift: number }>(await stack.api('/healthz'));
      assert.ok(health.upstreamDrift >= 1);
      const admin = await json<{ drift: Array<{ path: string; field: string; count: number }> }>(
        await stack.api('/api/admin/upstream-drift', {
          headers: { authorization: `Bearer ${testSecrets.adminToken}` },
        }),
      );
      const missing = admin.drift.find((entry) => entry.field === 'data.supported_countries');
      assert.ok(missing, JSON.stringify(admin.drift));
      assert.match(missing.path, /get_supported$/);
      assert.ok(missing.count >= 2, 'seen again on the next read, counted, not logged again');

      // Back to the documented shape: the catalog answers again.
      await stack.control('PATCH', '/settings', { supportedShape: 'documented' });
      assert.equal((await stack.api('/api/catalog?country=DE')).status, 200);
    } finally {
      await stack.close();
    }
  });
});
