/** Unit tests of the ramp client: URL signing, lenient parsing of both documented shapes, and its caches. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFxRates } from '../src/quotes/fx.ts';
import { buyQuoteData, methodsData, supportedData } from '../src/schemas/upstream-ramp.ts';
import { UpstreamBudget } from '../src/upstream/budget.ts';
import type { UpstreamHttp } from '../src/upstream/http.ts';
import { createRampClient } from '../src/upstream/ramp-client.ts';
import { signedWidgetUrl } from '../src/upstream/widget-url.ts';

describe('widget URL signing (docs/upstream.md#url-signing)', () => {
  test('matches the test vector (docs/upstream.md#test-vectors)', () => {
    const url = signedWidgetUrl(
      'https://widget.example',
      'buy',
      {
        apiKey: 'pk_test_abc',
        currencyCode: 'USDC_BASE',
        walletAddress: '0x000000000000000000000000000000000000dEaD',
        method: 'creditcard',
        baseCurrencyCode: 'USD',
        baseCurrencyAmount: '100.00',
        lockBaseCurrency: true,
      },
      'sk_test_key',
    );
    assert.ok(url.startsWith('https://widget.example/?apiKey=pk_test_abc&'));
    assert.ok(url.endsWith('&signature=oS8OgS5OIG%2Bi6FWUnbzl%2FMZkLNDueGSbOOjcJ9cHEE4%3D'), url);
  });

  test('sell URLs use /sell and URL-encode values such as redirect URLs', () => {
    const url = signedWidgetUrl(
      'https://widget.example/',
      'sell',
      { apiKey: 'pk', redirectUrl: 'https://shop.example/done?a=1&b=2', skipped: undefined },
      'sk',
    );
    assert.match(
      url,
      /^https:\/\/widget\.example\/sell\?apiKey=pk&redirectUrl=https%3A%2F%2Fshop\.example%2Fdone%3Fa%3D1%26b%3D2&signature=/,
    );
  });
});

const method = {
  id: 101,
  name: 'Card',
  fee: '1.75',
  slug: 'creditcard-extra',
  default: null,
  currency: ['EUR', 'USD'],
  base_fee: { base_fee: 0.35 },
  disabled: false,
  min_amount: '7',
  max_amount: 100000,
  payment_group: 'creditcard',
  brand_new_field: { anything: true },
};

describe('lenient ramp schemas', () => {
  test('payment methods keyed by country', () => {
    const parsed = methodsData.parse({ DE: [method], US: [{ ...method, slug: 'creditcard' }] });
    assert.deepEqual(Object.keys(parsed).sort(), ['DE', 'US']);
    const de = parsed['DE']?.[0];
    assert.equal(de?.feePercent, 1.75);
    assert.equal(de?.minEur, 7);
    assert.equal(de?.fixedFeeEur, 0.35);
    assert.equal(de?.isDefault, false);
    assert.equal(de?.group, 'creditcard');
  });

  test('a flat list, a single object, and every base_fee form', () => {
    const flat = methodsData.parse([
      { ...method, base_fee: { EUR: 0.35, USD: 0.4 } },
      { ...method, slug: 'skrill', base_fee: null, default: true, img_url: undefined },
      { ...method, slug: 'bank', base_fee: 0.5 },
      { not: 'a method' },
    ]);
    const list = flat['*'] ?? [];
    assert.equal(list.length, 3, 'the unreadable entry is dropped, the others kept');
    assert.equal(list[0]?.fixedFeeEur, 0.35);
    assert.equal(list[0]?.fixedFeeByCurrency['USD'], 0.4);
    assert.equal(list[1]?.fixedFeeEur, 0);
    assert.equal(list[1]?.isDefault, true);
    assert.equal(list[2]?.fixedFeeEur, 0.5);
    assert.equal(methodsData.parse(method)['*']?.[0]?.slug, 'creditcard-extra');
  });

  test('numeric strings become numbers; words do not', () => {
    const quote = buyQuoteData.parse({
      crypto_amount: '0.11031',
      crypto_unit_price: 4532.7,
      fiat_amount_incl_fees_local: '519.17',
      fiat_amount_excl_fees_local: 500,
    });
    assert.equal(quote.crypto_amount, 0.11031);
    assert.equal(quote.fiat_amount_incl_fees_local, 519.17);
    assert.equal(buyQuoteData.safeParse({ ...quote, crypto_amount: 'lots' }).success, false);
  });

  test('supported lists skip unreadable entries', () => {
    const parsed = supportedData.parse({
      supported_fiats: [{ iso: 'EUR', name: 'Euro' }, { name: 'no iso' }],
      supported_cryptos: [{ iso: 'ETH', name: 'Ethereum', network_fee: '0.90', type: 'coin' }],
      supported_countries: [{ iso: 'DE', name: 'Germany', currency: 'EUR' }],
    });
    assert.equal(parsed.supported_fiats.length, 1);
    assert.equal(parsed.supported_cryptos[0]?.network_fee, 0.9);
  });
});

describe("the client's caches, on a settable clock", () => {
  const supported = {
    supported_fiats: [{ iso: 'EUR', name: 'Euro' }],
    supported_cryptos: [{ iso: 'ETH', name: 'Ether', network: 'ethereum' }],
    supported_countries: [{ iso: 'DE', name: 'Germany', currency: 'EUR' }],
  };
  const quote = {
    crypto_amount: 0.01,
    crypto_unit_price: 3000,
    fiat_amount_excl_fees: 30,
    fiat_amount_excl_fees_local: 30,
  };

  /** A client whose HTTP layer answers from `answer` (or throws), counting the calls, by path. */
  function client(answer: (path: string, n: number) => unknown) {
    let now = 1_000_000;
    const calls: string[] = [];
    const logged: string[] = [];
    const http = {
      get: async (path: string) => {
        calls.push(path);
        return answer(path, calls.length);
      },
      post: async (path: string) => {
        calls.push(path);
        await new Promise((resolve) => setImmediate(resolve));
        return answer(path, calls.length);
      },
    } as unknown as UpstreamHttp;
    const fx = createFxRates();
    const ramp = createRampClient({
      apiUrl: 'https://ramp.example',
      widgetUrl: 'https://widget.example',
      publicKey: 'pk',
      secretKey: 'sk',
      timeoutMs: 1000,
      budget: new UpstreamBudget({ perSecond: 50 }),
      clock: { now: () => now },
      http,
      catalogTtlMs: 60_000,
      catalogMaxStaleMs: 600_000,
      quoteTtlMs: 5000,
      log: (line) => logged.push(line),
      reports: fx,
    });
    return {
      ramp,
      fx,
      calls,
      logged,
      advance: (ms: number) => {
        now += ms;
      },
    };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const buy = { method: 'creditcard', region: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '30', markup: 0 };

  test('a catalog list is fresh for its TTL, then served stale while one refresh runs', async () => {
    let version = 0;
    const c = client(() => ({ ...supported, version: ++version }));
    const first = await c.ramp.supported();
    assert.equal(await c.ramp.supported(), first, 'the same object while fresh');
    assert.equal(c.calls.length, 1);
    c.advance(61_000);
    // Stale: answered at once with the copy it has, one refresh behind it however many ask.
    const stale = await Promise.all([c.ramp.supported(), c.ramp.supported()]);
    assert.deepEqual(stale, [first, first]);
    await settle();
    assert.equal(c.calls.length, 2);
    const refreshed = await c.ramp.supported();
    assert.notEqual(refreshed, first);
    assert.equal(c.calls.length, 2);
  });

  test('a failed background refresh keeps the stale copy and says so; past the max staleness callers wait', async () => {
    let failing = false;
    const c = client(() => {
      if (failing) throw new Error('upstream down');
      return supported;
    });
    const first = await c.ramp.supported();
    failing = true;
    c.advance(61_000);
    assert.equal(await c.ramp.supported(), first);
    await settle();
    assert.ok(
      c.logged.some((line) => line.includes('background catalog refresh failed')),
      c.logged.join('\n'),
    );
    assert.equal(await c.ramp.supported(), first, 'still served after the failed refresh');
    c.advance(600_000);
    await assert.rejects(c.ramp.supported(), /upstream down/);
    failing = false;
    assert.deepEqual(await c.ramp.supported(), supported);
  });

  test('identical quotes are joined in flight and answered again for the quote TTL; failures are not kept', async () => {
    let fail = true;
    const c = client((path) => {
      if (path.endsWith('/pricing') && fail) {
        fail = false;
        throw new Error('refused');
      }
      return quote;
    });
    await assert.rejects(c.ramp.buyQuote(buy), /refused/);
    const joined = await Promise.all([c.ramp.buyQuote(buy), c.ramp.buyQuote(buy)]);
    assert.equal(joined[0], joined[1]);
    assert.equal(c.calls.length, 2, 'the failure, then one call for both');
    c.advance(4000);
    assert.equal(await c.ramp.buyQuote(buy), joined[0]);
    assert.equal(await c.ramp.buyQuote({ ...buy, fiatAmount: '31' }), quote);
    assert.equal(c.calls.length, 3, 'another amount is another call');
    c.advance(1500);
    await c.ramp.buyQuote(buy);
    assert.equal(c.calls.length, 4, 'past the TTL the upstream is asked again');
    // Each priced quote teaches the fiat's exact rate (the FX book the client reports to).
    assert.deepEqual(c.fx.fx('EUR'), { eurPerUnit: 1, exact: true });
  });
});
