/**
 * The quote engine against the sandbox with pinned clocks (backend and sandbox): derived quotes equal the
 * upstream's quotes for the same amounts, drift detection trips and recovers, and concurrent requests of one
 * combination make one upstream call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { EngineQuote } from '../src/quotes/engine/types.ts';
import type { RampBuyQuote, RampMethod, RampSellQuote } from '../src/schemas/upstream-ramp.ts';
import { json, type Stack, startStack, testSecrets } from './support.ts';

const PINNED = '2026-06-01T12:00:00.000Z';
const fixedClock = () => {
  const clock = { at: Date.parse(PINNED), now: () => clock.at };
  return clock;
};

/** A stack whose backend clock and sandbox clock are pinned to the same instant. */
async function pinnedStack(env: Record<string, string> = {}) {
  const clock = fixedClock();
  const stack = await startStack({ clock, env: { MARKUP: '1', ...env } });
  await stack.control('POST', '/clock', { now: PINNED });
  return { stack, clock };
}

/** Every field of a quote the shopper's figures come from. */
const figures = (quote: RampBuyQuote | RampSellQuote) => ({
  crypto_amount: quote.crypto_amount,
  crypto_unit_price: quote.crypto_unit_price,
  network_fee: quote.network_fee ?? null,
  fiat_amount_excl_fees_local: quote.fiat_amount_excl_fees_local,
  fiat_amount_incl_fees_local: quote.fiat_amount_incl_fees_local,
  processing_fee: quote.processing_fee ?? null,
  markup_fiat_value: quote.markup_fiat_value ?? null,
  fiat_currency: quote.fiat_currency,
  crypto_currency: quote.crypto_currency,
});

interface Case {
  name: string;
  side: 'buy' | 'sell';
  method: string;
  country: string;
  fiat: string;
  crypto: string;
}

// Every fee shape the ramp schema accepts: `{base_fee: n}` (card), no fixed fee (SEPA: percentage only), a
// per-currency map in EUR and in other fiats; a network fee on buys and BTC sells, none on other sells.
const cases: Case[] = [
  {
    name: 'buy, card, {base_fee} key',
    side: 'buy',
    method: 'creditcard',
    country: 'DE',
    fiat: 'EUR',
    crypto: 'ETH',
  },
  {
    name: 'buy, SEPA, percentage only',
    side: 'buy',
    method: 'bank-transfer',
    country: 'DE',
    fiat: 'EUR',
    crypto: 'BTC',
  },
  {
    name: 'buy, base fee per currency, PLN',
    side: 'buy',
    method: 'revolutpay',
    country: 'PL',
    fiat: 'PLN',
    crypto: 'SOL',
  },
  {
    name: 'buy, base fee per currency, USD',
    side: 'buy',
    method: 'apple-pay',
    country: 'US',
    fiat: 'USD',
    crypto: 'USDC_BASE',
  },
  {
    name: 'sell, zero network fee, EUR',
    side: 'sell',
    method: 'bank-transfer',
    country: 'DE',
    fiat: 'EUR',
    crypto: 'ETH',
  },
  {
    name: 'sell, network fee in crypto (BTC), GBP',
    side: 'sell',
    method: 'skrill',
    country: 'GB',
    fiat: 'GBP',
    crypto: 'BTC',
  },
];

const fiatAmounts = ['57.31', '123.45', '250', '999.99', '4321.09'];
const cryptoAmounts: Record<string, string[]> = {
  ETH: ['0.0213', '0.5', '1.23456789'],
  BTC: ['0.0011', '0.05', '0.12345678'],
  SOL: ['0.7', '3.141592653', '12'],
  USDC_BASE: ['25', '123.456789', '999.5'],
};

describe('derived quotes equal the upstream quotes for the same amount (pinned clocks)', () => {
  let engine: Awaited<ReturnType<typeof pinnedStack>>;
  let upstreamOnly: Awaited<ReturnType<typeof pinnedStack>>;
  before(async () => {
    engine = await pinnedStack();
    upstreamOnly = await pinnedStack({ QUOTE_DERIVE: 'off' });
  });
  after(async () => {
    await engine.stack.close();
    await upstreamOnly.stack.close();
  });

  const methodOf = async (stack: Stack, c: Case): Promise<RampMethod> => {
    const list =
      c.side === 'buy'
        ? await stack.deps.ramp.paymentMethods(c.country)
        : await stack.deps.ramp.payoutMethods(c.country);
    const method = list.find(
      (m) => (m.group === c.method || m.slug === c.method) && m.currencies.includes(c.fiat),
    );
    assert.ok(method, `${c.method} offered in ${c.country} for ${c.fiat}`);
    return method;
  };

  const request = (c: Case, amount: { fiatAmount?: string; cryptoAmount?: string }) => ({
    method: c.side === 'buy' ? c.method : c.method,
    region: c.country,
    fiat: c.fiat,
    crypto: c.crypto,
    markup: 1,
    ...amount,
  });

  const price = (
    stack: Stack,
    c: Case,
    method: RampMethod,
    amount: { fiatAmount?: string; cryptoAmount?: string },
  ) =>
    (c.side === 'buy'
      ? stack.deps.quotes.buy(request(c, amount), method)
      : stack.deps.quotes.sell(request(c, amount), method)) as Promise<
      EngineQuote<RampBuyQuote | RampSellQuote>
    >;

  for (const c of cases) {
    test(c.name, async () => {
      const method = await methodOf(engine.stack, c);
      // The first quote of a combination comes from the upstream and becomes the reference.
      const first = await price(engine.stack, c, method, { fiatAmount: '100' });
      assert.equal(first.source, 'upstream');
      const amounts = [
        ...fiatAmounts.map((fiatAmount) => ({ fiatAmount })),
        ...(cryptoAmounts[c.crypto] ?? []).map((cryptoAmount) => ({ cryptoAmount })),
      ];
      let compared = 0;
      for (const amount of amounts) {
        const theirs = await price(upstreamOnly.stack, c, method, amount).catch((error: Error) => error);
        const ours = await price(engine.stack, c, method, amount).catch((error: Error) => error);
        if (theirs instanceof Error) {
          // Outside the method's limits upstream: refused here too, without an upstream call.
          assert.ok(ours instanceof Error, `${JSON.stringify(amount)}: upstream refused, engine priced it`);
          continue;
        }
        assert.ok(!(ours instanceof Error), `${JSON.stringify(amount)}: ${String(ours)}`);
        assert.deepEqual(figures(ours.quote), figures(theirs.quote), `${c.name} ${JSON.stringify(amount)}`);
        // Where the fee models one answer cannot tell apart give other fees, the upstream prices the amount (and
        // its answer rules the wrong ones out, quotes/learn.ts); the rest is derived.
        if (ours.source === 'derived') compared += 1;
      }
      assert.ok(compared >= 4, `derived ${compared} amounts`);
    });
  }

  test('the API says a quote is derived, with its reference’s pricedAt, and shows what the upstream would', async () => {
    const body = { paymentMethod: 'creditcard', country: 'FR', fiat: 'EUR', crypto: 'LTC' };
    const ask = async (stack: Stack, fiatAmount: string) =>
      json<Record<string, unknown>>(
        await stack.api('/api/quotes/buy', { method: 'POST', json: { ...body, fiatAmount } }),
      );
    assert.equal((await ask(engine.stack, '80'))['source'], 'upstream');
    // A second total is checked with the upstream too: an answer the fee model predicts confirms it.
    const reference = await ask(engine.stack, '120');
    assert.equal(reference['source'], 'upstream');
    const ours = await ask(engine.stack, '317.77');
    const theirs = await ask(upstreamOnly.stack, '317.77');
    assert.equal(ours['source'], 'derived');
    assert.equal(theirs['source'], 'upstream');
    assert.equal(ours['pricedAt'], reference['pricedAt']);
    assert.deepEqual({ ...ours, source: 'x' }, { ...theirs, source: 'x' });
  });

  test('limits are still checked first: a derived amount outside them is refused like an upstream one', async () => {
    const body = { paymentMethod: 'creditcard', country: 'FR', fiat: 'EUR', crypto: 'LTC' };
    const response = await engine.stack.api('/api/quotes/buy', {
      method: 'POST',
      json: { ...body, cryptoAmount: '0.0001' },
    });
    assert.equal(response.status, 422);
    assert.equal((await json<{ error: { code: string } }>(response)).error.code, 'AMOUNT_TOO_LOW');
  });
});

describe('amounts asked again', () => {
  test('are answered at the new price once the reference is priced again', async () => {
    const { stack, clock } = await pinnedStack();
    try {
      const body = { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC' };
      const ask = async (fiatAmount: string) =>
        json<{ source: string; pricedAt: string; expiresAt: string; crypto: { amount: string } }>(
          await stack.api('/api/quotes/buy', { method: 'POST', json: { ...body, fiatAmount } }),
        );
      const derivedSoFar = async () =>
        json<{ derived: number }>(
          await stack.api('/api/admin/quote-engine', {
            headers: { authorization: `Bearer ${testSecrets.adminToken}` },
          }),
        ).then((stats) => stats.derived);
      assert.equal((await ask('100')).source, 'upstream');
      // A second answer, predicted by the fee model, confirms it (quotes/totals.ts).
      assert.equal((await ask('180')).source, 'upstream');
      const before = await ask('250');
      assert.equal(before.source, 'derived');
      const counted = await derivedSoFar();
      assert.deepEqual(await ask('250'), before);
      assert.equal(await derivedSoFar(), counted + 1, 'an answer given again counts as derived');
      // A second on, the same answer from the same reference, and it expires a second later.
      clock.at += 1000;
      const again = await ask('250');
      assert.equal(again.pricedAt, before.pricedAt);
      assert.equal(again.crypto.amount, before.crypto.amount);
      assert.equal(Date.parse(again.expiresAt) - Date.parse(before.expiresAt), 1000);
      // An hour on, on both clocks: the price has moved and the reference is stale.
      const later = new Date(clock.at + 3_600_000).toISOString();
      clock.at += 3_600_000;
      await stack.control('POST', '/clock', { now: later });
      const repriced = await ask('100');
      assert.equal(repriced.source, 'upstream');
      const after = await ask('250');
      assert.equal(after.source, 'derived');
      assert.equal(after.pricedAt, repriced.pricedAt);
      assert.notEqual(after.crypto.amount, before.crypto.amount);
    } finally {
      await stack.close();
    }
  });
});

describe('drift', () => {
  test('a sample past the threshold makes the combination upstream-only; a sample that agrees re-learns it', async () => {
    const { stack } = await pinnedStack({ QUOTE_DRIFT_THRESHOLD: '0.0002' });
    try {
      const body = { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC' };
      const ask = async (fiatAmount: string) =>
        json<{ source: string }>(
          await stack.api('/api/quotes/buy', { method: 'POST', json: { ...body, fiatAmount } }),
        );
      const admin = async () =>
        json<{
          maxDrift: number;
          combinations: Array<{ key: string; upstreamOnly: boolean; reason: string | null }>;
        }>(
          await stack.api('/api/admin/quote-engine', {
            headers: { authorization: `Bearer ${testSecrets.adminToken}` },
          }),
        );
      assert.equal((await ask('100')).source, 'upstream');
      // A second answer, predicted by the fee model, confirms it (quotes/totals.ts).
      assert.equal((await ask('150')).source, 'upstream');
      assert.equal((await ask('212.12')).source, 'derived');
      const agreeing = await stack.deps.quotes.sample();
      assert.equal(agreeing?.difference, 0, 'same clock, same model: no drift');
      assert.equal(agreeing?.tripped, false);

      // The market moves (the sandbox clock, 40 minutes on) while the engine still holds the old price.
      await stack.control('POST', '/clock', { advanceMs: 40 * 60_000 });
      assert.equal((await ask('333.33')).source, 'derived');
      const drifting = await stack.deps.quotes.sample();
      assert.ok(drifting && drifting.difference > 0.0002, `drift ${drifting?.difference}`);
      assert.equal(drifting.tripped, true);
      let stats = await admin();
      assert.ok(stats.maxDrift > 0.0002);
      assert.deepEqual(
        stats.combinations.filter((combo) => combo.upstreamOnly).map((combo) => combo.reason),
        ['drift'],
      );
      const health = await json<{ quoteDrift: number }>(await stack.api('/healthz'));
      assert.equal(health.quoteDrift, stats.maxDrift);
      assert.equal((await ask('444.44')).source, 'upstream', 'upstream-only while drifting');

      const recovered = await stack.deps.quotes.sample();
      assert.equal(recovered?.recovered, true);
      assert.equal(recovered?.difference, 0);
      stats = await admin();
      assert.ok(stats.combinations.every((combo) => !combo.upstreamOnly));
      assert.equal((await ask('555.55')).source, 'derived');
    } finally {
      await stack.close();
    }
  });
});

describe('single-flight and a spent budget', () => {
  let pinned: Awaited<ReturnType<typeof pinnedStack>>;
  before(async () => {
    pinned = await pinnedStack();
  });
  after(() => pinned.stack.close());

  const ask = (body: Record<string, string>) =>
    pinned.stack.api('/api/quotes/buy', { method: 'POST', json: body });

  test('100 identical concurrent requests make one upstream call', async () => {
    const pricingCalls = () => pinned.stack.deps.ramp.budgetStats().granted;
    const before = pricingCalls();
    const body = {
      paymentMethod: 'creditcard',
      country: 'IT',
      fiat: 'EUR',
      crypto: 'SOL',
      fiatAmount: '150',
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => ask(body)));
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    // Catalog reads may be first-time too; count the pricing calls the sandbox saw.
    const quotes = await Promise.all(answers.map((answer) => json<{ crypto: { amount: string } }>(answer)));
    assert.equal(new Set(quotes.map((quote) => quote.crypto.amount)).size, 1);
    const stats = pinned.stack.deps.quotes.stats();
    const combo = stats.combinations.find((entry) => entry.key.startsWith('buy|creditcard|IT|EUR|SOL'));
    assert.equal(combo?.upstream, 1);
    assert.ok(pricingCalls() - before <= 4, 'one pricing call, plus at most the catalog reads');
  });

  test('100 concurrent requests of a new combination, each amount different, make a few upstream calls', async () => {
    const before = pinned.stack.deps.quotes.stats().upstream;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        ask({
          paymentMethod: 'creditcard',
          country: 'ES',
          fiat: 'EUR',
          crypto: 'XRP',
          fiatAmount: `${60 + index}.5`,
        }),
      ),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    const sources = await Promise.all(
      answers.map(async (answer) => (await json<{ source: string }>(answer)).source),
    );
    // The first prices the combination; the next check its fee model at other amounts until an answer confirms it
    // and the models it cannot tell apart agree (one at a time: the others wait), then every total is derived.
    const upstream = sources.filter((source) => source === 'upstream').length;
    assert.ok(upstream >= 2 && upstream <= 5, `${upstream} upstream`);
    assert.equal(pinned.stack.deps.quotes.stats().upstream - before, upstream);
  });

  test('with the upstream busy, a priced combination is still answered; only a never-priced one gets UPSTREAM_BUSY', async () => {
    const priced = { paymentMethod: 'creditcard', country: 'NL', fiat: 'EUR', crypto: 'ETH' };
    assert.equal((await ask({ ...priced, fiatAmount: '100' })).status, 200);
    // Past the reference's freshness (10 s), within its stale limit (60 s); the upstream now answers 429.
    pinned.clock.at += 20_000;
    await pinned.stack.control('POST', '/faults', { route: '/ramp/api/v1/merchant/pricing', status: 429 });
    try {
      const answer = await ask({ ...priced, fiatAmount: '271.82' });
      assert.equal(answer.status, 200);
      assert.equal((await json<{ source: string }>(answer)).source, 'derived');
      const never = await ask({
        paymentMethod: 'creditcard',
        country: 'NL',
        fiat: 'EUR',
        crypto: 'DOGE',
        fiatAmount: '90',
      });
      assert.equal(never.status, 503);
      assert.equal((await json<{ error: { code: string } }>(never)).error.code, 'UPSTREAM_BUSY');
      assert.ok(pinned.stack.deps.quotes.stats().derivedWhileUpstreamDown >= 1);
    } finally {
      await pinned.stack.control('DELETE', '/faults');
    }
  });
});
