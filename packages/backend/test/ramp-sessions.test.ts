import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allowedOrigin, json, type Stack, startStack } from './support.ts';

interface Session {
  url: string;
  origin: string;
}

describe('POST /api/ramp-sessions', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  const session = (body: Record<string, unknown>) =>
    stack.api('/api/ramp-sessions', { method: 'POST', json: body });
  const wallet = '0x000000000000000000000000000000000000dEaD';

  test('a buy URL the sandbox widget accepts; a tampered one it refuses', async () => {
    const response = await session({
      side: 'buy',
      method: 'creditcard',
      country: 'DE',
      fiat: 'EUR',
      crypto: 'USDC_BASE',
      fiatAmount: '50',
      walletAddress: wallet,
      returnUrl: `${allowedOrigin}/thanks?x=1`,
    });
    assert.equal(response.status, 200);
    const body = await json<Session>(response);
    assert.equal(body.origin, new URL(stack.sandboxUrl).origin);
    const url = new URL(body.url);
    assert.equal(url.pathname, '/ramp/');
    assert.equal(url.searchParams.get('apiKey'), stack.config.ramp.publicKey);
    // Fees inside: the page is handed the amount before fees whose total is the €50.00 the shopper pays.
    const quote = await json<{ fiat: { amount: string; total: string } }>(
      await stack.api('/api/quotes/buy', {
        method: 'POST',
        json: {
          paymentMethod: 'creditcard',
          country: 'DE',
          fiat: 'EUR',
          crypto: 'USDC_BASE',
          fiatAmount: '50',
        },
      }),
    );
    assert.equal(quote.fiat.total, '50.00');
    assert.ok(Number(quote.fiat.amount) < 50);
    assert.equal(url.searchParams.get('baseCurrencyAmount'), quote.fiat.amount);
    assert.equal(url.searchParams.get('responseUrl'), `${stack.backendUrl}/api/webhooks/ramp`);
    assert.ok(body.url.includes('&signature='));
    assert.ok(body.url.lastIndexOf('&signature=') > body.url.lastIndexOf('&responseUrl='), 'signature last');
    assert.equal((await fetch(body.url)).status, 200);
    const tampered = body.url.replace(
      `baseCurrencyAmount=${quote.fiat.amount}`,
      'baseCurrencyAmount=5000.00',
    );
    assert.notEqual(tampered, body.url);
    assert.equal((await fetch(tampered)).status, 403);
  });

  test("the buy page in the shopper's language, as the ramp takes it; a tag that is no language refused", async () => {
    const buy = { side: 'buy', country: 'DE', fiat: 'EUR', crypto: 'USDC_BASE', walletAddress: wallet };
    const languageOf = async (language: string) => {
      const response = await session({ ...buy, language });
      assert.equal(response.status, 200, language);
      const { url } = await json<Session>(response);
      const page = await fetch(url);
      assert.equal(page.status, 200, `${language}: the signed URL is accepted`);
      return { sent: new URL(url).searchParams.get('language'), page: await page.text() };
    };
    const german = await languageOf('de-AT');
    assert.equal(german.sent, 'de');
    assert.match(german.page, /<html lang="de"/);
    assert.equal((await languageOf('pt-BR')).sent, 'pt-BR');
    assert.equal((await languageOf('pt-PT')).sent, 'pt');
    assert.equal((await languageOf('JA')).sent, 'ja');
    // No two-letter code: the page's default (English).
    assert.equal((await languageOf('fil-PH')).sent, null);
    const refused = await session({ ...buy, language: 'de"><script>' });
    assert.equal(refused.status, 422);
    const error = await json<{ error: { code: string } }>(refused);
    assert.equal(error.error.code, 'VALIDATION_FAILED');
    const sell = await json<Session>(
      await session({
        side: 'sell',
        country: 'DE',
        fiat: 'EUR',
        crypto: 'ETH',
        cryptoAmount: '0.05',
        language: 'de',
      }),
    );
    assert.equal(
      new URL(sell.url).searchParams.get('language'),
      null,
      'the sell page takes none (docs/upstream.md)',
    );
  });

  test('a sell URL the sandbox widget accepts', async () => {
    const body = await json<Session>(
      await session({
        side: 'sell',
        method: 'bank-transfer',
        country: 'DE',
        fiat: 'EUR',
        crypto: 'ETH',
        cryptoAmount: '0.05',
      }),
    );
    assert.equal(new URL(body.url).pathname, '/ramp/sell');
    assert.equal((await fetch(body.url)).status, 200);
  });

  test('a sell by what the shopper receives hands the page the value whose payout is that amount', async () => {
    const body = await json<Session>(
      await session({
        side: 'sell',
        method: 'bank-transfer',
        country: 'DE',
        fiat: 'EUR',
        crypto: 'ETH',
        fiatAmount: '100',
      }),
    );
    const quote = await json<{ fiat: { amount: string; total: string } }>(
      await stack.api('/api/quotes/sell', {
        method: 'POST',
        json: { payoutMethod: 'bank-transfer', country: 'DE', fiat: 'EUR', crypto: 'ETH', fiatAmount: '100' },
      }),
    );
    assert.equal(quote.fiat.total, '100.00');
    assert.equal(new URL(body.url).searchParams.get('fiatCurrencyAmount'), quote.fiat.amount);
    assert.ok(Number(quote.fiat.amount) > 100);
  });

  test('crypto amounts go into the URL as the shopper typed them, without float noise', async () => {
    const sell = await json<Session>(
      await session({ side: 'sell', country: 'DE', fiat: 'EUR', crypto: 'ETH', cryptoAmount: '0.1' }),
    );
    assert.equal(new URL(sell.url).searchParams.get('cryptoCurrencyAmount'), '0.1');
    const small = await json<Session>(
      await session({ side: 'sell', country: 'DE', fiat: 'EUR', crypto: 'ETH', cryptoAmount: '0.0000003' }),
    );
    assert.equal(new URL(small.url).searchParams.get('cryptoCurrencyAmount'), '0.0000003');
    assert.equal((await fetch(sell.url)).status, 200);
  });

  test('a foreign returnUrl, a missing wallet, an unavailable method are refused', async () => {
    const base = { side: 'buy', fiat: 'EUR', crypto: 'ETH', country: 'DE', walletAddress: wallet };
    const foreign = await session({ ...base, returnUrl: 'https://evil.example/steal' });
    assert.equal(foreign.status, 422);
    assert.equal((await json<{ error: { code: string } }>(foreign)).error.code, 'RETURN_URL_NOT_ALLOWED');
    const noWallet = await session({ ...base, walletAddress: undefined });
    assert.equal((await json<{ error: { code: string } }>(noWallet)).error.code, 'VALIDATION_FAILED');
    const pix = await session({ ...base, method: 'pix' });
    assert.equal((await json<{ error: { code: string } }>(pix)).error.code, 'METHOD_UNAVAILABLE');
  });
});
