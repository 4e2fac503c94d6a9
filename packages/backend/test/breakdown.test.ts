/**
 * Property tests of a quote's amounts (quotes/breakdown.ts): for any quote the upstream may send, in any of its
 * documented shapes and in currencies with and without a minor unit, the fee parts sum to the fee total, and for a
 * sell the fee total is exactly what the shopper sold minus what arrives. Amounts are read back into integers of the
 * minor unit by their digits (BigInt, no float), so a part that gained or lost a minor unit shows.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { digitsOf } from '../src/money.ts';
import { buyBreakdown, sellBreakdown } from '../src/quotes/breakdown.ts';
import type { RampBuyQuote, RampSellQuote } from '../src/schemas/upstream-ramp.ts';

/** A fiat amount string back to minor units, checking it has exactly its currency's digits. */
const toMinor = (text: string, digits: number) => {
  assert.match(text, /^-?\d+(\.\d+)?$/, `${text} is a plain decimal`);
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  assert.equal(fraction.length, digits, `${text} has ${digits} decimals`);
  const units = Number(BigInt(`${whole}${fraction}`));
  return text.startsWith('-') ? -units : units;
};

/** A consistent sell as the upstream would price it, in minor units of `fiat`, and the quote it would send. */
const sale = fc
  .record({
    fiat: fc.constantFrom('EUR', 'BRL', 'JPY', 'USD', 'PLN'),
    value: fc.integer({ min: 100, max: 10_000_000 }),
    processingShare: fc.double({ min: 0, max: 0.2, noNaN: true }),
    networkShare: fc.double({ min: 0, max: 0.05, noNaN: true }),
    markupShare: fc.double({ min: 0, max: 0.05, noNaN: true }),
    eurPerUnit: fc.double({ min: 0.001, max: 2, noNaN: true }),
    unitPrice: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
    shape: fc.constantFrom('all', 'documented-seven', 'eur-fees'),
  })
  .map((s) => {
    const digits = digitsOf(s.fiat);
    const unit = 10 ** digits;
    const eurPerUnit = s.fiat === 'EUR' ? 1 : s.eurPerUnit;
    const processing = Math.floor(s.value * s.processingShare);
    const network = Math.floor(s.value * s.networkShare);
    const markup = Math.floor(s.value * s.markupShare);
    const received = s.value - processing - network - markup;
    const asked = s.value / unit;
    const eur = (minor: number) => (minor / unit) * eurPerUnit;
    const quote: RampSellQuote = {
      crypto_amount: asked / s.unitPrice,
      crypto_currency: 'ETH',
      crypto_unit_price: s.unitPrice,
      network_fee: network / unit / s.unitPrice,
      fiat_amount_incl_fees: eur(s.value),
      fiat_amount_excl_fees: eur(received),
      fiat_currency: s.fiat,
      ...(s.shape === 'documented-seven'
        ? {}
        : {
            fiat_amount_incl_fees_local: asked,
            fiat_amount_excl_fees_local: received / unit,
            processing_fee: s.shape === 'eur-fees' ? eur(processing) : processing / unit,
            markup_fiat_value: eur(markup),
          }),
    };
    return { ...s, digits, asked, received, quote };
  });

describe('a sell quote in the shopper’s fiat', () => {
  test('the fee parts sum to the fee total, which is exactly the value sold minus what arrives', () => {
    fc.assert(
      fc.property(sale, (s) => {
        const amounts = sellBreakdown(s.quote, String(s.asked), s.fiat);
        assert.ok(amounts, 'every shape can be shown');
        const m = (text: string) => toMinor(text, s.digits);
        assert.equal(m(amounts.processing) + m(amounts.network) + m(amounts.markup), m(amounts.total));
        assert.equal(m(amounts.value) - m(amounts.received), m(amounts.total));
        assert.equal(m(amounts.value), s.value, 'the value is what was sold, to the minor unit');
        // What arrives is the upstream's own number, or its EUR amount at the quote's rate, off by at most a minor
        // unit of rounding: never an EUR amount under another currency's name.
        assert.ok(Math.abs(m(amounts.received) - s.received) <= 1, `${amounts.received} vs ${s.received}`);
        for (const part of [amounts.processing, amounts.network, amounts.markup]) assert.ok(m(part) >= 0);
      }),
      { numRuns: 500 },
    );
  });

  test('with no _local amounts and no EUR value to convert from, the quote is refused, not relabelled', () => {
    const quote: RampSellQuote = {
      crypto_amount: 0.1,
      crypto_currency: 'ETH',
      crypto_unit_price: 5000,
      network_fee: 0,
      fiat_amount_incl_fees: null,
      fiat_amount_excl_fees: 78.6,
      fiat_currency: 'BRL',
    };
    assert.equal(sellBreakdown(quote, '500', 'BRL'), undefined);
  });
});

/** A buy as the upstream may price it: fee parts as JSON numbers with up to 4 decimals, in fiats of 0 to 3 digits. */
const purchase = fc
  .record({
    fiat: fc.constantFrom('EUR', 'BRL', 'JPY', 'USD', 'KWD'),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
    processing: fc.integer({ min: 0, max: 5_000_000 }),
    network: fc.integer({ min: 0, max: 500_000 }),
    markup: fc.integer({ min: 0, max: 500_000 }),
    shape: fc.constantFrom('all', 'no-fees'),
  })
  .map((b) => {
    const n = (tenThousandths: number) => tenThousandths / 10_000;
    const quote: RampBuyQuote = {
      crypto_amount: 0.1,
      crypto_currency: 'ETH',
      crypto_unit_price: 3000,
      fiat_amount_excl_fees_local: n(b.amount),
      fiat_amount_incl_fees_local: n(b.amount + b.processing),
      fiat_currency: b.fiat,
      ...(b.shape === 'all'
        ? { processing_fee: n(b.processing), network_fee_local: n(b.network), markup_fiat_value: n(b.markup) }
        : {}),
    };
    return { ...b, quote };
  });

describe('a buy quote in the shopper’s fiat', () => {
  test('every amount has its currency’s digits, and the fee parts sum to the fee total to the minor unit', () => {
    fc.assert(
      fc.property(purchase, (b) => {
        const amounts = buyBreakdown(b.quote, b.fiat);
        const m = (text: string) => toMinor(text, digitsOf(b.fiat));
        assert.equal(m(amounts.processing) + m(amounts.network) + m(amounts.markup), m(amounts.total));
        for (const part of [amounts.processing, amounts.network, amounts.markup]) assert.ok(m(part) >= 0);
        // Each part is the upstream's number to the nearest minor unit: rounding never moves one by a unit or more.
        const unit = 10 ** (4 - digitsOf(b.fiat));
        const near = (text: string, tenThousandths: number) =>
          Math.abs(m(text) * unit - tenThousandths) * 2 <= unit;
        const fees = b.shape === 'all' ? b : { processing: 0, network: 0, markup: 0 };
        assert.ok(near(amounts.amount, b.amount), `${amounts.amount} vs ${b.amount}/10000`);
        assert.ok(near(amounts.processing, fees.processing), `${amounts.processing} vs ${fees.processing}`);
        assert.ok(near(amounts.network, fees.network));
        assert.ok(near(amounts.markup, fees.markup));
      }),
      { numRuns: 500 },
    );
  });
});
