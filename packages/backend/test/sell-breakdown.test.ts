/**
 * Property tests of a sell quote's amounts (quotes/sell-breakdown.ts): for any quote the upstream may send, in
 * any of its documented shapes and in currencies with and without a minor unit, the fee parts sum to the fee
 * total and the fee total is exactly what the shopper sold minus what arrives; no amount gains or loses a minor
 * unit on its way to a decimal string.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fromMinor, sellBreakdown } from '../src/quotes/sell-breakdown.ts';
import { fiatDigits } from '../src/schemas/money.ts';
import type { RampSellQuote } from '../src/schemas/upstream-ramp.ts';

/** A decimal string back to minor units, by its digits (no float). */
const toMinor = (text: string, digits: number) => {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  assert.equal(fraction.length, digits, `${text} has ${digits} decimals`);
  const units = Number(whole) * 10 ** digits + Number(fraction || '0');
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
    const digits = fiatDigits(s.fiat);
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
        const amounts = sellBreakdown(s.quote, s.asked, s.fiat);
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

  test('a count of minor units becomes a decimal string and back without gaining or losing one', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(0, 2, 3, 6, 8), (units, digits) => {
        assert.equal(toMinor(fromMinor(units, digits), digits), units);
      }),
      { numRuns: 1000 },
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
    assert.equal(sellBreakdown(quote, 500, 'BRL'), undefined);
  });
});
