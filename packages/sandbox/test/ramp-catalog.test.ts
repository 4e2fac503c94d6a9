/** Ramp API catalog endpoints over real HTTP: payment methods (both shapes), payout methods, supported lists. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Envelope, json, sandboxPerFile } from './support.ts';

interface Method {
  id: number;
  name: string;
  fee: number;
  slug: string;
  default: boolean | null;
  currency: string[];
  base_fee: Record<string, number> | null;
  disabled: boolean;
  min_amount: number;
  max_amount: number;
  payment_group?: string;
  img_url: string;
  img_url_light: string;
}

interface Supported {
  supported_fiats: Array<{ iso: string; name: string }>;
  supported_cryptos: Array<{
    id: number;
    name: string;
    iso: string;
    type: string;
    network: string;
    network_fee: string;
    tags: string[];
  }>;
  supported_countries: Array<{ iso: string; name: string; currency: string }>;
}

const sandbox = sandboxPerFile();

const get = <T>(path: string) => json<Envelope<T>>(`${sandbox.api}/${path}`);

describe('get_payment_methods', () => {
  test('is keyed by country by default, with groups distinct from slugs and both base_fee forms', async () => {
    const response = await get<Record<string, Method[]>>('get_payment_methods');
    assert.equal(response.status, 200);
    const data = response.body.data;
    assert.ok(!Array.isArray(data));
    assert.ok(Object.keys(data).length >= 25, 'at least 25 countries');
    const groupsOf = (country: string) => new Set(data[country]?.map((m) => m.payment_group));
    assert.ok(groupsOf('BR').has('pix'));
    assert.ok(groupsOf('PL').has('blik'));
    assert.ok(groupsOf('MX').has('spei'));
    assert.ok(groupsOf('CA').has('interac'));
    assert.ok(groupsOf('KE').has('mobile-money'));
    assert.ok(groupsOf('PH').has('gcash'));
    assert.ok(groupsOf('IN').has('upi'));
    assert.ok(!groupsOf('DE').has('pix'), 'pix is Brazil only');
    const all = Object.values(data).flat();
    assert.ok(new Set(all.map((m) => m.payment_group)).size >= 15, 'at least 15 groups');
    const card = data['DK']!.find((m) => m.payment_group === 'creditcard')!;
    assert.equal(card.slug, 'creditcard-extra');
    assert.deepEqual(card.base_fee, { base_fee: 0.35 });
    const skrill = all.find((m) => m.slug === 'skrill-extra')!;
    assert.equal(skrill.default, null);
    const applePay = data['DE']!.find((m) => m.slug === 'apple-pay')!;
    assert.equal(applePay.base_fee?.['EUR'], 0.35, 'a currency-keyed base_fee');
    assert.ok(
      all.some((m) => m.disabled),
      'some method is listed disabled',
    );
    for (const method of all) {
      assert.ok(method.min_amount >= 7 && method.max_amount > method.min_amount, method.slug);
      assert.ok(method.currency.length > 0, method.slug);
    }
  });

  test('every logo URL is served by the sandbox as an SVG', async () => {
    const response = await get<Record<string, Method[]>>('get_payment_methods');
    const urls = new Set(
      Object.values(response.body.data).flatMap((m) => m.flatMap((x) => [x.img_url, x.img_url_light])),
    );
    for (const url of urls) {
      assert.ok(url.startsWith(`${sandbox.baseUrl}/ramp/images/payment/`), url);
      const image = await fetch(url);
      assert.equal(image.status, 200, url);
      assert.equal(image.headers.get('content-type'), 'image/svg+xml');
      assert.match(await image.text(), /^<svg /);
    }
    assert.equal((await fetch(`${sandbox.baseUrl}/ramp/images/payment/nothing.svg`)).status, 404);
  });

  test('is a flat list when the shape setting says so', async () => {
    await json(`${sandbox.baseUrl}/control/settings`, {
      method: 'PATCH',
      body: { paymentMethodsShape: 'flat' },
    });
    const response = await get<Method[]>('get_payment_methods');
    assert.ok(Array.isArray(response.body.data));
    const slugs = response.body.data.map((m) => m.slug);
    assert.equal(new Set(slugs).size, slugs.length, 'each method once');
    assert.ok(slugs.includes('creditcard-extra') && slugs.includes('pix'));
  });

  test('?country= (or ?slug=) gives that country as an array; apiKey restricts to the merchant', async () => {
    const brazil = await get<Method[]>('get_payment_methods?country=br');
    assert.ok(Array.isArray(brazil.body.data));
    assert.ok(brazil.body.data.some((m) => m.slug === 'pix'));
    const poland = await get<Method[]>('get_payment_methods?slug=PL');
    assert.ok(poland.body.data.some((m) => m.slug === 'blik'));
    assert.deepEqual((await get<Method[]>('get_payment_methods?country=ZZ')).body.data, []);
    assert.equal((await get('get_payment_methods?country=Germany')).status, 400);

    const everyone = await get<Method[]>('get_payment_methods?country=DE&apiKey=pk_sandbox_shop');
    assert.deepEqual(
      everyone.body.data.map((m) => m.slug),
      (await get<Method[]>('get_payment_methods?country=DE')).body.data.map((m) => m.slug),
    );
    const limited = await get<Method[]>('get_payment_methods?country=DE&apiKey=pk_sandbox_limited');
    assert.deepEqual([...new Set(limited.body.data.map((m) => m.payment_group))].sort(), [
      'apple-pay',
      'creditcard',
      'google-pay',
    ]);
    const bad = await get('get_payment_methods?apiKey=pk_live_123');
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { success: false, message: 'Invalid apiKey' });
  });
});

describe('sell/get_payout_methods', () => {
  test('without slug: keyed by country, with the documented methods', async () => {
    const response = await get<Record<string, Method[]>>('sell/get_payout_methods');
    assert.equal(response.status, 200);
    const data = response.body.data;
    assert.deepEqual(data['BR']!.map((m) => m.slug).sort(), ['bank-transfer', 'pix', 'skrill']);
    assert.deepEqual(data['CA']!.map((m) => m.slug).sort(), ['bank-transfer', 'interac-extra', 'skrill']);
    assert.deepEqual(data['DE']!.map((m) => m.slug).sort(), ['bank-transfer', 'skrill']);
    const bank = data['DE']!.find((m) => m.slug === 'bank-transfer')!;
    assert.deepEqual(bank.currency, ['EUR', 'DKK', 'GBP']);
    assert.equal(bank.min_amount, 7);
    assert.deepEqual(Object.keys(bank.base_fee ?? {}), ['EUR', 'DKK', 'GBP']);
    assert.deepEqual(data['DE']!.find((m) => m.slug === 'skrill')!.base_fee, { base_fee: 0.6 });
    assert.deepEqual(data['BR']!.find((m) => m.slug === 'pix')!.currency, ['BRL']);
  });

  test('with slug: an array for that country; api_key restricts; a bad key is refused', async () => {
    const brazil = await get<Method[]>('sell/get_payout_methods?slug=BR');
    assert.ok(Array.isArray(brazil.body.data));
    assert.ok(brazil.body.data.some((m) => m.slug === 'pix'));
    const limitedBrazil = await get<Method[]>('sell/get_payout_methods?slug=BR&api_key=pk_sandbox_limited');
    assert.deepEqual(
      limitedBrazil.body.data.map((m) => m.slug),
      ['bank-transfer'],
    );
    const limitedAll = await get<Record<string, Method[]>>(
      'sell/get_payout_methods?api_key=pk_sandbox_limited',
    );
    assert.ok(
      Object.values(limitedAll.body.data).every((list) => list.every((m) => m.slug === 'bank-transfer')),
    );
    const plain = await get<Method[]>('sell/get_payout_methods?slug=CA&api_key=pk_sandbox_shop');
    assert.ok(plain.body.data.some((m) => m.slug === 'interac-extra'));
    const bad = await get('sell/get_payout_methods?api_key=sk_sandbox_shop');
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { success: false, message: 'Invalid apiKey' });
  });
});

describe('get_supported', () => {
  test('lists at least 25 countries, 12 fiats, 15 cryptos across 6 networks, in the documented shape', async () => {
    const response = await get<Supported>('get_supported');
    assert.equal(response.status, 200);
    const { supported_countries, supported_fiats, supported_cryptos } = response.body.data;
    assert.ok(supported_countries.length >= 25);
    assert.ok(supported_fiats.length >= 12);
    assert.ok(supported_cryptos.length >= 15);
    assert.ok(new Set(supported_cryptos.map((c) => c.network)).size >= 6);
    const fiatCodes = new Set(supported_fiats.map((f) => f.iso));
    for (const country of supported_countries) {
      assert.match(country.iso, /^[A-Z]{2}$/);
      assert.ok(country.name.length > 2);
      assert.ok(fiatCodes.has(country.currency), `${country.iso} currency ${country.currency} is supported`);
    }
    for (const code of [
      'BTC',
      'ETH',
      'USDC_BASE',
      'USDT_TRON',
      'SOL',
      'USDC_ETHEREUM',
      'XRP',
      'TON',
      'LTC',
    ]) {
      const crypto = supported_cryptos.find((c) => c.iso === code);
      assert.ok(crypto, code);
      assert.ok(['coin', 'token'].includes(crypto.type));
      assert.match(crypto.network_fee, /^\d+\.\d{2}$/, 'network_fee is a string in EUR');
      assert.ok(crypto.tags.includes(code));
    }
    assert.equal(supported_cryptos.find((c) => c.iso === 'USDC_BASE')!.network, 'base');
    assert.equal(supported_cryptos.find((c) => c.iso === 'LTC')!.network, 'litecoin');
    assert.equal(
      new Set(supported_cryptos.map((c) => c.id)).size,
      supported_cryptos.length,
      'ids are unique',
    );
  });

  test('unknown merchant endpoints answer 404 in the ramp envelope', async () => {
    const response = await get('get_everything');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { success: false, message: 'Not found' });
  });
});
