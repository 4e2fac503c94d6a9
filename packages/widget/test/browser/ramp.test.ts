// Buy and sell against the real backend on the sandbox: the catalog, both amount fields, live quotes (only the
// latest shown), limits checked before any request, every state with a UI, the sell side and buy's wallet.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import {
  addFault,
  clearFaults,
  recordEvents,
  resetSandbox,
  shadowQuery,
  waitForEvent,
  waitUntil,
} from '../support.ts';
import {
  internals,
  methodEntries,
  moneyEn,
  mountReady,
  optionsOf,
  requestsTo,
  termsOf,
  textOf,
  typeInto,
} from './checkout-helpers.ts';

/** The quote controller's state a test reads (not public API). */
interface QuoteInternals {
  quote?: { expiresAt: string };
  /** Set while a request is on its way. */
  _abort?: AbortController;
}

describe('buy mode', () => {
  beforeEach(resetSandbox);

  it('loads the catalog once (skeleton, then ready) with pickers, methods and their fees and limits', async () => {
    const ready = waitForEvent(document, 'checkout-ready');
    const before = requestsTo('/api/catalog');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    expect(el.shadowRoot!.querySelector('.skeleton')).to.exist;
    await expect(el).to.be.accessible();
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'DE', language: 'en' });
    await el.updateComplete;
    expect(requestsTo('/api/catalog') - before).to.equal(1);
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('Germany');
    expect(shadowQuery<HTMLInputElement>(el, '#currency').value).to.equal('EUR · Euro');
    expect(shadowQuery<HTMLInputElement>(el, '#crypto-search').value).to.equal('USDC · Base');
    const methods = await methodEntries(el);
    expect(methods.length).to.be.greaterThan(1);
    // The least a shopper can pay with the card, fees inside (the method's €7.00 before fees, plus its fees).
    const card = await termsOf('DE', 'EUR', { method: 'creditcard' });
    expect(Number(card.min)).to.be.above(7);
    expect(methods[0]!.textContent)
      .to.contain('Card')
      .and.contain('%')
      .and.contain(moneyEn(card.min!, 'EUR'));
    expect(methods[0]!.textContent).not.to.contain('≈');
    await expect(el).to.be.accessible();
  });

  it('typing the fiat amount fills the crypto amount from a live quote, and shows the quote', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '51');
    const { detail } = await quote;
    expect(detail).to.include({ side: 'buy', input: 'fiat' });
    expect(detail.fiat).to.include({ currency: 'EUR', total: '51.00' });
    expect(detail.crypto.amount).to.match(/^\d+\.\d+$/);
    expect(JSON.parse(JSON.stringify(detail))).to.deep.equal(detail);
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#crypto').value).to.equal(detail.crypto.amount);
    const shown = shadowQuery(el, '[part~="quote"]');
    expect(shown.querySelector('[aria-live="polite"]')).to.exist;
    expect(shown.textContent).to.contain('Rate').and.contain('Processing fee').and.contain('Network fee');
    expect(shown.textContent).to.contain('Markup').and.contain('Total').and.contain(`€${detail.fiat.total}`);
    expect(shown.textContent).to.match(/Updated (now|\d+ ?s(ec)?\.? ago)/);
    expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('typing the crypto amount fills the fiat amount', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#crypto', '25');
    const { detail } = await quote;
    expect(detail.input).to.equal('crypto');
    expect(detail.crypto.amount).to.match(/^25(\.0+)?$/);
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal(detail.fiat.total);
  });

  it('debounces typing: one request for a burst of keystrokes', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const before = requestsTo('/api/quotes/buy');
    const events = recordEvents(el, ['checkout-quote']);
    for (const text of ['3', '33', '333']) await typeInto(el, '#fiat', text);
    await waitUntil(() => events.events.length === 1, 'no quote');
    expect(requestsTo('/api/quotes/buy') - before).to.equal(1);
    expect(events.events[0]!.detail.fiat.total).to.equal('333.00');
  });

  it('shows only the latest answer when an older one arrives later', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const events = recordEvents(el, ['checkout-quote']);
    // Both answers are slow; the one for 42 is asked (after the pause in typing) once 41's is on its way, so it
    // comes after the answer for 41 would have.
    await addFault({ route: '/ramp/api/v1/merchant/pricing', latencyMs: 1500, times: 2 });
    el.amount = '41'; // asked at once
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="quote"]').getAttribute('aria-busy')).to.equal('true');
    await typeInto(el, '#fiat', '42');
    await waitUntil(() => events.events.length > 0, 'no quote');
    expect(events.events.map((e) => e.detail.fiat.total)).to.deep.equal(['42.00']);
    expect(shadowQuery<HTMLInputElement>(el, '#crypto').value).to.equal(
      events.events[0]!.detail.crypto.amount,
    );
  });

  it('flags amounts outside the method limits inline, before any request', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const before = requestsTo('/api/quotes/');
    /** Whether a quote is asked or on its way (the quote's busy state): none may be. */
    const asking = () => shadowQuery(el, '[part~="quote"]').getAttribute('aria-busy') === 'true';
    await typeInto(el, '#fiat', '3');
    expect(asking()).to.equal(false);
    const message = shadowQuery(el, '#amount-msg');
    const { min, max } = await termsOf('DE', 'EUR', { method: 'creditcard' });
    expect(message.textContent).to.equal(`Minimum: ${moneyEn(min!, 'EUR')}`);
    expect(shadowQuery(el, '#fiat').getAttribute('aria-invalid')).to.equal('true');
    expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(true);
    await expect(el).to.be.accessible();
    await typeInto(el, '#fiat', '200000');
    expect(message.textContent).to.equal(`Maximum: ${moneyEn(max!, 'EUR')}`);
    await typeInto(el, '#fiat', 'abc');
    expect(message.textContent).to.equal('Enter a valid amount.');
    expect(asking()).to.equal(false);
    expect(requestsTo('/api/quotes/') - before).to.equal(0);
  });

  it('empties the other amount when the one typed cannot be quoted, instead of showing an old answer', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="58"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const crypto = shadowQuery<HTMLInputElement>(el, '#crypto');
    expect(crypto.value).to.not.equal('');
    await typeInto(el, '#fiat', '3');
    expect(crypto.value).to.equal('');
    expect(shadowQuery(el, '[part~="quote"] dl').textContent!.trim()).to.equal('');
    await typeInto(el, '#crypto', '20');
    await waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#crypto', '');
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('');
  });

  it('shows a quote the backend could not price (the provider failing) as the payment service unavailable, with a retry that works', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    await addFault({ route: '/ramp/api/v1/merchant/pricing', status: 503 });
    const error = waitForEvent(el, 'checkout-error');
    await typeInto(el, '#fiat', '57');
    const { detail } = await error;
    expect(detail.retryable).to.equal(true);
    await el.updateComplete;
    const alert = shadowQuery(el, '[part~="quote"] [role="alert"]');
    expect(alert.textContent).to.contain('The payment service is unavailable for now');
    expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(true);
    await expect(el).to.be.accessible();
    await clearFaults();
    const quote = waitForEvent(el, 'checkout-quote');
    alert.querySelector('button')!.click();
    expect((await quote).detail.fiat.total).to.equal('57.00');
  });

  it('asks nothing while the tab is hidden, and refreshes a stale quote when it is shown again', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="55"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    let hidden = false;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    const visibility = (value: boolean) => {
      hidden = value;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    try {
      visibility(true);
      const before = requestsTo('/api/quotes/buy');
      const events = recordEvents(el, ['checkout-quote']);
      const quotes = (internals(el)._view as unknown as { quotes: QuoteInternals }).quotes;
      el.amount = '56'; // would be asked at once on a visible tab
      await el.updateComplete;
      // A request is sent in the update that asks for it, or not at all: none is on its way.
      expect(quotes._abort === undefined, 'a request is on its way').to.equal(true);
      expect(requestsTo('/api/quotes/buy') - before).to.equal(0);
      expect(events.events).to.have.length(0);
      const shown = waitForEvent(el, 'checkout-quote');
      visibility(false);
      expect((await shown).detail.fiat.total).to.equal('56.00');
      // A quote past its expiry when the tab comes back is asked again at once.
      visibility(true);
      quotes.quote!.expiresAt = new Date(Date.now() - 1000).toISOString();
      const refreshed = waitForEvent(el, 'checkout-quote');
      visibility(false);
      expect((await refreshed).detail.fiat.total).to.equal('56.00');
      expect(requestsTo('/api/quotes/buy') - before).to.equal(2);
    } finally {
      delete (document as { hidden?: boolean }).hidden;
    }
  });

  it('shows an error with a retry when the backend cannot be reached, and recovers', async () => {
    const error = waitForEvent(document, 'checkout-error');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" api="http://127.0.0.1:9/api" locale="en"></crypto-checkout>`,
    );
    const { detail } = await error;
    expect(detail).to.include({ code: 'NETWORK_ERROR', retryable: true });
    await el.updateComplete;
    const alert = shadowQuery(el, '[role="alert"]');
    expect(alert.textContent).to.contain('No connection');
    expect(alert.querySelector('button')!.textContent).to.equal('Try again');
    await expect(el).to.be.accessible();
    const ready = waitForEvent(el, 'checkout-ready');
    el.api = '/api';
    await ready;
  });

  it('two elements on one page work independently', async () => {
    const a = await mountReady(html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`);
    const b = await mountReady(html`<crypto-checkout mode="buy" country="DE" locale="de"></crypto-checkout>`);
    const qa = waitForEvent(a, 'checkout-quote');
    const qb = waitForEvent(b, 'checkout-quote');
    await typeInto(a, '#fiat', '71');
    await typeInto(b, '#fiat', '72');
    expect((await qa).detail.fiat.total).to.equal('71.00');
    expect((await qb).detail.fiat.total).to.equal('72.00');
    await a.updateComplete;
    expect(shadowQuery<HTMLInputElement>(a, '#fiat').value).to.equal('71');
    expect(shadowQuery(b, '[part~="button"]').textContent).to.equal('Weiter');
  });
});

describe('sell mode', () => {
  beforeEach(resetSandbox);

  it('reads a sale as crypto sent → fiat received', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" locale="en"></crypto-checkout>`,
    );
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#crypto', '100');
    const { detail } = await quote;
    await el.updateComplete;
    const total = shadowQuery(el, '[part~="quote"] dl > div:last-child dd').textContent ?? '';
    const [sent, received] = total.split(' → ');
    expect(sent).to.match(new RegExp(`^100 ${detail.crypto.currency.split('_')[0]}`));
    expect(received).to.equal(`${detail.estimate ? '≈ ' : ''}€${detail.fiat.total}`);
  });

  it('quotes a crypto amount against the payout methods, fiat filled in', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" locale="en"></crypto-checkout>`,
    );
    expect(shadowQuery(el, 'legend').textContent).to.equal('Payout method');
    expect(shadowQuery(el, 'label[for="crypto"]').textContent).to.match(/^You sell/);
    const quote = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#crypto', '100');
    const { detail } = await quote;
    expect(detail.side).to.equal('sell');
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal(detail.fiat.total);
    await expect(el).to.be.accessible();
  });

  it('shows the empty state when no payout method takes this country and currency', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="US" locale="en"></crypto-checkout>`,
    );
    expect(textOf(el)).to.contain('No method for this country and currency.');
    expect(el.shadowRoot!.querySelector('#fiat')).to.equal(null);
    await expect(el).to.be.accessible();
    // A way out: another currency, picked in the searchable list with the keyboard.
    shadowQuery<HTMLInputElement>(el, '#currency').focus();
    await sendKeys({ type: 'eur' });
    // Enter once the list shows what was typed (its code loads on the first touch).
    await optionsOf(el, 'currency');
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.fiat).to.equal('EUR');
    await waitUntil(() => el.shadowRoot!.querySelector('#fiat'), 'no amount fields');
    expect(el.shadowRoot!.querySelector('#fiat')).to.exist;
  });
});

describe('buy: the wallet address', () => {
  beforeEach(resetSandbox);

  it('asks for it inline before Continue sends anything, then sends what was typed', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="62"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const wallet = shadowQuery<HTMLInputElement>(el, '#wallet');
    expect(wallet.required).to.equal(true);
    expect(wallet.labels![0]!.textContent).to.equal('Your wallet address');
    const before = requestsTo('/api/ramp-sessions');
    const events = recordEvents(el, ['checkout-order', 'checkout-error']);
    const button = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
    button.click();
    await el.updateComplete;
    // Continue is not busy: no session was asked for, nor is one on its way.
    expect(button.disabled).to.equal(false);
    expect(requestsTo('/api/ramp-sessions') - before).to.equal(0);
    expect(events.events).to.have.length(0);
    expect(shadowQuery(el, '#wallet-msg').textContent).to.equal('Required.');
    expect(wallet.getAttribute('aria-invalid')).to.equal('true');
    expect(wallet.getAttribute('aria-describedby')).to.equal('wallet-msg');
    expect(el.shadowRoot!.activeElement).to.equal(wallet);
    await expect(el).to.be.accessible();
    await typeInto(el, '#wallet', ' 0x6666666666666666666666666666666666666666 ');
    expect(el.shadowRoot!.querySelector('#wallet-msg')!.textContent).to.equal('');
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(new URL(detail.url).searchParams.get('walletAddress')).to.equal(
      '0x6666666666666666666666666666666666666666',
    );
  });

  it('uses the wallet-address attribute as is, with no field to fill', async () => {
    const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="62" wallet-address=${address}></crypto-checkout>`,
    );
    expect(el.shadowRoot!.querySelector('#wallet')).to.equal(null);
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(new URL(detail.url).searchParams.get('walletAddress')).to.equal(address);
  });
});
