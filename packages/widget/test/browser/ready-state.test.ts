// `checkout-ready` for a script that runs after the element's (a module script, an app's mount): the element's
// `readyState` and its `ready` promise say what the event said, whenever the script asks.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { recordEvents, resetSandbox, waitForEvent, waitUntil } from '../support.ts';

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
});
