// Buy and sell against the real backend on the sandbox: the catalog, both amount fields, live quotes (only the
// latest shown), limits checked before any request, the ramp page, every state with a UI, locale and theming.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import { addFault, clearFaults, recordEvents, resetSandbox, shadowQuery, waitForEvent } from '../support.ts';
import {
  captureNavigation,
  internals,
  moneyEn,
  mountReady,
  openPicker,
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
    const ready = waitForEvent(document, 'checkout-ready', { timeout: 8000 });
    const before = requestsTo('/api/catalog');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    expect(el.shadowRoot!.querySelector('.skeleton')).to.exist;
    await expect(el).to.be.accessible();
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'DE' });
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
    await waitUntil(() => events.events.length === 1, 'no quote', { timeout: 5000 });
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
    await waitUntil(() => events.events.length > 0, 'no quote', { timeout: 8000 });
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

  it('shows a quote the backend could not price as an error with a retry that works', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    await addFault({ route: '/ramp/api/v1/merchant/pricing', status: 503 });
    const error = waitForEvent(el, 'checkout-error', { timeout: 8000 });
    await typeInto(el, '#fiat', '57');
    const { detail } = await error;
    expect(detail.retryable).to.equal(true);
    await el.updateComplete;
    const alert = shadowQuery(el, '[part~="quote"] [role="alert"]');
    expect(alert.textContent).to.contain('Something went wrong');
    expect(shadowQuery<HTMLButtonElement>(el, '[part~="button"]').disabled).to.equal(true);
    await expect(el).to.be.accessible();
    await clearFaults();
    const quote = waitForEvent(el, 'checkout-quote', { timeout: 8000 });
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

  it('Continue opens the signed ramp session inline, and the ramp page may close it', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="60" wallet-address="0x1111111111111111111111111111111111111111"></crypto-checkout>`,
    );
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('60');
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(detail.kind).to.equal('buy');
    expect(detail.url).to.match(/^http/);
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe[part~="frame"]');
    expect(frame.src).to.equal(detail.url);
    await waitUntil(() => frame.contentDocument?.getElementById('close'), 'ramp page not loaded', {
      timeout: 5000,
    });
    await expect(el).to.be.accessible();
    const close = waitForEvent(el, 'checkout-close');
    (frame.contentDocument!.getElementById('close') as HTMLButtonElement).click();
    expect((await close).detail).to.deep.equal({ reason: 'page' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('ends with checkout-complete when the ramp page reports the purchase, then goes to return-url', async function () {
    this.timeout(20000);
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="63" return-url="/done"
        wallet-address="0x5555555555555555555555555555555555555555"></crypto-checkout>`,
    );
    const navigations = captureNavigation(el);
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    await waitForEvent(el, 'checkout-order');
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe');
    const page = () => frame.contentDocument!;
    await waitUntil(() => page().getElementById('amount-form'), 'ramp page not loaded', { timeout: 5000 });
    await waitUntil(
      () => !(page().getElementById('continue') as HTMLButtonElement).disabled,
      'no ramp quote',
      {
        timeout: 5000,
      },
    );
    (page().getElementById('continue') as HTMLButtonElement).click();
    await waitUntil(
      () =>
        !page().getElementById('step-LOGIN_EMAIL')!.hidden || !page().getElementById('step-PAYMENT')!.hidden,
      'no next step',
    );
    if (!page().getElementById('step-LOGIN_EMAIL')!.hidden) {
      (page().getElementById('email') as HTMLInputElement).value = 'shopper@example.com';
      (page().getElementById('email-form') as HTMLFormElement).requestSubmit();
    }
    await waitUntil(() => !page().getElementById('step-PAYMENT')!.hidden, 'no payment step', {
      timeout: 5000,
    });
    const complete = waitForEvent(el, 'checkout-complete', { timeout: 8000 });
    (page().getElementById('pay') as HTMLButtonElement).click();
    const { detail } = await complete;
    expect(detail.kind).to.equal('buy');
    expect(detail.status).to.equal('completed');
    expect(detail.orderId).to.be.a('string');
    // "Done" shows for a moment before the page moves on.
    expect(navigations).to.have.length(0);
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Done');
    await waitUntil(() => navigations.length, 'never went to return-url', { timeout: 3000 });
    expect(navigations).to.have.length(1);
    expect(navigations[0]).to.equal(detail.returnUrl);
    expect(new URL(navigations[0]!).searchParams.get('orderId')).to.equal(detail.orderId);
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Done');
  });

  it('shows the ramp page in a modal dialog that Esc closes', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="61" display="modal" wallet-address="0x2222222222222222222222222222222222222222"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    await waitForEvent(el, 'checkout-order');
    await el.updateComplete;
    const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog[part~="dialog"]');
    expect(dialog.open).to.equal(true);
    expect(dialog.querySelector('iframe[part~="frame"]')).to.exist;
    await expect(el).to.be.accessible();
    const close = waitForEvent(el, 'checkout-close');
    // Keys pressed inside the framed page stay there; from the dialog's own controls Esc closes it.
    shadowQuery<HTMLButtonElement>(el, 'dialog .close').focus();
    await sendKeys({ press: 'Escape' });
    expect((await close).detail).to.deep.equal({ reason: 'user' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
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
    const ready = waitForEvent(el, 'checkout-ready', { timeout: 8000 });
    el.api = '/api';
    await ready;
  });

  it('switches language and number format with locale', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="1234.5"></crypto-checkout>`,
    );
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('You pay (EUR)');
    expect(shadowQuery(el, '.methods small').textContent).to.match(/\d\.\d+%/);
    el.locale = 'de';
    await el.updateComplete;
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('Sie zahlen (EUR)');
    expect(shadowQuery(el, '[part~="button"]').textContent).to.equal('Weiter');
    expect(shadowQuery(el, '.methods small').textContent)
      .to.match(/ · \d+,\d\d\s€–\d{1,3}(\.\d{3})*,\d\d\s€$/)
      .and.match(/\d,\d+\s%/);
    el.locale = 'pt-BR';
    await el.updateComplete;
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('Você paga (EUR)');
    expect(shadowQuery(el, '.base').getAttribute('lang')).to.equal('pt-BR');
  });

  it('re-writes the amounts with the new decimal separator on a locale switch, but not the field being typed in', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="1234.5"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const fiat = shadowQuery<HTMLInputElement>(el, '#fiat');
    const crypto = shadowQuery<HTMLInputElement>(el, '#crypto');
    expect(fiat.value).to.equal('1234.5');
    expect(crypto.value).to.match(/^\d+\.\d+$/);
    const quotes = requestsTo('/api/quotes');
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('1234,5');
    expect(crypto.value).to.match(/^\d+,\d+$/);
    el.locale = 'fr';
    await el.updateComplete;
    expect(fiat.value).to.equal('1234,5');
    // The same amounts: no new quote is asked for (none is on its way, none was sent).
    expect(shadowQuery(el, '[part~="quote"]').getAttribute('aria-busy')).to.equal('false');
    expect(requestsTo('/api/quotes')).to.equal(quotes);
    // While the shopper types in a field, it keeps what they typed.
    fiat.focus();
    await typeInto(el, '#fiat', '99.5');
    el.locale = 'en';
    await el.updateComplete;
    expect(fiat.value).to.equal('99.5');
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('99.5');
    fiat.blur();
    // A new amount and locale at once: the amount as it is meant (1.234, not 1234), in the new locale's way.
    el.amount = '1.234';
    el.locale = 'en';
    await el.updateComplete;
    expect(fiat.value).to.equal('1.234');
    el.amount = '2.345';
    el.locale = 'de';
    await el.updateComplete;
    expect(fiat.value).to.equal('2,345');
  });

  for (const [locale, us, de, euro] of [
    ['es', 'Estados Unidos', 'Alemania', 'euro'],
    ['de', 'Vereinigte Staaten', 'Deutschland', 'Euro'],
  ] as const) {
    it(`names countries and currencies in the element's locale (${locale}), sorted as it sorts`, async () => {
      const el = await mountReady(
        html`<crypto-checkout mode="buy" country="DE" locale=${locale}></crypto-checkout>`,
      );
      expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal(de);
      const countries = await pickerOptions(el, '#country');
      const names = countries.map(([, name]) => name);
      const byFlag = (code: string) => countries.find(([f]) => f === code)?.[1];
      expect(byFlag('US')).to.equal(us);
      expect(byFlag('DE')).to.equal(de);
      expect(names).to.not.include('United States');
      expect(names).to.deep.equal([...names].sort(new Intl.Collator(locale).compare));
      const currencies = await pickerOptions(el, '#currency');
      expect(currencies.map(([, name]) => name)).to.include(`EUR ${euro}`);
      await expect(el).to.be.accessible();
    });
  }

  it('picks a crypto with the keyboard in the searchable list, and continues with the keyboard alone', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout>`,
    );
    const combo = shadowQuery<HTMLInputElement>(el, '#crypto-search');
    combo.focus();
    await sendKeys({ type: 'ether' });
    await el.updateComplete;
    expect(combo.getAttribute('aria-expanded')).to.equal('true');
    const options = await optionsOf(el, 'crypto-search');
    expect(options.length).to.be.greaterThan(0);
    expect(options.every((o) => /ether/i.test(o.textContent ?? ''))).to.equal(true);
    expect(
      options.every((o) => o.querySelector('img, .ico') && o.querySelector('.net')?.textContent),
    ).to.equal(true);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.crypto).to.match(/ETH/);
    expect(combo.getAttribute('aria-expanded')).to.equal('false');
    shadowQuery<HTMLInputElement>(el, '#fiat').focus();
    const quote = waitForEvent(el, 'checkout-quote');
    await sendKeys({ type: '75' });
    await quote;
    await el.updateComplete;
    // Tab past the crypto amount to the wallet field, then to the button, and Enter.
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 6 && el.shadowRoot!.activeElement !== shadowQuery(el, selector); i++) {
        await sendKeys({ press: 'Tab' });
      }
    };
    await tabTo('#wallet');
    await sendKeys({ type: '0x3333333333333333333333333333333333333333' });
    await tabTo('[part~="button"]');
    expect(el.shadowRoot!.activeElement).to.equal(shadowQuery(el, '[part~="button"]'));
    const order = waitForEvent(el, 'checkout-order');
    await sendKeys({ press: 'Enter' });
    expect((await order).detail.kind).to.equal('buy');
  });

  it('filters the country list as the shopper types ("ger"), and Enter picks Germany: its currency, methods and quote', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="GB" amount="100" locale="en"></crypto-checkout>`,
    );
    const british = await methodNames(el);
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    expect(country.getAttribute('role')).to.equal('combobox');
    expect(country.value).to.equal('United Kingdom');
    const shown = shadowQuery<HTMLImageElement>(el, '.combo-input img.flag');
    expect([flagCode(shown), shown.alt]).to.deep.equal(['GB', 'United Kingdom']);
    country.focus();
    // Escape closes the list and keeps the country.
    await sendKeys({ type: 'fra' });
    await el.updateComplete;
    expect(country.getAttribute('aria-expanded')).to.equal('true');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(country.getAttribute('aria-expanded')).to.equal('false');
    expect(country.value).to.equal('United Kingdom');
    expect(el.country).to.equal('GB');
    country.select();
    await sendKeys({ type: 'ger' });
    await el.updateComplete;
    const options = await optionsOf(el, 'country');
    const texts = options.map((o) => o.textContent!.trim());
    expect(texts[0]).to.equal('Germany');
    expect(flagCode(options[0]!.querySelector('img.flag'))).to.equal('DE');
    expect(texts.every((t) => /ger/i.test(t))).to.equal(true);
    expect(texts).to.not.include('United Kingdom');
    expect(country.getAttribute('aria-activedescendant')).to.equal(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).to.equal('true');
    await expect(el).to.be.accessible();
    const ready = waitForEvent(el, 'checkout-ready', { timeout: 8000 });
    const quote = waitForEvent(el, 'checkout-quote', {
      accept: (e) => e.detail.fiat.currency === 'EUR',
      timeout: 8000,
    });
    await sendKeys({ press: 'Enter' });
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'DE' });
    expect((await quote).detail.fiat.currency).to.equal('EUR');
    await el.updateComplete;
    expect(el.country).to.equal('DE');
    expect(country.value).to.equal('Germany');
    expect(country.getAttribute('aria-expanded')).to.equal('false');
    expect(shadowQuery<HTMLInputElement>(el, '#currency').value).to.equal('EUR · Euro');
    expect(await methodNames(el)).to.not.deep.equal(british);
  });

  it('shows the picked country at once while its catalog loads, and quotes only for it', async () => {
    const first = waitForEvent(document, 'checkout-quote', { timeout: 8000 });
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="100" locale="en"></crypto-checkout>`,
    );
    expect((await first).detail.fiat.currency).to.equal('EUR');
    const events = recordEvents(el, ['checkout-quote']);
    await typeInto(el, '#country', 'pola');
    const poland = (await optionsOf(el, 'country')).find((o) => o.textContent?.includes('Poland'));
    const ready = waitForEvent(el, 'checkout-ready', { timeout: 8000 });
    // Click and look within the same task: Poland's catalog cannot have arrived yet (the storefront test once
    // read "United States" after a click on "United Kingdom" when it had not).
    poland!.click();
    await el.updateComplete;
    expect(el.country).to.equal('PL');
    expect(shadowQuery(el, 'form').getAttribute('aria-busy')).to.equal('true');
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('Poland');
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'PL' });
    await waitUntil(() => events.events.length > 0, 'no quote for Poland', { timeout: 8000 });
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('Poland');
    expect(events.events.map((e) => e.detail.fiat.currency)).to.deep.equal(['PLN']);
  });

  it("says a quote that has just come is fresh in the element's language, then how old it is", async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="de"></crypto-checkout>`,
    );
    const quoted = waitForEvent(el, 'checkout-quote');
    await typeInto(el, '#fiat', '73');
    await quoted;
    await el.updateComplete;
    const fresh = () => shadowQuery(el, '.fresh').textContent;
    expect(fresh()).to.equal('Aktualisiert jetzt');
    // The age moves on each second while the quote is shown.
    await waitUntil(() => fresh() !== 'Aktualisiert jetzt', 'the age never moved', { timeout: 5000 });
    expect(fresh()).to.match(/^Aktualisiert vor \d+/);
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

/** The country code a flag image shows (`…/flags/de.svg` → `DE`), or ''. */
const flagCode = (img: Element | null | undefined) =>
  (img?.getAttribute('src')?.match(/\/flags\/([a-z]{2})\.svg$/)?.[1] ?? '').toUpperCase();

/**
 * The methods on offer, as elements holding each one's logo, name and terms: the radios of a short list, or the
 * options of the picker a long list collapses into (opened for the purpose, and left open).
 */
async function methodEntries(el: CryptoCheckout): Promise<Element[]> {
  const picker = el.shadowRoot!.querySelector<HTMLInputElement>('#method');
  if (!picker) return [...el.shadowRoot!.querySelectorAll('.method')];
  return openPicker(el, '#method');
}

/** The names of the methods on offer (closing a picker opened to read them). */
async function methodNames(el: CryptoCheckout): Promise<string[]> {
  const names = (await methodEntries(el)).map((m) => m.querySelector('span')!.textContent!);
  const picker = el.shadowRoot!.querySelector<HTMLInputElement>('#method');
  if (picker?.getAttribute('aria-expanded') === 'true') picker.click();
  await el.updateComplete;
  return names;
}

/** Opens a picker and returns its options as [icon text, the rest] (text with spaces collapsed); then closes it. */
async function pickerOptions(el: CryptoCheckout, selector: string): Promise<[string, string][]> {
  const input = shadowQuery<HTMLInputElement>(el, selector);
  const options = (await openPicker(el, selector)).map((o) => {
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    const icon =
      flagCode(o.querySelector('img.flag')) || (o.querySelector('[aria-hidden]')?.textContent ?? '');
    const text = o.textContent!.replace(o.querySelector('[aria-hidden]')?.textContent ?? '', '');
    return [icon, text.replace(/\s+/g, ' ').trim()] as [string, string];
  });
  input.click();
  await el.updateComplete;
  return options;
}

/** The page's requests whose URL contains `part`, started after `since` (Resource Timing). */
const requestsSince = (part: string, since: number) =>
  performance
    .getEntriesByType('resource')
    .filter((e): e is PerformanceResourceTiming => e.name.includes(part) && e.startTime >= since);

describe('time to first quote', () => {
  beforeEach(resetSandbox);

  it('sends the quote the attributes specify beside the catalog, and shows it once both are in', async () => {
    const since = performance.now();
    const seen: string[] = [];
    const ready = waitForEvent(document, 'checkout-ready', { timeout: 8000 }).then(() => seen.push('ready'));
    const quote = waitForEvent(document, 'checkout-quote', { timeout: 8000 }).then((e) => {
      seen.push('quote');
      return e.detail;
    });
    // FR: a catalog this page has not fetched before, so it comes over the network.
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="FR" fiat="EUR" crypto="BTC" payment-method="creditcard" amount="64" locale="en"></crypto-checkout>`,
    );
    const [, detail] = await Promise.all([ready, quote]);
    const [catalog] = requestsSince('/api/catalog', since);
    const quotes = requestsSince('/api/quotes/buy', since);
    expect(quotes).to.have.length(1);
    expect(quotes[0]!.startTime, 'quote request started before the catalog arrived').to.be.below(
      catalog!.responseEnd,
    );
    expect(seen).to.deep.equal(['ready', 'quote']);
    expect(detail.fiat).to.include({ currency: 'EUR', total: '64.00' });
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="quote"]').textContent).to.contain(`€${detail.fiat.total}`);
    expect(shadowQuery<HTMLInputElement>(el, '#crypto').value).to.equal(detail.crypto.amount);
  });

  it('shows the limit message instead of an early quote the catalog says is out of bounds', async () => {
    const events = recordEvents(document, ['checkout-quote', 'checkout-error']);
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="FR" fiat="EUR" crypto="BTC" payment-method="creditcard" amount="3" locale="en"></crypto-checkout>`,
    );
    // The early quote has been answered (or refused): had the element taken it, it would have said so by now.
    await internals(el)._head?.answer.catch(() => {});
    await el.updateComplete;
    events.stop();
    const { min } = await termsOf('FR', 'EUR', { method: 'creditcard' });
    expect(shadowQuery(el, '#amount-msg').textContent).to.equal(`Minimum: ${moneyEn(min!, 'EUR')}`);
    expect(el.shadowRoot!.querySelector('[part~="quote"] dl')!.textContent!.trim()).to.equal('');
    expect(events.events.map((e) => e.type)).to.deep.equal([]);
  });

  it('quotes at once after the catalog when nothing was typed (no debounce)', async () => {
    const since = performance.now();
    const quote = waitForEvent(document, 'checkout-quote', { timeout: 8000 });
    await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="DE" amount="52" locale="en"></crypto-checkout>`,
    );
    await quote;
    const [catalog] = requestsSince('/api/catalog', since);
    const [request] = requestsSince('/api/quotes/buy', since);
    expect(request!.startTime - catalog!.responseEnd).to.be.below(300);
  });

  it('sends a programmatic amount change at once', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="53" locale="en"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    const changed = performance.now();
    const next = waitForEvent(el, 'checkout-quote');
    el.amount = '54';
    expect((await next).detail.fiat.total).to.equal('54.00');
    const [request] = requestsSince('/api/quotes/buy', changed);
    expect(request!.startTime - changed).to.be.below(300);
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
    await waitUntil(() => el.shadowRoot!.querySelector('#fiat'), 'no amount fields', { timeout: 5000 });
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

describe('theming', () => {
  it('applies the public tokens and exposes stable parts', async () => {
    const el = await mountReady(
      html`<crypto-checkout
        mode="buy"
        country="DE"
        style="--checkout-accent: rgb(200, 0, 100); --checkout-radius: 3px; --checkout-surface: rgb(250, 240, 230); --checkout-font-family: serif"
      ></crypto-checkout>`,
    );
    const base = shadowQuery(el, '[part~="base"]');
    expect(getComputedStyle(base).backgroundColor).to.equal('rgb(250, 240, 230)');
    expect(getComputedStyle(base).borderTopLeftRadius).to.equal('3px');
    expect(getComputedStyle(base).fontFamily).to.equal('serif');
    expect(getComputedStyle(shadowQuery(el, '[part~="button"]')).backgroundColor).to.equal(
      'rgb(200, 0, 100)',
    );
    for (const part of ['base', 'form', 'quote', 'button'])
      expect(el.shadowRoot!.querySelector(`[part~="${part}"]`)).to.exist;
  });

  it('has light, dark and auto themes', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" theme="dark"></crypto-checkout>`,
    );
    const base = shadowQuery(el, '[part~="base"]');
    expect(getComputedStyle(base).backgroundColor).to.equal('rgb(24, 24, 27)');
    await expect(el).to.be.accessible();
    el.theme = 'light';
    await el.updateComplete;
    expect(getComputedStyle(base).backgroundColor).to.equal('rgb(255, 255, 255)');
    expect(el.getAttribute('theme')).to.equal('light');
  });

  it('follows the system in auto, stops the skeleton for reduced motion, and colours text and errors', async () => {
    await emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    try {
      const ready = waitForEvent(document, 'checkout-ready', { timeout: 8000 });
      const el = await fixture<CryptoCheckout>(
        html`<crypto-checkout mode="buy" country="DE" locale="en" theme="auto"
          style="--checkout-text: rgb(1, 2, 3); --checkout-danger: rgb(200, 1, 2)"></crypto-checkout>`,
      );
      expect(getComputedStyle(shadowQuery(el, '.skeleton i')).animationName).to.equal('none');
      await ready;
      await el.updateComplete;
      const base = shadowQuery(el, '[part~="base"]');
      expect(getComputedStyle(base).backgroundColor).to.equal('rgb(24, 24, 27)');
      expect(getComputedStyle(base).color).to.equal('rgb(1, 2, 3)');
      // Method logos: the upstream's variant for dark surfaces, only that one shown.
      const logo = (method: Element) =>
        [...method.querySelectorAll('img')].filter((img) => getComputedStyle(img).display !== 'none');
      const withVariant = (await methodEntries(el)).find((m) => m.querySelectorAll('img').length === 2)!;
      expect(logo(withVariant).map((img) => img.className)).to.deep.equal(['dk']);
      el.theme = 'light';
      await el.updateComplete;
      expect(logo(withVariant).map((img) => img.className)).to.deep.equal(['lt']);
      await typeInto(el, '#fiat', '3');
      expect(getComputedStyle(shadowQuery(el, '#amount-msg')).color).to.equal('rgb(200, 1, 2)');
    } finally {
      await emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
    }
  });

  it('honours [hidden]', async () => {
    const el = await mountReady(html`<crypto-checkout mode="buy" country="DE" hidden></crypto-checkout>`);
    expect(getComputedStyle(el).display).to.equal('none');
  });
});
