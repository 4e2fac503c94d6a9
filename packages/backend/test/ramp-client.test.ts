/** Unit tests of the ramp client's pure parts: URL signing and lenient parsing of both documented shapes. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buyQuoteData, methodsData, supportedData } from '../src/schemas/upstream-ramp.ts';
import { signedWidgetUrl } from '../src/upstream/ramp-client.ts';

describe('widget URL signing (facts.md §3.1)', () => {
  test('matches the facts.md test vector', () => {
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
