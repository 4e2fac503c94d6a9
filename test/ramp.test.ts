/** Buy and sell crypto (the ramp modes) and the customer's permanent deposit address, in the demo's pages. */
import assert from 'node:assert/strict';
import { demoSuite, type Page, type RecordedEvent, recordedEvents, test, waitForEvent } from './harness.ts';

const demo = demoSuite('ramp');
const { shot } = demo;

interface QuoteDetail {
  input: 'fiat' | 'crypto';
  fiat: { currency: string; amount: string; total: string };
  crypto: { currency: string; amount: string };
  paymentMethod: string;
  fees: { processing: string; total: string };
}

const quotes = async (page: Page) =>
  (await recordedEvents(page, 'checkout-quote')).map(
    (event: RecordedEvent) => event.detail as unknown as QuoteDetail,
  );

/** Waits for a quote after `count` quotes matching `match`, and returns it. */
async function nextQuote(page: Page, count: number, match: (q: QuoteDetail) => boolean = () => true) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = (await quotes(page)).slice(count).find(match);
    if (found) return found;
    await page.waitForTimeout(100);
  }
  throw new Error(`no matching quote after ${count}: ${JSON.stringify((await quotes(page)).slice(-3))}`);
}

/** The number in one of the element's inputs (the demo pages use an English locale). */
const fieldNumber = (page: Page, id: string) =>
  page.evaluate(
    (field) =>
      Number(
        document
          .querySelector('crypto-checkout')
          ?.shadowRoot?.querySelector<HTMLInputElement>(`input#${field}`)
          ?.value.replace(/,/g, '') || Number.NaN,
      ),
    id,
  );

/** Waits until the field shows `expected` (to a relative 1e-6, as the element may trim trailing digits). */
async function fieldShows(page: Page, id: string, expected: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let value = Number.NaN;
  while (Date.now() < deadline) {
    value = await fieldNumber(page, id);
    if (Math.abs(value - expected) <= Math.abs(expected) * 1e-6) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`#${id} shows ${value}, expected ${expected}`);
}

test('buy: either amount fills the other, method and country change the quote, Continue opens the signed ramp widget', async () => {
  const { context, page } = await demo.open('/buy');
  const checkout = page.locator('crypto-checkout');
  const fiat = checkout.locator('input#fiat');
  const crypto = checkout.locator('input#crypto');

  // The initial amount (attribute amount="100") is priced.
  const first = await nextQuote(page, 0);
  assert.equal(first.input, 'fiat');
  // Fees inside: the 100 typed is the total paid.
  assert.equal(Number(first.fiat.total), 100);
  assert.ok(Number(first.fiat.amount) < 100, 'the amount before fees is less');
  assert.ok((await fieldNumber(page, 'crypto')) > 0, 'the crypto amount is filled');
  await shot(page, 'buy-initial-quote');

  // Typing a fiat amount fills the crypto amount.
  let seen = (await quotes(page)).length;
  await fiat.fill('250');
  const fromFiat = await nextQuote(page, seen, (q) => q.input === 'fiat' && Number(q.fiat.total) === 250);
  await fieldShows(page, 'crypto', Number(fromFiat.crypto.amount));

  // And the reverse: typing a crypto amount fills the fiat amount.
  seen = (await quotes(page)).length;
  await crypto.fill('120');
  const fromCrypto = await nextQuote(
    page,
    seen,
    (q) => q.input === 'crypto' && Number(q.crypto.amount) === 120,
  );
  await fieldShows(page, 'fiat', Number(fromCrypto.fiat.total));
  await shot(page, 'buy-typed-crypto');

  // Another payment method: a new quote for it.
  seen = (await quotes(page)).length;
  await fiat.fill('200');
  const before = await nextQuote(page, seen, (q) => q.input === 'fiat' && Number(q.fiat.total) === 200);
  const methods = checkout.locator('fieldset.methods input[type="radio"]');
  assert.ok((await methods.count()) >= 2, 'the country offers at least two payment methods');
  const unchecked = checkout
    .locator('fieldset.methods label.method')
    .filter({ has: page.locator('input:not(:checked)') });
  seen = (await quotes(page)).length;
  await unchecked.first().click();
  const otherMethod = await nextQuote(page, seen, (q) => q.paymentMethod !== before.paymentMethod);
  assert.notEqual(otherMethod.paymentMethod, before.paymentMethod);
  await shot(page, 'buy-other-method');

  // Another country: its own currency and methods.
  seen = (await quotes(page)).length;
  const country = checkout.getByRole('combobox', { name: 'Country' });
  await country.fill('united k');
  await checkout.getByRole('option', { name: 'United Kingdom' }).click();
  assert.equal(await country.inputValue(), 'United Kingdom');
  const british = await nextQuote(page, seen, (q) => q.fiat.currency === 'GBP');
  assert.equal(british.fiat.currency, 'GBP');
  await shot(page, 'buy-country-gb');

  // Continue: the backend signs a ramp URL and the sandbox's hosted widget accepts it.
  const sessionAnswer = page.waitForResponse((r) => r.url().endsWith('/api/ramp-sessions'));
  await checkout.getByRole('button', { name: 'Continue' }).click();
  const answer = await sessionAnswer;
  const session = (await answer.json()) as { url: string };
  assert.equal(answer.status(), 200, JSON.stringify(session));
  assert.match(session.url, /\/sandbox\/ramp\/?\?.*signature=/);
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.getByRole('heading', { level: 1, name: /^Buy / }).waitFor();
  assert.equal(await frame.getByText('Widget URL refused').count(), 0);
  await shot(page, 'buy-ramp-widget');

  // The signature is what lets it in: the same URL with the amount changed is refused.
  const tampered = session.url.replace(/([?&]baseCurrencyAmount=)([^&]+)/, (_m, key: string) => `${key}999`);
  assert.notEqual(tampered, session.url, 'the signed URL carries baseCurrencyAmount');
  assert.equal((await fetch(tampered)).status, 403);

  // Through the simulated flow to the end: the element reports completion.
  await frame.getByRole('button', { name: 'Continue' }).click();
  const email = frame.getByLabel('Email address');
  const pay = frame.getByRole('button', { name: /^Pay .*simulated card/ });
  // No e-mail was passed to the ramp, so it asks for one first.
  await email.fill('shopper@example.com');
  await shot(page, 'buy-ramp-email');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await pay.waitFor();
  await shot(page, 'buy-ramp-pay');
  await pay.click();
  const complete = await waitForEvent(page, 'checkout-complete');
  assert.equal(complete[0]?.detail['kind'], 'buy');
  await shot(page, 'buy-complete');
  await context.close();
});

test('sell: a quote for a payout method, then the sell widget', async () => {
  const { context, page } = await demo.open('/sell');
  const checkout = page.locator('crypto-checkout');
  const first = await nextQuote(page, 0);
  assert.ok(Number(first.fiat.total) > 0);
  // A sell quote's total is what arrives after fees: less than the value before them.
  assert.ok(Number(first.fiat.total) < Number(first.fiat.amount));

  const methods = checkout.locator('fieldset.methods label.method');
  assert.ok((await methods.count()) >= 1, 'the country offers a payout method');
  if ((await methods.count()) >= 2) {
    const seen = (await quotes(page)).length;
    await checkout
      .locator('fieldset.methods label.method')
      .filter({ has: page.locator('input:not(:checked)') })
      .first()
      .click();
    const other = await nextQuote(page, seen, (q) => q.paymentMethod !== first.paymentMethod);
    assert.notEqual(other.paymentMethod, first.paymentMethod);
  }
  await shot(page, 'sell-quote');

  await checkout.getByRole('button', { name: 'Continue' }).click();
  const frame = page.frameLocator('crypto-checkout iframe');
  await frame.getByRole('heading', { level: 1, name: /^Sell / }).waitFor();
  assert.equal(await frame.getByText('Widget URL refused').count(), 0);
  await shot(page, 'sell-widget');
  await context.close();
});

async function depositAddress(page: Page): Promise<string> {
  const checkout = page.locator('crypto-checkout');
  const address = checkout.locator('#address');
  await address.waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector('crypto-checkout')?.shadowRoot?.querySelector<HTMLTextAreaElement>('#address')
        ?.value,
  );
  return address.inputValue();
}

test('deposit: the same customer sees the same address on a second visit, with a QR code', async () => {
  const { context, page } = await demo.open('/deposit');
  const first = await depositAddress(page);
  assert.ok(first.length >= 20, `an address, got "${first}"`);
  const qr = page.locator('crypto-checkout img.qr');
  await qr.waitFor();
  assert.ok(((await qr.boundingBox())?.width ?? 0) > 100, 'a QR code big enough to scan');
  await shot(page, 'deposit-first-visit');
  const customer = await page.locator('#customer-id').textContent();

  // Second visit, same customer (the demo's cookie stands in for the shop's login).
  await page.reload();
  assert.equal(await depositAddress(page), first);
  assert.equal(await page.locator('#customer-id').textContent(), customer);
  await shot(page, 'deposit-second-visit');

  // Another chain: another address.
  await page.locator('crypto-checkout #chain').click();
  const chains = page.locator('crypto-checkout #chain-list [role="option"]');
  // The list shows once its code is here (it loads on the first touch).
  await chains.first().waitFor();
  if ((await chains.count()) >= 2) {
    await chains.nth(1).click();
    await page.waitForFunction(
      (previous) =>
        document.querySelector('crypto-checkout')?.shadowRoot?.querySelector<HTMLTextAreaElement>('#address')
          ?.value !== previous,
      first,
    );
  }

  // Another customer: another address.
  const { context: stranger, page: other } = await demo.open('/deposit');
  assert.notEqual(await depositAddress(other), first);
  await stranger.close();
  await context.close();
});
