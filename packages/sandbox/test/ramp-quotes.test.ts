/** Ramp API quotes over real HTTP: every field against the others, both directions, markup, limits, failures. */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { findCrypto, findFiat } from '../src/ramp/catalog.ts';
import { priceIn } from '../src/ramp/price-feed.ts';
import { type BuyQuote, roundPrice, type SellQuote } from '../src/ramp/quote-math.ts';
import { type Envelope, json, sandboxPerFile } from './support.ts';

interface Method {
  slug: string;
  fee: number;
  payment_group?: string;
  base_fee: Record<string, number> | null;
  min_amount: number;
  max_amount: number;
  currency: string[];
}

const PINNED = '2025-06-01T12:00:00.000Z';
const KEY = 'pk_sandbox_quotes';
const r2 = (n: number) => Math.round(n * 100 + Math.sign(n) * 1e-7) / 100;

const sandbox = sandboxPerFile();
beforeEach(async () => {
  await pin(PINNED);
});

const pin = (now: string) => json(`${sandbox.baseUrl}/control/clock`, { body: { now } });
const buy = (body: Record<string, unknown>) =>
  json<Envelope<BuyQuote>>(`${sandbox.api}/pricing`, { body: { api_key: KEY, ...body } });
const sell = (body: Record<string, unknown>) =>
  json<Envelope<SellQuote>>(`${sandbox.api}/sell/pricing`, { body });

async function methodFor(region: string, slug: string): Promise<Method> {
  const response = await json<Envelope<Method[]>>(`${sandbox.api}/get_payment_methods?country=${region}`);
  const method = response.body.data.find((m) => m.slug === slug);
  assert.ok(method, `${slug} is listed for ${region}`);
  return method;
}

async function payoutMethod(slug: string): Promise<Method> {
  const response = await json<Envelope<Method[]>>(`${sandbox.api}/sell/get_payout_methods?slug=DE`);
  const method = response.body.data.find((m) => m.slug === slug);
  assert.ok(method, `${slug} is listed`);
  return method;
}

/** The fixed fee a client reads off a method: `{base_fee: eur}` converted, or the currency's own entry. */
function baseFeeLocal(method: Method, currency: string, eurPerUnit: number): number {
  if (!method.base_fee) return 0;
  if ('base_fee' in method.base_fee) return r2(method.base_fee.base_fee! / eurPerUnit);
  return method.base_fee[currency]!;
}

/** Checks every field of an on-ramp quote against the others, the published method and the FX table. */
async function assertConsistentBuy(q: BuyQuote, region: string, markup: number) {
  const fiat = findFiat(q.fiat_currency)!;
  const crypto = findCrypto(q.crypto_currency)!;
  const method = await methodFor(region, q.payment_method);
  assert.equal(method.payment_group, q.payment_group);
  assert.equal(q.crypto_unit_price, roundPrice(priceIn(crypto, fiat, Date.parse(PINNED))));
  const excl = q.fiat_amount_excl_fees_local;
  assert.equal(q.processing_fee, r2((excl * method.fee) / 100 + baseFeeLocal(method, fiat.iso, fiat.eur)));
  assert.equal(q.markup_fiat_value, r2((excl * markup) / 100));
  assert.equal(q.fiat_amount_incl_fees_local, r2(excl + q.processing_fee + q.markup_fiat_value));
  assert.equal(q.fiat_amount_excl_fees, r2(excl * fiat.eur));
  assert.equal(q.fiat_amount_incl_fees, r2(q.fiat_amount_incl_fees_local * fiat.eur));
  assert.equal(q.network_fee, Number(crypto.network_fee));
  assert.equal(q.network_fee_local, r2(q.network_fee / fiat.eur));
  const exact = (excl - q.network_fee_local) / q.crypto_unit_price;
  const step = 10 ** -crypto.decimals;
  assert.ok(
    q.crypto_amount <= exact + 1e-12 && exact - q.crypto_amount < step + 0.01 / q.crypto_unit_price,
    `crypto_amount ${q.crypto_amount} matches (excl - network fee) / price = ${exact}`,
  );
  assert.equal(
    Number(q.crypto_amount.toFixed(crypto.decimals)),
    q.crypto_amount,
    'rounded to the coin decimals',
  );
  for (const key of Object.keys(q).filter((k) => k.startsWith('fiat_amount') || k === 'processing_fee')) {
    const value = q[key as keyof BuyQuote] as number;
    assert.equal(Number(value.toFixed(2)), value, `${key} has at most 2 decimals`);
  }
}

describe('on-ramp pricing', () => {
  test('a fiat amount gives a quote whose every field agrees with the others', async () => {
    const response = await buy({
      payment_method: 'creditcard',
      region: 'US',
      fiat_currency: 'USD',
      fiat_amount: 500,
      crypto_currency: 'ETH',
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    const q = response.body.data;
    assert.equal(q.fiat_amount_excl_fees_local, 500, 'the requested amount is the excl-fees local amount');
    assert.equal(q.fiat_currency, 'USD');
    assert.equal(q.crypto_currency, 'ETH');
    assert.equal(q.payment_method, 'creditcard');
    assert.equal(q.payment_group, 'creditcard');
    await assertConsistentBuy(q, 'US', 0);
  });

  test('the group resolves to the slug of the region (creditcard-extra in Denmark)', async () => {
    const response = await buy({
      payment_method: 'creditcard',
      region: 'DK',
      fiat_currency: 'DKK',
      fiat_amount: 1000,
      crypto_currency: 'USDC_BASE',
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.data.payment_method, 'creditcard-extra');
    assert.equal(response.body.data.payment_group, 'creditcard');
    await assertConsistentBuy(response.body.data, 'DK', 0);
  });

  test('a crypto amount alone gives the fiat needed to buy it', async () => {
    const response = await buy({
      payment_method: 'apple-pay',
      region: 'DE',
      fiat_currency: 'EUR',
      crypto_amount: 0.0025,
      crypto_currency: 'BTC',
    });
    assert.equal(response.status, 200);
    const q = response.body.data;
    assert.equal(q.crypto_amount, 0.0025);
    assert.equal(q.payment_method, 'apple-pay');
    assert.ok(q.fiat_amount_excl_fees_local > 0.0025 * q.crypto_unit_price, 'fiat covers the network fee');
    await assertConsistentBuy(q, 'DE', 0);
  });

  test('with both amounts the fiat amount wins', async () => {
    const response = await buy({
      payment_method: 'creditcard',
      region: 'GB',
      fiat_currency: 'GBP',
      fiat_amount: 200,
      crypto_amount: 5,
      crypto_currency: 'SOL',
    });
    assert.equal(response.body.data.fiat_amount_excl_fees_local, 200);
    assert.notEqual(response.body.data.crypto_amount, 5);
    await assertConsistentBuy(response.body.data, 'GB', 0);
  });

  test('fiat_currency defaults to the region currency and lowercase crypto tags are accepted', async () => {
    const response = await buy({
      payment_method: 'pix',
      region: 'BR',
      fiat_amount: 300,
      crypto_currency: 'usdc_base',
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.data.fiat_currency, 'BRL');
    assert.equal(response.body.data.crypto_currency, 'USDC_BASE');
    await assertConsistentBuy(response.body.data, 'BR', 0);
  });

  test('markup adds markup_fiat_value to what the customer pays, 0 to 5 accepted', async () => {
    const base = { payment_method: 'creditcard', region: 'FR', fiat_amount: 250, crypto_currency: 'ETH' };
    const plain = (await buy(base)).body.data;
    for (const markup of [0, 2.5, 5]) {
      const response = await buy({ ...base, markup });
      assert.equal(response.status, 200, `markup ${markup} accepted`);
      const q = response.body.data;
      assert.equal(q.markup_fiat_value, r2(2.5 * markup));
      assert.equal(
        q.fiat_amount_incl_fees_local,
        r2(plain.fiat_amount_incl_fees_local + q.markup_fiat_value),
      );
      await assertConsistentBuy(q, 'FR', markup);
    }
    for (const markup of [-0.1, 5.01, 10]) {
      const response = await buy({ ...base, markup });
      assert.equal(response.status, 400, `markup ${markup} refused`);
      assert.deepEqual(response.body, { success: false, message: 'markup must be between 0 and 5' });
    }
  });

  test('a merchant default markup applies unless the request overrides it (pk_sandbox_markup2)', async () => {
    const base = { payment_method: 'creditcard', region: 'FR', fiat_amount: 100, crypto_currency: 'ETH' };
    const byDefault = await buy({ ...base, api_key: 'pk_sandbox_markup2' });
    assert.equal(byDefault.body.data.markup_fiat_value, 2);
    const overridden = await buy({ ...base, api_key: 'pk_sandbox_markup2', markup: 0 });
    assert.equal(overridden.body.data.markup_fiat_value, 0);
  });

  test('amounts outside the method limits fail with the limit in EUR', async () => {
    const base = { payment_method: 'creditcard', region: 'DE', fiat_currency: 'EUR', crypto_currency: 'BTC' };
    const low = await buy({ ...base, fiat_amount: 6.99 });
    assert.equal(low.status, 400);
    assert.deepEqual(low.body, { success: false, message: 'Amount too low: minimum is 7 EUR' });
    assert.equal((await buy({ ...base, fiat_amount: 7 })).status, 200);
    const high = await buy({ ...base, fiat_amount: 100_000.01 });
    assert.deepEqual(high.body, { success: false, message: 'Amount too high: maximum is 100000 EUR' });
    // Limits are in EUR whatever the fiat: 7 USD is about 6.20 EUR.
    const lowUsd = await buy({ ...base, region: 'US', fiat_currency: 'USD', fiat_amount: 7 });
    assert.equal(lowUsd.body.message, 'Amount too low: minimum is 7 EUR');
    const skrillHigh = await buy({ ...base, payment_method: 'skrill', fiat_amount: 30_000 });
    assert.equal(skrillHigh.body.message, 'Amount too high: maximum is 25000 EUR');
  });

  test('the failures the upstream documents (docs/upstream.md#buy-pricing), and the others a client can hit', async () => {
    const base = {
      payment_method: 'creditcard',
      region: 'DE',
      fiat_currency: 'EUR',
      fiat_amount: 100,
      crypto_currency: 'ETH',
    };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { payment_method: 'creditcard-extra' },
        400,
        'Invalid payment method: creditcard-extra is not a payment group',
      ],
      [{ payment_method: 'cheque' }, 400, 'Invalid payment method: cheque is not a payment group'],
      [{ region: undefined }, 400, 'region is required'],
      [{ region: '' }, 400, 'region is required'],
      [{ region: 'ZZ' }, 400, 'Unsupported region'],
      [{ payment_method: 'pix' }, 400, 'Unsupported region'],
      [{ region: 'US', fiat_currency: 'USD', crypto_currency: 'TON' }, 400, 'Unsupported region'],
      [{ fiat_currency: 'XYZ' }, 400, 'Unsupported fiat currency: XYZ'],
      [{ crypto_currency: 'NOPE' }, 400, 'Unsupported crypto currency: NOPE'],
      [{ payment_method: 'paysafecard' }, 400, 'Payment method unavailable: paysafecard'],
      [{ fiat_amount: undefined }, 400, 'fiat_amount or crypto_amount is required'],
      [{ fiat_amount: '100' }, 400, 'fiat_amount: Invalid input: expected number, received string'],
      [{ fiat_amount: 666.66 }, 500, 'Internal server error'],
    ];
    for (const [change, status, message] of cases) {
      const response = await buy({ ...base, ...change });
      assert.equal(response.status, status, JSON.stringify(change));
      assert.deepEqual(response.body, { success: false, message }, JSON.stringify(change));
    }
  });

  test('a key not of the sandbox form, or none, is refused with 401', async () => {
    const body = { payment_method: 'creditcard', region: 'DE', fiat_amount: 100, crypto_currency: 'ETH' };
    for (const api_key of ['pk_live_abc', 'sk_sandbox_abc', 'nonsense']) {
      const response = await json(`${sandbox.api}/pricing`, { body: { ...body, api_key } });
      assert.equal(response.status, 401, api_key);
      assert.deepEqual(response.body, { success: false, message: 'Invalid apiKey' });
    }
    const missing = await json(`${sandbox.api}/pricing`, { body });
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, { success: false, message: 'Missing apiKey' });
    const camel = await json(`${sandbox.api}/pricing`, { body: { ...body, apiKey: KEY } });
    assert.equal(camel.status, 200, 'apiKey in the body works too');
  });

  test('a merchant without the method enabled cannot quote it (pk_sandbox_limited)', async () => {
    const body = { region: 'DE', fiat_amount: 100, crypto_currency: 'ETH', api_key: 'pk_sandbox_limited' };
    assert.equal((await buy({ ...body, payment_method: 'creditcard' })).status, 200);
    const skrill = await buy({ ...body, payment_method: 'skrill' });
    assert.deepEqual(skrill.body, {
      success: false,
      message: 'Payment method not enabled for this merchant: skrill',
    });
  });

  test('malformed JSON is a 400 in the ramp envelope', async () => {
    const response = await fetch(`${sandbox.api}/pricing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"api_key": ',
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as Envelope<unknown>;
    assert.equal(body.success, false);
    assert.equal(typeof body.message, 'string');
  });
});

describe('price feed', () => {
  const body = { payment_method: 'creditcard', region: 'DE', fiat_amount: 1000, crypto_currency: 'BTC' };

  test('the same pinned time gives identical quotes', async () => {
    const first = await buy(body);
    const second = await buy(body);
    assert.deepEqual(first.body, second.body);
  });

  test('prices drift: a second, a minute and a day later the quote differs, and stays realistic', async () => {
    const at = (await buy(body)).body.data;
    const prices = [at.crypto_unit_price];
    for (const later of [
      '2025-06-01T12:00:01.000Z',
      '2025-06-01T12:01:00.000Z',
      '2025-06-02T12:00:00.000Z',
    ]) {
      await pin(later);
      const q = (await buy(body)).body.data;
      assert.notEqual(q.crypto_unit_price, at.crypto_unit_price, `price moved by ${later}`);
      assert.notEqual(q.crypto_amount, at.crypto_amount);
      prices.push(q.crypto_unit_price);
    }
    for (const price of prices) assert.ok(price > 80_000 && price < 100_000, `BTC at ${price} EUR`);
    const moveInASecond = Math.abs(prices[1]! - prices[0]!) / prices[0]!;
    assert.ok(moveInASecond < 0.001, 'drifts slowly');
  });

  test('stablecoins stay within a fraction of a percent of one dollar', async () => {
    for (const now of [PINNED, '2025-06-03T05:00:00.000Z', '2025-07-01T00:00:00.000Z']) {
      await pin(now);
      const q = (await buy({ ...body, region: 'US', fiat_currency: 'USD', crypto_currency: 'USDT_TRON' }))
        .body.data;
      assert.ok(Math.abs(q.crypto_unit_price - 1) < 0.002, `USDT at ${q.crypto_unit_price} USD`);
    }
  });

  test('realistic levels: ETH about 3.2k EUR, SOL about 150 EUR', async () => {
    const eth = (await buy({ ...body, crypto_currency: 'ETH' })).body.data.crypto_unit_price;
    const sol = (await buy({ ...body, crypto_currency: 'SOL' })).body.data.crypto_unit_price;
    assert.ok(eth > 2_900 && eth < 3_500, `ETH ${eth}`);
    assert.ok(sol > 135 && sol < 165, `SOL ${sol}`);
  });
});

describe('off-ramp pricing', () => {
  /** incl = crypto value; excl = incl − processing fee − markup; crypto = incl / price + network fee. */
  async function assertConsistentSell(q: SellQuote, slug: string, markup: number) {
    const fiat = findFiat(q.fiat_currency)!;
    const crypto = findCrypto(q.crypto_currency)!;
    const method = await payoutMethod(slug);
    const incl = q.fiat_amount_incl_fees_local;
    assert.equal(q.crypto_unit_price, roundPrice(priceIn(crypto, fiat, Date.parse(PINNED))));
    assert.equal(q.processing_fee, r2((incl * method.fee) / 100 + baseFeeLocal(method, fiat.iso, fiat.eur)));
    assert.equal(q.markup_fiat_value, r2((incl * markup) / 100));
    assert.equal(q.fiat_amount_excl_fees_local, r2(incl - q.processing_fee - q.markup_fiat_value));
    assert.equal(q.fiat_amount_incl_fees, r2(incl * fiat.eur));
    assert.equal(q.fiat_amount_excl_fees, r2(q.fiat_amount_excl_fees_local * fiat.eur));
    const cryptoValue = (q.crypto_amount - q.network_fee) * q.crypto_unit_price;
    assert.ok(
      Math.abs(cryptoValue - incl) <= q.crypto_unit_price * 10 ** -crypto.decimals + 0.01,
      'crypto ↔ incl',
    );
  }

  test('the documented sample: skrill, 500 EUR of ETH → 481.90 paid out, 18.10 fee', async () => {
    const response = await sell({
      payout_method: 'skrill',
      crypto_currency: 'ETH',
      fiat_amount: 500,
      fiat_currency: 'EUR',
    });
    assert.equal(response.status, 200, 'api_key is optional');
    const q = response.body.data;
    assert.equal(q.fiat_amount_incl_fees, 500);
    assert.equal(q.fiat_amount_excl_fees, 481.9);
    assert.equal(q.processing_fee, 18.1);
    assert.equal(q.network_fee, 0);
    assert.equal(q.fiat_currency, 'EUR');
    await assertConsistentSell(q, 'skrill', 0);
  });

  test('sell by crypto amount; with both amounts the crypto amount wins', async () => {
    const byCrypto = await sell({
      payout_method: 'bank-transfer',
      crypto_currency: 'BTC',
      crypto_amount: 0.01,
      fiat_amount: 50,
      fiat_currency: 'GBP',
      api_key: KEY,
    });
    assert.equal(byCrypto.status, 200);
    const q = byCrypto.body.data;
    assert.equal(q.crypto_amount, 0.01);
    assert.ok(q.network_fee > 0, 'BTC sells carry a network fee in BTC');
    assert.ok(q.fiat_amount_incl_fees_local > 600, 'priced from the crypto, not the 50 GBP');
    await assertConsistentSell(q, 'bank-transfer', 0);
  });

  test('sell markup, payout currency and failures', async () => {
    const base = {
      payout_method: 'bank-transfer',
      crypto_currency: 'ETH',
      fiat_amount: 300,
      fiat_currency: 'DKK',
    };
    const marked = (await sell({ ...base, markup: 1.5 })).body.data;
    await assertConsistentSell(marked, 'bank-transfer', 1.5);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ payout_method: 'paypal' }, 400, 'Invalid payout method: paypal'],
      [{ fiat_currency: 'USD' }, 400, 'Unsupported fiat currency for bank-transfer: USD'],
      [{ payout_method: 'pix', fiat_currency: 'BRL', region: 'DE' }, 400, 'Unsupported region'],
      [{ markup: 6 }, 400, 'markup must be between 0 and 5'],
      [{ fiat_amount: 40 }, 400, 'Amount too low: minimum is 7 EUR'],
      [{ api_key: 'pk_live_x' }, 401, 'Invalid apiKey'],
      [{ fiat_amount: 666.66 }, 500, 'Internal server error'],
      [
        { payout_method: undefined },
        400,
        'payout_method: Invalid input: expected string, received undefined',
      ],
    ];
    for (const [change, status, message] of cases) {
      const response = await sell({ ...base, ...change });
      assert.equal(response.status, status, JSON.stringify(change));
      assert.deepEqual(response.body, { success: false, message }, JSON.stringify(change));
    }
  });
});
