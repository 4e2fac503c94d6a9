// The ramp's dead ends (issue 15): each has a way out the shopper can see and take, against the real backend.
import { expect, html, waitUntil } from '@open-wc/testing';
import { resetSandbox, shadowQuery, waitForEvent } from '../support.ts';
import { mountReady, typeInto } from './checkout-helpers.ts';

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
});
