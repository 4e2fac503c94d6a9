// `checkout-ready` for a script that runs after the element's (a module script, an app's mount): the element's
// `readyState` and its `ready` promise say what the event said, whenever the script asks.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { payEn } from '../../src/pay/pay.messages.ts';
import { holdFile, recordEvents, resetSandbox, waitForEvent, waitUntil } from '../support.ts';

describe('readyState and ready', () => {
  beforeEach(resetSandbox);

  it('says "loading" until the form shows, then "ready", and `ready` resolves with the event’s detail', async () => {
    const el = document.createElement('crypto-checkout');
    for (const [name, value] of Object.entries({ mode: 'buy', country: 'DE', amount: '50' }))
      el.setAttribute(name, value);
    const recorded = recordEvents(el, ['checkout-ready']);
    document.body.append(el);
    try {
      // Asked before anything is back: the promise waits for the form.
      expect(el.readyState).to.equal('loading');
      const detail = await el.ready;
      expect(el.readyState).to.equal('ready');
      expect(detail).to.deep.equal({ mode: 'buy', country: 'DE', language: 'en' });
      expect(recorded.events.map((e) => e.detail)).to.deep.equal([detail]);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('label[for="fiat"]'), 'the form shows').to.exist;
    } finally {
      el.remove();
    }
  });

  it('tells a listener added after `checkout-ready` fired what it said', async () => {
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="pay" product="ember-mug"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-ready');
    // A page script that runs only now: no event will come, the element says it is ready.
    expect(el.readyState).to.equal('ready');
    const detail = await el.ready;
    expect(detail.mode).to.equal('pay');
    expect(detail.product?.name).to.be.a('string');
  });

  it('goes back to "loading" while another mode’s view loads, and `ready` then waits for it', async () => {
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="buy" country="DE" amount="50"></crypto-checkout>`,
    );
    await el.ready;
    el.mode = 'sell';
    await el.updateComplete;
    expect(el.readyState).to.equal('loading');
    const next = el.ready;
    await waitUntil(() => el.readyState === 'ready', 'sell never showed');
    expect((await next).mode).to.equal('sell');
  });

  // The locale's words come in a chunk of their own (a language's table): the form and `checkout-ready` wait for it,
  // and where it cannot load, the element says English, as the form shows. Generous waits: WebKit on a loaded machine
  // takes seconds to fetch and compile the test's sources.
  const long = { timeout: 20_000 };

  /** A pay checkout in `locale`, with its events recorded. */
  function payIn(locale: string) {
    const el = document.createElement('crypto-checkout');
    for (const [name, value] of Object.entries({ mode: 'pay', product: 'ember-mug', locale }))
      el.setAttribute(name, value);
    const recorded = recordEvents(el, ['checkout-ready']);
    document.body.append(el);
    return { el, recorded };
  }

  /**
   * The product's answer is in and the element holds its announcement (the form is ready but for its words): the
   * one internal a test reads here, as nothing a shopper sees tells "the product came" from "it did not yet".
   */
  const announcementHeld = (el: HTMLElement) =>
    Boolean((el as unknown as { _pendingReady?: object })._pendingReady);

  it('waits for the locale’s words: nothing is announced or shown in English while the table is held back', async function () {
    this.timeout(60_000);
    await holdFile('internal/lang/sv.ts', 'hold');
    const { el, recorded } = payIn('sv-SE');
    try {
      await waitUntil(
        async () => (await holdFile('internal/lang/sv.ts', 'count')) > 0,
        'no request for sv',
        long,
      );
      await waitUntil(() => announcementHeld(el), 'the product never came', long);
      // The product is in, the words are not: still loading, no form in English.
      expect(recorded.events, 'checkout-ready before the words').to.have.length(0);
      expect(el.readyState).to.equal('loading');
      expect(el.language).to.equal('en');
      expect(el.shadowRoot!.querySelector('[part="button"]'), 'a form before its words').to.equal(null);
      await holdFile('internal/lang/sv.ts', 'release');
      const detail = await el.ready;
      expect(detail.language).to.equal('sv');
      expect(el.language).to.equal('sv');
      await el.updateComplete;
      const button = el.shadowRoot!.querySelector('[part="button"]');
      expect(button?.textContent?.trim()).to.be.a('string').and.not.equal(payEn.payCrypto);
      expect(el.shadowRoot!.querySelector('[part="base"]')?.getAttribute('lang')).to.equal('sv-SE');
      expect(recorded.events).to.have.length(1);
    } finally {
      await holdFile('internal/lang/sv.ts', 'release');
      el.remove();
    }
  });

  it('says English, and shows it, when the locale’s table cannot load', async function () {
    this.timeout(60_000);
    await holdFile('internal/lang/fi.ts', 'fail');
    const { el, recorded } = payIn('fi-FI');
    try {
      const detail = await el.ready;
      expect(await holdFile('internal/lang/fi.ts', 'count'), 'the table was asked for').to.be.greaterThan(0);
      expect(detail.language).to.equal('en');
      expect(el.language).to.equal('en');
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="button"]')?.textContent?.trim()).to.equal(payEn.payCrypto);
      expect(el.shadowRoot!.querySelector('[part="base"]')?.getAttribute('lang')).to.equal('en');
      expect(recorded.events).to.have.length(1);
    } finally {
      await holdFile('internal/lang/fi.ts', 'release');
      el.remove();
    }
  });
});
