// The element lays itself out wherever a merchant puts it: in a block, and in a box that sizes to its content.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.ts';
import type { CryptoCheckout } from '../../src/index.ts';
import { resetSandbox, waitForEvent } from '../support.ts';

describe('layout', () => {
  beforeEach(resetSandbox);

  it('keeps a usable width inside a shrink-to-fit box (inline-block, flex item)', async () => {
    for (const wrapper of ['display:inline-block', 'display:flex;align-items:flex-start']) {
      // Listening before the element is there: its quote may come before the frame `fixture` waits for (WebKit).
      const quote = waitForEvent(document, 'checkout-quote');
      const box = await fixture<HTMLDivElement>(
        html`<div style=${wrapper}><crypto-checkout mode="buy" country="DE" locale="en" amount="60"></crypto-checkout></div>`,
      );
      const el = box.querySelector('crypto-checkout') as CryptoCheckout;
      await quote;
      await el.updateComplete;
      expect(el.getBoundingClientRect().width, wrapper).to.be.greaterThan(300);
    }
  });

  it('fills the width of a block container', async () => {
    const box = await fixture<HTMLDivElement>(
      html`<div style="width:640px"><crypto-checkout mode="buy" country="DE" locale="en"></crypto-checkout></div>`,
    );
    const el = box.querySelector('crypto-checkout') as CryptoCheckout;
    await el.updateComplete;
    expect(el.getBoundingClientRect().width).to.equal(640);
  });
});
