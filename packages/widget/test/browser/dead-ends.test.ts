// The ramp's dead ends (issue 15): each has a way out the shopper can see and take, against the real backend.
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  recordEvents,
  resetSandbox,
  setBackendDown,
  shadowQuery,
  waitForEvent,
  waitUntil,
} from '../support.ts';
import { moneyEn, mountReady, optionsOf, termsOf, textOf, typeInto } from './checkout-helpers.ts';

/** The chosen method's fees and limits, as its line reads. */
const methodLine = (el: Element) =>
  shadowQuery(el, 'label.method:has(input:checked) small, .methods .terms').textContent ?? '';

describe('no dead ends', () => {
  beforeEach(resetSandbox);

  it('sell in Brazil in USD says no method takes it and switches to the currency that has one in one click', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="BR" fiat="USD" locale="en"></crypto-checkout>`,
    );
    await el.updateComplete;
    expect(shadowQuery(el, '.empty').textContent).to.contain('No method');
    expect(el.shadowRoot!.querySelector('#fiat')).to.equal(null);
    const way = shadowQuery<HTMLButtonElement>(el, '[part~="switch"]');
    expect(way.textContent).to.equal('Use BRL instead');
    await expect(el).to.be.accessible();
    way.click();
    await el.updateComplete;
    expect(el.fiat).to.equal('BRL');
    expect(shadowQuery<HTMLInputElement>(el, '#currency').value).to.match(/^BRL/);
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '200');
    expect((await quote).detail.fiat.currency).to.equal('BRL');
    await waitUntil(
      () => !shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled,
      'Continue stays off',
    );
  });

  it('a country the ramp does not serve (country="KP") is named as not served, with the nearest one a click away', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="KP" locale="en-US"></crypto-checkout>`,
    );
    expect(shadowQuery(el, '.empty').textContent).to.equal('North Korea is not served.');
    const way = shadowQuery<HTMLButtonElement>(el, '[part~="switch"]');
    expect(way.textContent).to.equal('Use United States instead');
    await expect(el).to.be.accessible();
    way.click();
    await waitUntil(() => el.shadowRoot!.querySelector('#fiat'), 'no amount after the switch');
    expect(el.country).to.equal('US');
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('United States');
  });

  it('a country the backend refuses (country="zzz") is named as not found, with the nearest served one a click away, and the page is told', async () => {
    const errors = recordEvents(document, ['checkout-error']);
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="zzz" locale="en-US" amount="50"></crypto-checkout>`,
    );
    errors.stop();
    expect(errors.events.map((e) => e.detail.code)).to.deep.equal(['VALIDATION_FAILED']);
    expect(shadowQuery(el, '.empty').textContent).to.equal('We could not find the country “zzz”.');
    expect(textOf(el)).not.to.contain('check your details');
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('zzz');
    const way = shadowQuery<HTMLButtonElement>(el, '[part~="switch"]');
    expect(way.textContent).to.equal('Use United States instead');
    await expect(el).to.be.accessible();
    const quote = waitForEvent(el, 'checkout-quote');
    way.click();
    await waitUntil(() => el.shadowRoot!.querySelector('#fiat'), 'no amount after the switch');
    expect(el.country).to.equal('US');
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('United States');
    expect(el.shadowRoot!.querySelector('.empty')).to.equal(null);
    // The amount the page gave is quoted for the country switched to.
    const { detail } = await quote;
    expect([detail.fiat.total, detail.fiat.currency]).to.deep.equal(['50.00', 'USD']);
  });

  it('typing a country that is not served shows a "no results" row, and Enter keeps what was typed', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const input = shadowQuery<HTMLInputElement>(el, '#country');
    input.focus();
    await typeInto(el, '#country', 'Narnia');
    await optionsOf(el, 'country');
    const rows = () => [...el.shadowRoot!.querySelectorAll('#country-list [role="option"]')];
    expect(rows().map((r) => r.textContent!.trim())).to.deep.equal(['No results']);
    expect(shadowQuery(el, '#country-list').hidden).to.equal(false);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(input.value).to.equal('Narnia');
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    expect(el.country).to.equal('DE');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(input.value).to.equal('Germany');
  });

  it('buy without an amount says what Continue waits for, and the hint goes once an amount is typed', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const button = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
    const hint = shadowQuery(el, '#amount-msg');
    expect(button.disabled).to.equal(true);
    expect(hint.textContent).to.equal('Enter an amount to see your quote.');
    expect(button.getAttribute('aria-describedby')).to.equal('amount-msg');
    expect(shadowQuery(el, '#fiat').getAttribute('aria-invalid')).to.equal('false');
    await expect(el).to.be.accessible();
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '50');
    await quote;
    await el.updateComplete;
    expect(hint.textContent).to.equal('');
    expect(button.disabled).to.equal(false);
    expect(button.hasAttribute('aria-describedby')).to.equal(false);
  });

  describe('offline', () => {
    afterEach(() => setBackendDown(false));

    it('clears the stale amount, says it is the connection, keeps what was typed and retries once back online', async () => {
      const el = await mountReady(
        html`<crypto-checkout mode="buy" country="DE" locale="en" amount="100"></crypto-checkout>`,
      );
      const crypto = shadowQuery<HTMLInputElement>(el, '#crypto');
      await waitUntil(() => crypto.value !== '', 'no first quote');
      await setBackendDown(true);
      const failed = waitForEvent(el, 'checkout-error');
      await typeInto(el, '#fiat', '120');
      expect((await failed).detail.code).to.equal('NETWORK_ERROR');
      await el.updateComplete;
      expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('120');
      expect(crypto.value).to.equal('');
      expect(shadowQuery(el, '[part~="quote"] [role="alert"]').textContent).to.contain('No connection');
      expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(true);
      await expect(el).to.be.accessible();
      const quote = waitForEvent(el, 'checkout-quote');
      await setBackendDown(false);
      window.dispatchEvent(new Event('online'));
      const { detail } = await quote;
      expect(detail.fiat.total).to.equal('120.00');
      await el.updateComplete;
      expect(crypto.value).to.equal(detail.crypto.amount);
      expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('120');
    });
  });

  it('a huge amount typed as 1e12 is told the maximum, not called invalid', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" payment-method="creditcard"></crypto-checkout>`,
    );
    await typeInto(el, '#fiat', '1e12');
    const { max } = await termsOf('DE', 'EUR', { method: 'creditcard' });
    expect(shadowQuery(el, '#amount-msg').textContent).to.equal(`Maximum: ${moneyEn(max!, 'EUR')}`);
    expect(shadowQuery(el, '#fiat').getAttribute('aria-invalid')).to.equal('true');
  });

  it('in a converted currency the backend tells the limits: the line under the field says "Minimum: ≈ $…" or "Maximum: ≈ $…", not a generic error', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="US" fiat="USD" locale="en" payment-method="creditcard" amount="100"></crypto-checkout>`,
    );
    await waitUntil(() => shadowQuery<HTMLInputElement>(el, '#crypto').value, 'no first quote');
    const line = () => shadowQuery(el, '#amount-msg').textContent;
    const refused = async (text: string, code: string) => {
      const failed = waitForEvent(el, 'checkout-error');
      await typeInto(el, '#fiat', text);
      expect((await failed).detail.code).to.equal(code);
      await el.updateComplete;
    };
    /** The limits the backend states when it refuses that amount (in USD, converted from the EUR limits). */
    const limits = async (fiatAmount: string) => {
      const body = {
        paymentMethod: 'creditcard',
        country: 'US',
        fiat: 'USD',
        crypto: 'USDC_BASE',
        fiatAmount,
      };
      const init = {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
      const answer = await (await fetch('/api/quotes/buy', init)).json();
      return answer.error.details as { min: string; max: string; currency: string };
    };
    expect((await termsOf('US', 'USD', { method: 'creditcard' })).converted).to.equal(true);
    await refused('1', 'AMOUNT_TOO_LOW');
    const { min, max } = await limits('1');
    expect(line()).to.equal(`Minimum: ≈ ${moneyEn(min, 'USD')}`);
    // One minimum on screen: the method line states the limits the refusal stated.
    expect(methodLine(el)).to.contain(` · ≈ ${moneyEn(min, 'USD')}–${moneyEn(max, 'USD')}`);
    expect(shadowQuery<HTMLInputElement>(el, '#crypto').value, 'an older quote’s amount').to.equal('');
    expect(shadowQuery(el, '#fiat').getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.querySelector('[part~="quote"] [role="alert"]')).to.equal(null);
    expect(textOf(el)).not.to.match(/check your details|Something went wrong/);
    expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(true);
    await expect(el).to.be.accessible();

    await refused('1e9', 'AMOUNT_TOO_HIGH');
    expect(line()).to.equal(`Maximum: ≈ ${moneyEn(max, 'USD')}`);

    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '50');
    await quote;
    await el.updateComplete;
    expect(line()).to.equal('');
    expect(shadowQuery(el, '#fiat').getAttribute('aria-invalid')).to.equal('false');
    expect(methodLine(el), 'the limits do not go back to the rough ones').to.contain(
      ` · ≈ ${moneyEn(min, 'USD')}–${moneyEn(max, 'USD')}`,
    );
  });

  it('a catalog converted at a rough rate before any quote taught the exact one: after the refusal, the method line shows the minimum the refusal shows', async () => {
    // Mounted without an amount, so the catalog (rough GBP rate from the fee tables) is built before the first
    // GBP quote teaches the backend the exact rate, which its refusal then uses: two different minimums before.
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="GB" fiat="GBP" locale="en" payment-method="creditcard"></crypto-checkout>`,
    );
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '200');
    await quote;
    const refused = waitForEvent(el, 'checkout-error');
    await typeInto(el, '#fiat', '1');
    const { detail } = await refused;
    await el.updateComplete;
    expect(detail.code).to.equal('AMOUNT_TOO_LOW');
    const minimum = /Minimum: ≈ (.+)$/.exec(shadowQuery(el, '#amount-msg').textContent ?? '')?.[1];
    expect(minimum, 'no minimum under the field').to.be.a('string');
    expect(methodLine(el)).to.contain(` · ≈ ${minimum}–`);
  });

  it('reads 12,50 in German, and in English where the comma cannot be a thousands group; 12.505 € is refused', async () => {
    const de = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="de"></crypto-checkout>`,
    );
    const quote = waitForEvent(de, 'checkout-quote');
    await typeInto(de, '#fiat', '12,50');
    expect((await quote).detail.fiat.total).to.equal('12.50');
    const en = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const comma = waitForEvent(en, 'checkout-quote');
    await typeInto(en, '#fiat', '12,50');
    expect((await comma).detail.fiat.total).to.equal('12.50');
    // More decimals than EUR has: the backend refuses it (never rounded up to 12.51), and no quote is shown.
    const refused = waitForEvent(en, 'checkout-error');
    await typeInto(en, '#fiat', '12.505');
    expect((await refused).detail.code).to.equal('VALIDATION_FAILED');
    await waitUntil(
      () => shadowQuery<HTMLInputElement>(en, '#crypto').value === '',
      'the crypto amount of 12.50 stayed beside 12.505',
    );
    await typeInto(en, '#fiat', '12.50');
    expect(shadowQuery(en, '#amount-msg').textContent).to.equal('');
  });
});
