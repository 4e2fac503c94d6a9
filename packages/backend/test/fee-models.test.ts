/**
 * Totals that do not depend on knowing the upstream's fee model (issue 29): against the sandbox in each of its fee
 * models (a fixed fee per local currency, fees on the EUR amount, rounding up, the percentage on the gross or the
 * net, and all of them at once), over real HTTP, what a shopper types on the fiat side is what they pay (buy:
 * never more, at most two cents less where the cents skip it) or receive (sell: never less, at most two cents
 * more), and the upstream, asked itself for the amount the backend priced, charges exactly the total shown.
 * Crypto amounts typed are shown with the total the upstream charges for them. The extra upstream calls are
 * bounded, and once an answer confirms a combination's model (it predicted it) its totals are derived without any.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_CORRECTIONS } from '../src/quotes/totals.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

const PINNED = '2026-06-01T12:00:00.000Z';
const MARKUP = 1;

const models: Record<string, Record<string, string>> = {
  'the documented model': {},
  'a fixed fee set per local currency': { feeFixed: 'per-currency' },
  'fees reckoned on the EUR amount': { feeCurrency: 'eur' },
  'fees rounded up': { feeRounding: 'up' },
  'the percentage on the gross': { feeOn: 'gross' },
  'the percentage on the net': { feeOn: 'net' },
  'all four at once': { feeFixed: 'per-currency', feeCurrency: 'eur', feeRounding: 'up', feeOn: 'gross' },
};

interface QuoteView {
  source: string;
  fiat: { amount: string; total: string };
  crypto: { amount: string };
  fees: { processing: string; markup: string };
}

interface SandboxQuote {
  crypto_amount: number;
  fiat_amount_excl_fees_local: number;
  fiat_amount_incl_fees_local: number;
  processing_fee: number;
  markup_fiat_value: number;
}

const buys = [
  {
    paymentMethod: 'creditcard',
    country: 'US',
    fiat: 'USD',
    crypto: 'ETH',
    typed: ['100', '57.31', '1234.56', '20', '342.1', '75', '999.99', '48.88', '150', '64.2'],
  },
  {
    paymentMethod: 'creditcard',
    country: 'DE',
    fiat: 'EUR',
    crypto: 'BTC',
    typed: ['250', '99.99', '31.07', '412.5', '70', '1500', '88.8', '125'],
  },
];
const sells = [
  {
    payoutMethod: 'pix',
    country: 'BR',
    fiat: 'BRL',
    crypto: 'USDT_TRON',
    typed: ['500', '123.45', '2999.99', '75', '250.5', '1800', '640', '99.9'],
  },
  {
    payoutMethod: 'bank-transfer',
    country: 'DE',
    fiat: 'EUR',
    crypto: 'ETH',
    typed: ['123.45', '800', '47.5', '250', '1999.99', '333.33', '90', '610'],
  },
];

const cents = (amount: string) => Math.round(Number(amount) * 100);

for (const [name, settings] of Object.entries(models)) {
  describe(`against an upstream with ${name}`, () => {
    let stack: Stack;
    before(async () => {
      // The backend's clock stands still, so no reference ages out however slow the machine is.
      const at = Date.parse(PINNED);
      stack = await startStack({ env: { MARKUP: String(MARKUP) }, clock: { now: () => at } });
      await stack.control('PATCH', '/settings', settings);
      await stack.control('POST', '/clock', { now: PINNED });
    });
    after(() => stack.close());

    const quote = async (side: 'buy' | 'sell', body: Record<string, string>) => {
      const response = await stack.api(`/api/quotes/${side}`, { method: 'POST', json: body });
      assert.equal(response.status, 200, `${side} ${JSON.stringify(body)}: ${await response.clone().text()}`);
      return json<QuoteView>(response);
    };
    /** The upstream itself, asked for an amount. */
    const upstream = async (side: 'buy' | 'sell', body: Record<string, unknown>) => {
      const path = side === 'buy' ? 'pricing' : 'sell/pricing';
      const response = await fetch(`${stack.sandboxUrl}/ramp/api/v1/merchant/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: testSecrets.rampPublicKey, markup: MARKUP, ...body }),
      });
      assert.equal(response.status, 200);
      return (await json<{ data: SandboxQuote }>(response)).data;
    };
    const checks = () => stack.deps.quotes.stats();

    test('buy, fiat typed: never pays more than typed, and the upstream charges exactly the total shown', async () => {
      for (const { typed, ...combo } of buys) {
        const sources: string[] = [];
        for (const amount of typed) {
          const before = checks();
          const view = await quote('buy', { ...combo, fiatAmount: amount });
          const after = checks();
          sources.push(view.source);
          const short = cents(amount) - cents(view.fiat.total);
          assert.ok(short >= 0, `${combo.fiat} ${amount} typed, ${view.fiat.total} paid`);
          assert.ok(after.totalChecks - before.totalChecks <= 1 + MAX_CORRECTIONS, 'checks bounded');
          const theirs = await upstream('buy', {
            payment_method: combo.paymentMethod,
            region: combo.country,
            fiat_currency: combo.fiat,
            crypto_currency: combo.crypto,
            fiat_amount: Number(view.fiat.amount),
          });
          assert.equal(theirs.fiat_amount_incl_fees_local, Number(view.fiat.total), `${amount}: charged`);
          assert.equal(theirs.processing_fee, Number(view.fees.processing));
          assert.equal(theirs.markup_fiat_value, Number(view.fees.markup));
          assert.equal(String(theirs.crypto_amount), view.crypto.amount);
        }
        // A few answers rule out the models the upstream does not use: the later totals are derived (one may
        // still be asked where two readings left in the running disagree on it).
        assert.ok(
          sources.slice(-4).filter((source) => source === 'derived').length >= 3,
          `${combo.fiat}: ${sources.join(' ')}`,
        );
      }
    });

    test('sell, fiat typed: never receives less than typed, and the upstream pays out exactly the total shown', async () => {
      for (const { typed, ...combo } of sells) {
        const sources: string[] = [];
        for (const amount of typed) {
          const view = await quote('sell', { ...combo, fiatAmount: amount });
          sources.push(view.source);
          const over = cents(view.fiat.total) - cents(amount);
          assert.ok(over >= 0, `${combo.fiat} ${amount} typed, ${view.fiat.total} received`);
          const theirs = await upstream('sell', {
            payout_method: combo.payoutMethod,
            fiat_currency: combo.fiat,
            crypto_currency: combo.crypto,
            fiat_amount: Number(view.fiat.amount),
          });
          assert.equal(theirs.fiat_amount_excl_fees_local, Number(view.fiat.total), `${amount}: paid out`);
          assert.equal(String(theirs.crypto_amount), view.crypto.amount);
          if (over > 0) {
            // Over only where the cents skip the typed total: a cent less is priced under it.
            const previous = await upstream('sell', {
              payout_method: combo.payoutMethod,
              fiat_currency: combo.fiat,
              crypto_currency: combo.crypto,
              fiat_amount: Number((Number(view.fiat.amount) - 0.01).toFixed(2)),
            });
            assert.ok(
              previous.fiat_amount_excl_fees_local < Number(amount),
              `${amount}: ${view.fiat.total} is the nearest`,
            );
          }
        }
        // A few answers rule out the models the upstream does not use: the later totals are derived (one may
        // still be asked where two readings left in the running disagree on it).
        assert.ok(
          sources.slice(-4).filter((source) => source === 'derived').length >= 3,
          `${combo.fiat}: ${sources.join(' ')}`,
        );
      }
    });

    test('buy, crypto typed: the total shown is what the upstream charges for that crypto', async () => {
      for (const { typed: _typed, ...combo } of buys) {
        for (const cryptoAmount of ['0.0123', '0.25']) {
          const view = await quote('buy', { ...combo, cryptoAmount });
          const theirs = await upstream('buy', {
            payment_method: combo.paymentMethod,
            region: combo.country,
            fiat_currency: combo.fiat,
            crypto_currency: combo.crypto,
            crypto_amount: Number(cryptoAmount),
          });
          assert.equal(
            Number(view.fiat.total),
            theirs.fiat_amount_incl_fees_local,
            `${cryptoAmount} ${combo.crypto}`,
          );
          assert.equal(Number(view.fiat.amount), theirs.fiat_amount_excl_fees_local);
        }
      }
    });

    test('sell, crypto typed: what arrives is what the upstream pays out for that crypto', async () => {
      for (const { typed: _typed, ...combo } of sells) {
        const cryptoAmount = combo.crypto === 'ETH' ? '0.5' : '150';
        const view = await quote('sell', { ...combo, cryptoAmount });
        const theirs = await upstream('sell', {
          payout_method: combo.payoutMethod,
          fiat_currency: combo.fiat,
          crypto_currency: combo.crypto,
          crypto_amount: Number(cryptoAmount),
        });
        assert.equal(
          Number(view.fiat.total),
          theirs.fiat_amount_excl_fees_local,
          `${cryptoAmount} ${combo.crypto}`,
        );
        assert.equal(Number(view.fiat.amount), theirs.fiat_amount_incl_fees_local);
      }
    });
  });
}
