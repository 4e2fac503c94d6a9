/**
 * Property tests of money.ts and of amounts through the API: an amount with its currency's digits comes back from
 * every conversion (string → decimal → string, an upstream JSON number, our API's JSON over real HTTP) with the
 * same count of minor units; rounding goes to the currency's digits from one table (JPY 0, EUR 2, USDC 6, BTC 8).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { amountString, decimal, digitsOf, exactString, positiveDecimal, round, sum } from '../src/money.ts';
import { json, type Stack, startStack } from './support.ts';

/** Minor units as a decimal string with exactly `digits` decimals (`12345`, 2 → `"123.45"`), by text alone. */
const fromMinor = (units: bigint, digits: number) => {
  const text = (units < 0n ? -units : units).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return `${units < 0n ? '-' : ''}${whole}${digits ? `.${text.slice(-digits)}` : ''}`;
};
/** A decimal string back to minor units of `digits` (it may have fewer decimals, never more). */
const toMinor = (text: string, digits: number) => {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  assert.ok(fraction.length <= digits, `${text} has at most ${digits} decimals`);
  const units = BigInt(`${whole}${fraction.padEnd(digits, '0')}`);
  return text.startsWith('-') ? -units : units;
};

const currencies = ['JPY', 'EUR', 'BRL', 'KWD', 'BTC', 'ETH', 'USDC', 'USDC_BASE', 'USDT_TRON'];
/** An amount in one of the currencies, as minor units and as the decimal string the API writes. */
const amount = fc
  .record({ currency: fc.constantFrom(...currencies), units: fc.bigInt({ min: 0n, max: 10n ** 15n }) })
  .map(({ currency, units }) => ({
    currency,
    units,
    digits: digitsOf(currency),
    text: fromMinor(units, digitsOf(currency)),
  }));

describe('money.ts', () => {
  test('one table of digits: JPY 0, EUR 2, BTC 8, USDC 6 (on any network), KWD 3', () => {
    assert.deepEqual(
      ['JPY', 'EUR', 'BRL', 'BTC', 'USDC', 'USDC_BASE', 'KWD', 'jpy', 'LTC', 'TON'].map((code) =>
        digitsOf(code),
      ),
      [0, 2, 2, 8, 6, 6, 3, 0, 8, 9],
    );
  });

  test('a crypto the caller names as one is never taken for a fiat, listed or not', () => {
    assert.equal(amountString('0.123456789', 'ABC', { kind: 'crypto' }), '0.12345679');
    assert.equal(amountString('0.10', 'BCH'), '0.1');
    assert.equal(amountString('0.1', 'ABC'), '0.10', 'an unknown 3-letter code alone reads as a fiat');
  });

  test('string → decimal → string keeps every minor unit, in every currency', () => {
    fc.assert(
      fc.property(amount, ({ currency, units, digits, text }) => {
        const written = amountString(text, currency);
        assert.equal(toMinor(written, digits), units, `${text} ${currency} → ${written}`);
        assert.equal(toMinor(decimal(written).toFixed(), digits), units);
        // And through our API's JSON, where amounts are strings.
        const [back] = JSON.parse(JSON.stringify([written])) as [string];
        assert.equal(toMinor(back, digits), units);
      }),
      { numRuns: 2000 },
    );
  });

  test('an upstream JSON number is read as exactly what its JSON said, never a float off by a unit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom(0, 2, 3, 6, 8),
        (units, digits) => {
          const text = fromMinor(BigInt(units), digits);
          const parsed = JSON.parse(`{"amount":${text}}`) as { amount: number };
          const exact = exactString(parsed.amount);
          assert.ok(exact !== undefined);
          // Only where the double itself cannot hold `text` (over 15 significant digits) may it differ.
          if (text.replace('.', '').replace(/^0+/, '').length <= 15)
            assert.equal(toMinor(exact, digits), BigInt(units));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('rounding goes to the nearest minor unit, half up, or down/up when asked; never off by one', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 999 }), ({ currency, units, digits, text }, extra) => {
        // `text` followed by three more digits: between `units` and `units + 1`.
        const longer = digits
          ? `${text}${String(extra).padStart(3, '0')}`
          : `${text}.${String(extra).padStart(3, '0')}`;
        const up = extra > 0 ? 1n : 0n;
        assert.equal(toMinor(amountString(longer, currency, { mode: 'down' }), digits), units);
        assert.equal(toMinor(amountString(longer, currency, { mode: 'up' }), digits), units + up);
        assert.equal(toMinor(amountString(longer, currency), digits), units + (extra >= 500 ? 1n : 0n));
      }),
      { numRuns: 1000 },
    );
  });

  test('a sum of parts rounded to the currency is the sum of the parts’ minor units', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 8 }), (parts) => {
        const currency = parts[0]?.currency ?? 'EUR';
        const digits = digitsOf(currency);
        const texts = parts.map((part) => fromMinor(part.units, digits));
        const total = parts.reduce((acc, part) => acc + part.units, 0n);
        assert.equal(toMinor(amountString(sum(texts), currency), digits), total);
      }),
    );
  });

  test('fiat is written with all its digits, crypto without trailing zeros, never with an exponent', () => {
    assert.equal(amountString('103.1', 'EUR'), '103.10');
    assert.equal(amountString('1500.4', 'JPY'), '1500');
    assert.equal(amountString(0.0312, 'ETH'), '0.0312');
    assert.equal(amountString(2.5e-7, 'BTC'), '0.00000025');
    assert.equal(amountString('1.23456789', 'USDC_BASE'), '1.234568');
    assert.equal(round('0.125', 'EUR').toFixed(), '0.13');
  });

  test('client amounts stay the decimal strings they were; a float never appears', () => {
    assert.equal(positiveDecimal.parse('100.10'), '100.10');
    assert.equal(positiveDecimal.parse(0.1), '0.1');
    assert.equal(positiveDecimal.parse(' 0.000000000000000001 '), '0.000000000000000001');
    for (const bad of ['0', '0.00', '-1', '1e3', 'NaN', '', '1.', 1e21]) {
      assert.equal(positiveDecimal.safeParse(bad).success, false, String(bad));
    }
  });
});

describe('amounts through the API’s JSON, over real HTTP', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  interface Quote {
    fiat: { currency: string; amount: string; total: string };
    fees: { processing: string; network: string; markup: string; total: string };
  }

  test('the fiat amount a shopper asks to sell or buy comes back to the minor unit, the fee parts summing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('buy', 'sell'),
        fc.integer({ min: 2_000, max: 90_000 }),
        fc.boolean(),
        async (side, cents, asNumber) => {
          const text = fromMinor(BigInt(cents), 2);
          const response = await stack.api(`/api/quotes/${side}`, {
            method: 'POST',
            json: {
              ...(side === 'buy' ? { paymentMethod: 'creditcard' } : { payoutMethod: 'bank-transfer' }),
              country: 'DE',
              fiat: 'EUR',
              crypto: 'ETH',
              fiatAmount: asNumber ? Number(text) : text,
            },
          });
          assert.equal(response.status, 200);
          const quote = await json<Quote>(response);
          // Fees inside: the amount asked for is the total (a buy may pay a cent or two less, never more).
          const short = toMinor(text, 2) - toMinor(quote.fiat.total, 2);
          if (side === 'sell') assert.equal(quote.fiat.total, text);
          else assert.ok(short >= 0n && short <= 2n, `${quote.fiat.total} for ${text}`);
          toMinor(quote.fiat.amount, 2);
          const parts = [quote.fees.processing, quote.fees.network, quote.fees.markup];
          assert.equal(
            parts.reduce((acc, part) => acc + toMinor(part, 2), 0n),
            toMinor(quote.fees.total, 2),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  test('a crypto with a 3-letter code keeps its own digits in a quote, never a fiat’s two', async () => {
    for (const crypto of ['LTC', 'BCH', 'ETH']) {
      const response = await stack.api('/api/quotes/buy', {
        method: 'POST',
        json: { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto, fiatAmount: '100.00' },
      });
      assert.equal(response.status, 200, crypto);
      const quote = await json<{ crypto: { amount: string } }>(response);
      assert.match(quote.crypto.amount, /^\d+\.\d{3,8}$/, `${crypto} ${quote.crypto.amount}`);
    }
  });

  test('a yen amount stays whole yen, and the amount signed into the ramp URL is the one asked', async () => {
    const response = await stack.api('/api/ramp-sessions', {
      method: 'POST',
      json: {
        side: 'buy',
        country: 'JP',
        fiat: 'JPY',
        crypto: 'ETH',
        fiatAmount: '15000',
        walletAddress: '0x1111111111111111111111111111111111111111',
      },
    });
    assert.equal(response.status, 200, await response.clone().text());
    const { url } = await json<{ url: string }>(response);
    assert.equal(new URL(url).searchParams.get('baseCurrencyAmount'), '15000');
  });
});
