// Ids are unique within each mode's shadow root (a label's `for` must find the one control it names), every
// amount field is named by its own label, and axe runs with all its rules.
import { expect, html } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { customerToken, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady } from './checkout-helpers.ts';

function duplicateIds(el: CryptoCheckout): string[] {
  const ids = [...el.shadowRoot!.querySelectorAll('[id]')].map((node) => node.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

/** The text of the labels of the control with this id (what a screen reader announces as its name). */
const labelOf = (el: CryptoCheckout, id: string) =>
  [...(shadowQuery<HTMLInputElement>(el, `#${id}`).labels ?? [])].map((l) => l.textContent).join(' ');

describe('ids and labels', () => {
  beforeEach(resetSandbox);

  for (const [mode, fiatLabel, cryptoLabel] of [
    ['buy', 'You pay (EUR)', 'You get (USDC)'],
    ['sell', 'You get (EUR)', 'You sell (USDC)'],
  ] as const) {
    it(`${mode}: no duplicate id, each amount field named by its own label`, async () => {
      const el = await mountReady(
        html`<crypto-checkout mode=${mode} country="DE" locale="en" amount="60"></crypto-checkout>`,
      );
      await waitForEvent(el, 'checkout-quote');
      await el.updateComplete;
      expect(duplicateIds(el)).to.deep.equal([]);
      expect(labelOf(el, 'fiat')).to.equal(fiatLabel);
      expect(labelOf(el, 'crypto')).to.equal(cryptoLabel);
      expect(labelOf(el, 'currency')).to.equal('Currency');
      for (const label of el.shadowRoot!.querySelectorAll('label[for]'))
        expect(el.shadowRoot!.querySelectorAll(`#${label.getAttribute('for')}`)).to.have.length(1);
      await expect(el).to.be.accessible();
    });
  }

  it('pay and deposit: no duplicate id', async () => {
    const pay = await mountReady(
      html`<crypto-checkout mode="pay" product="ember-mug" locale="en"></crypto-checkout>`,
    );
    expect(duplicateIds(pay)).to.deep.equal([]);
    const token = await customerToken({ customerId: 'cust-ids' });
    const deposit = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="en"></crypto-checkout>`,
    );
    await waitUntil(() => deposit.shadowRoot!.querySelector('#address'), 'no address');
    expect(duplicateIds(deposit)).to.deep.equal([]);
  });
});
