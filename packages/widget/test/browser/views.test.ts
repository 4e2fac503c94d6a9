// Each mode's view on its own: an element loads the code of its mode's view only, a mode switch loads the next
// view once, and on a phone the buy and sell views keep the amount, the quote and Continue in sight.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { MODES } from '../../src/modes.ts';
import { customerToken, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady, openPicker, typeInto } from './checkout-helpers.ts';

/** How many times this page fetched the view module `name` (src/<folder>/<name>.ts). */
const loads = (name: string) =>
  performance
    .getEntriesByType('resource')
    .filter((e) => new RegExp(`/src/\\w+/${name}\\.ts$`).test(new URL(e.name).pathname)).length;
const viewsLoaded = () => [...Object.keys(MODES), 'ramp-view'].filter((name) => loads(name) > 0);

describe('views', () => {
  beforeEach(resetSandbox);

  it('loads the view of its mode only, and a mode switch loads the next view once', async () => {
    // This file's page has loaded no view yet.
    expect(viewsLoaded()).to.deep.equal([]);
    const el = await mountReady(
      html`<crypto-checkout mode="pay" product="ember-mug" locale="en"></crypto-checkout>`,
    );
    expect(shadowQuery(el, '.product .name').textContent).to.equal('Ember Ceramic Mug');
    expect(viewsLoaded()).to.deep.equal(['pay']);
    const token = await customerToken({ customerId: 'cust-views' });
    el.customerToken = token;
    const ready = waitForEvent(el, 'checkout-ready');
    el.mode = 'deposit';
    await ready;
    await waitUntil(() => el.shadowRoot!.querySelector('#address'), 'no address');
    expect(viewsLoaded()).to.deep.equal(['pay', 'deposit']);
    const again = waitForEvent(el, 'checkout-ready');
    el.mode = 'pay';
    await again;
    await el.updateComplete;
    // The pay view's code was there already: fetched once.
    expect(shadowQuery(el, '.product .name').textContent).to.equal('Ember Ceramic Mug');
    expect(loads('pay')).to.equal(1);
    expect(viewsLoaded()).to.deep.equal(['pay', 'deposit']);
  });

  it('buy and sell share the ramp view, and keep nothing of pay', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="sell" country="DE" locale="en"></crypto-checkout>`,
    );
    expect(shadowQuery(el, 'label[for="crypto"]').textContent).to.equal('You sell (USDC)');
    expect(loads('sell')).to.equal(1);
    expect(loads('ramp-view')).to.equal(1);
    const ready = waitForEvent(el, 'checkout-ready');
    el.mode = 'buy';
    await ready;
    await el.updateComplete;
    expect(shadowQuery(el, 'label[for="fiat"]').textContent).to.equal('You pay (EUR)');
    expect(loads('ramp-view')).to.equal(1);
  });
});

describe('a shopper on a phone (390 px)', () => {
  beforeEach(resetSandbox);

  /** The element in a 390 px wide page column, once its first quote shows. */
  async function onPhone(country: string, fiat = '') {
    const quote = waitForEvent(document, 'checkout-quote');
    const box = await fixture<HTMLDivElement>(
      html`<div style="width:390px"><crypto-checkout mode="buy" country=${country} fiat=${fiat} amount="100" locale="en"></crypto-checkout></div>`,
    );
    await quote;
    const el = box.querySelector('crypto-checkout') as CryptoCheckout;
    await el.updateComplete;
    return el;
  }

  /** Where a part of the element ends, in px from the element's top. */
  const bottomOf = (el: CryptoCheckout, selector: string) =>
    shadowQuery(el, selector).getBoundingClientRect().bottom - el.getBoundingClientRect().top;

  it('collapses more than four payment methods into a picker, the default first, and shows Continue in sight', async () => {
    const el = await onPhone('DE');
    expect(el.shadowRoot!.querySelectorAll('.method')).to.have.length(0);
    const picker = shadowQuery<HTMLInputElement>(el, '#method');
    expect(picker.getAttribute('role')).to.equal('combobox');
    expect(picker.labels![0]!.textContent).to.equal('Payment method');
    const shown = picker.value;
    const options = await openPicker(el, '#method');
    expect(options.length).to.be.greaterThan(4);
    expect(options[0]!.querySelector('span')!.textContent, 'the default first').to.equal(shown);
    picker.click();
    await el.updateComplete;
    // A phone's screen (844 px) holds the amount, the quote and Continue, with room for the shop's header.
    expect(bottomOf(el, '[part~="button"]')).to.be.below(700);
    expect(bottomOf(el, '#fiat')).to.be.below(bottomOf(el, '[part~="quote"]'));
    await expect(el).to.be.accessible();
    // Another method from the picker: a quote for it.
    const next = waitForEvent(el, 'checkout-quote');
    (await openPicker(el, '#method'))[1]!.click();
    expect((await next).detail.paymentMethod).to.not.equal(undefined);
    expect(el.paymentMethod).to.not.equal('');
  });

  it('keeps four methods as radios, only the picked one with its fees', async () => {
    // The United States with euros: the four methods that take them.
    const el = await onPhone('US', 'EUR');
    const methods = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.method')];
    expect(methods).to.have.length(4);
    const terms = methods.map((m) => getComputedStyle(m.querySelector('small')!).display !== 'none');
    expect(terms).to.deep.equal([true, false, false, false]);
    // The whole form, the wallet field included, fits a phone's screen (844 px).
    expect(bottomOf(el, '[part~="button"]')).to.be.below(844);
  });
});

describe('an address on a phone (390 × 844), whole in every engine', () => {
  beforeEach(resetSandbox);
  before(() => setViewport({ width: 390, height: 844 }));
  after(() => setViewport({ width: 800, height: 600 }));

  /** A field shows all its text: nothing scrolled out of sight, in more than one line where it wraps. */
  function expectWhole(field: HTMLTextAreaElement) {
    const lineHeight = Number.parseFloat(getComputedStyle(field).lineHeight);
    expect(field.scrollHeight, 'the field has text').to.be.greaterThan(0);
    expect(
      field.clientHeight,
      `${field.id}: client ${field.clientHeight}, scroll ${field.scrollHeight}`,
    ).to.be.at.least(field.scrollHeight);
    return Math.round((field.clientHeight - 16) / lineHeight);
  }

  it('grows the wallet field with what is typed: a 42-character address whole, wrapped', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="100" locale="en"></crypto-checkout>`,
    );
    const wallet = shadowQuery<HTMLTextAreaElement>(el, '#wallet');
    expect(expectWhole(wallet), 'empty: one line').to.equal(1);
    // Typed as the other fields' tests type (value and input event): under a loaded CI run WebKitWebDriver once
    // lost the first of 42 keys sent to a just-focused field (the keyboard path is the picker tests').
    await typeInto(el, '#wallet', '0x2222222222222222222222222222222222222222');
    expect(wallet.value).to.have.length(42);
    expect(expectWhole(wallet), 'two lines at 390 px').to.equal(2);
    // Shortened again: it shrinks back.
    await typeInto(el, '#wallet', '0x22');
    expect(expectWhole(wallet)).to.equal(1);
    // iOS Safari zooms into a field under 16px on focus.
    expect(Number.parseFloat(getComputedStyle(wallet).fontSize)).to.be.at.least(16);
  });

  it('shows the deposit address whole', async () => {
    const token = await customerToken({ customerId: 'cust-phone' });
    const el = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="en"></crypto-checkout>`,
    );
    await waitUntil(() => el.shadowRoot!.querySelector<HTMLTextAreaElement>('#address')?.value, 'no address');
    await el.updateComplete;
    const address = shadowQuery<HTMLTextAreaElement>(el, '#address');
    expect(address.value.length).to.be.at.least(26);
    expect(expectWhole(address)).to.be.at.least(1);
    expect(Number.parseFloat(getComputedStyle(address).fontSize)).to.be.at.least(16);
  });
});
