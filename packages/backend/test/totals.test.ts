/**
 * Fees inside (quotes/derive.ts `basisFor`, quotes/totals.ts): the amount a shopper types on the fiat side is what
 * they pay (buy) or receive (sell). For every fee shape the catalog has (percentage only, a fixed fee per
 * currency, a minimum fee, a markup), the request amount solved from a total gives that total back through the
 * same model the quotes are derived with, and where fee rounding steps over the typed total on a buy, the
 * cents go the shopper's way. Amounts are compared as exact decimals (big.js), never floats.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { decimal } from '../src/money.ts';
import {
  basisFor,
  deriveBuy,
  deriveSell,
  type FeeTerms,
  type Reference,
  totalOf,
} from '../src/quotes/fee-model/derive.ts';
import { totalLimits } from '../src/quotes/totals.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../src/schemas/upstream-ramp.ts';

const terms = (feePercent: number, baseFee: string, minFee: string, markupPercent: number): FeeTerms => ({
  feePercent: decimal(feePercent),
  baseFee: decimal(baseFee),
  minFee: decimal(minFee),
  markupPercent: decimal(markupPercent),
});

/** The fee shapes of the sandbox's catalog (percentage only, fixed fee per currency, minimum fee) and a markup. */
const shapes = {
  'percentage only (SEPA)': terms(1.5, '0', '0', 0),
  'percentage and a fixed fee per currency (card, USD)': terms(3, '0.65', '0', 1),
  'a minimum fee that binds on small amounts': terms(1, '0', '2.50', 0.5),
  'a fixed fee, no percentage': terms(0, '1.99', '0', 0),
};

const cents = fc.integer({ min: 1_000, max: 2_500_000 }).map((n) => decimal(n).div(100));

describe('the request amount for a total, fees inside', () => {
  for (const [name, fees] of Object.entries(shapes)) {
    test(`buy, ${name}: pays what was typed, or a cent or two less where no amount gives it`, () => {
      fc.assert(
        fc.property(cents, (typed) => {
          const basis = basisFor('buy', fees, typed);
          assert.ok(basis, `a basis for ${typed}`);
          const paid = totalOf('buy', fees, basis);
          assert.ok(paid.lte(typed), `${paid} ≤ ${typed}`);
          // The two fee parts may each round up a cent on the same step: a total moves by at most 3 cents.
          assert.ok(paid.gte(typed.minus('0.02')), `${paid} is at most two cents under ${typed}`);
          // The largest such amount: a cent more would pay more than typed.
          assert.ok(totalOf('buy', fees, basis.plus('0.01')).gt(typed));
        }),
        { numRuns: 400 },
      );
    });

    test(`sell, ${name}: receives exactly what was typed`, () => {
      fc.assert(
        fc.property(cents, (typed) => {
          const basis = basisFor('sell', fees, typed);
          assert.ok(basis, `a basis for ${typed}`);
          const received = totalOf('sell', fees, basis);
          // The fees grow by at most a cent per cent of value, so what arrives never skips a cent.
          assert.ok(received.eq(typed), `${received} = ${typed}`);
          // Never more crypto sold than needed: a cent less would receive less than typed.
          assert.ok(totalOf('sell', fees, basis.minus('0.01')).lt(received));
        }),
        { numRuns: 400 },
      );
    });
  }

  test('a buy meets almost every total exactly; one it cannot, said with an example', () => {
    const card = terms(3, '0', '0', 1);
    let exact = 0;
    for (let n = 1_000; n < 11_000; n += 1) {
      const typed = decimal(n).div(100);
      if (totalOf('buy', card, basisFor('buy', card, typed) as never).eq(typed)) exact += 1;
    }
    assert.ok(exact / 10_000 > 0.95, `${exact} of 10,000 totals met exactly`);
    // 9.83 pays 9.83 + 0.29 + 0.10 = 10.22, and 9.84 pays 9.84 + 0.30 + 0.10 = 10.24: 10.23 cannot be paid.
    assert.equal(basisFor('buy', card, decimal('10.23'))?.toFixed(2), '9.83');
    assert.equal(basisFor('buy', card, decimal('10.22'))?.toFixed(2), '9.83');
    assert.equal(basisFor('buy', card, decimal('10.24'))?.toFixed(2), '9.84');
  });

  test('a total the fees alone eat is refused (no positive amount gives it)', () => {
    assert.equal(basisFor('sell', terms(0, '1.99', '0', 0), decimal('0')), undefined);
    assert.equal(basisFor('buy', terms(0, '1.99', '0', 0), decimal('1.99')), undefined);
  });
});

const method = (fees: Partial<RampMethod> = {}): RampMethod =>
  ({
    feePercent: 3,
    fixedFeeEur: 0,
    fixedFeeByCurrency: {},
    minFeeEur: 0,
    minEur: 7,
    maxEur: 25_000,
    ...fees,
  }) as RampMethod;

/** A reference as learnReference would read it: EUR, a unit price, a network fee (zero or not). */
function reference<Q>(side: 'buy' | 'sell', fees: FeeTerms, networkFee: string): Reference<Q> {
  return {
    side,
    quote: {} as Q,
    fiat: 'EUR',
    crypto: 'ETH',
    unitPrice: decimal('2512.37'),
    networkFee: decimal(networkFee),
    eurPerUnit: decimal(1),
    cryptoDigits: 8,
    confirmedBy: 2,
    rivals: [],
    ...fees,
  };
}

describe('a derived quote for the solved amount shows the typed total (the numbers the shopper sees)', () => {
  const cases: Array<[string, FeeTerms, string]> = [
    ['percentage only, zero network fee', terms(1.5, '0', '0', 0), '0'],
    ['fixed fee and markup, a network fee', terms(3, '0.60', '0', 1), '0.85'],
  ];
  for (const [name, fees, networkFee] of cases) {
    test(`buy, ${name}: incl. fees = typed`, () => {
      const ref = reference<RampBuyQuote>('buy', fees, networkFee);
      for (const typed of ['25.00', '100.00', '1234.56']) {
        const basis = basisFor('buy', fees, decimal(typed)) as ReturnType<typeof decimal>;
        const quote = deriveBuy(ref, method(), { fiatAmount: basis.toFixed(2) });
        const paid = decimal(quote.fiat_amount_incl_fees_local ?? 0);
        assert.ok(paid.lte(typed) && paid.gte(decimal(typed).minus('0.02')), `${name}: ${paid} for ${typed}`);
        assert.ok(decimal(quote.crypto_amount).gt(0));
      }
    });

    test(`sell, ${name}: excl. fees = typed`, () => {
      const ref = reference<RampSellQuote>('sell', fees, networkFee === '0' ? '0' : '0.0004');
      for (const typed of ['25.00', '100.00', '1234.56']) {
        const basis = basisFor('sell', fees, decimal(typed)) as ReturnType<typeof decimal>;
        const quote = deriveSell(ref, method(), { fiatAmount: basis.toFixed(2) });
        const received = decimal(quote.fiat_amount_excl_fees_local ?? 0);
        assert.ok(received.eq(typed), `${received} for ${typed}`);
      }
    });
  }
});

describe('limits as totals the shopper types', () => {
  test('buy: the least is €7.00 plus its fees; typing it asks the upstream for exactly €7.00', () => {
    const card = method({ feePercent: 3, fixedFeeEur: 0.6 });
    const { min, max } = totalLimits('buy', card, 'EUR', decimal(1), 1);
    // 7.00 + (0.21 + 0.60) + 0.07
    assert.equal(min?.toFixed(2), '7.88');
    assert.equal(basisFor('buy', terms(3, '0.60', '0', 1), min as never)?.toFixed(2), '7.00');
    assert.equal(max?.toFixed(2), '26000.60');
  });

  test('in another currency: converted at the rate, the least rounded up and the most down', () => {
    const card = method({ feePercent: 3, fixedFeeByCurrency: { USD: 0.7 }, minEur: 7, maxEur: 25_000 });
    // 1 USD = 0.9 EUR: €7 is $7.777… → $7.78 at least, €25,000 is $27,777.77… → $27,777.77 at most.
    const { min, max } = totalLimits('buy', card, 'USD', decimal('0.9'), 0);
    assert.equal(min?.toFixed(2), decimal('7.78').plus('0.23').plus('0.70').toFixed(2));
    assert.equal(max?.toFixed(2), decimal('27777.77').plus('833.33').plus('0.70').toFixed(2));
  });

  test('sell: the least received is the €7.00 sold less its fees', () => {
    const sepa = method({ feePercent: 1.5, minEur: 7, maxEur: null });
    const { min, max } = totalLimits('sell', sepa, 'EUR', decimal(1), 0);
    assert.equal(min?.toFixed(2), '6.89');
    assert.equal(max, null);
  });
});
