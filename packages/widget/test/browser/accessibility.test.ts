// What the accessibility conformance report (docs/accessibility/conformance-report.md) cites beyond the other files'
// checks: axe (colour contrast included) on every mode in the dark theme, and every control named in every language
// the element speaks.
import { expect, html } from '@open-wc/testing';
import type { CryptoCheckout } from '../../src/index.ts';
import { LANGUAGES } from '../../src/languages/languages.ts';
import { customerToken, resetSandbox, shadowQuery, waitUntil } from '../support.ts';
import { mountReady } from './checkout-helpers.ts';

/** A control's accessible name as the element gives it: its label's words, its aria-label, or its own text. */
function nameOf(control: HTMLElement): string {
  const labelled = (control as HTMLInputElement).labels?.[0]?.textContent;
  return (labelled ?? control.getAttribute('aria-label') ?? control.textContent ?? '').trim();
}

/** Every control the shopper can reach (fields, buttons, pickers' lists) with an empty name. */
function unnamed(el: CryptoCheckout): string[] {
  const controls = [
    ...el.shadowRoot!.querySelectorAll<HTMLElement>('input, textarea, button, [role="listbox"], img[alt]'),
  ];
  return controls
    .filter((c) => !c.closest('[hidden]') && (c.localName !== 'img' || c.getAttribute('alt') !== ''))
    .filter((c) => (c.localName === 'img' ? !c.getAttribute('alt')?.trim() : !nameOf(c)))
    .map((c) => c.outerHTML.slice(0, 80));
}

describe('accessibility', () => {
  beforeEach(async () => {
    sessionStorage.clear();
    await resetSandbox();
  });

  it('axe finds nothing in each mode in the dark theme, colour contrast included', async () => {
    const token = await customerToken({ customerId: 'a11y-dark' });
    for (const template of [
      html`<crypto-checkout mode="buy" country="DE" amount="100" theme="dark" locale="en"></crypto-checkout>`,
      html`<crypto-checkout mode="sell" country="DE" amount="100" theme="dark" locale="en"></crypto-checkout>`,
      html`<crypto-checkout mode="pay" product="ember-mug" theme="dark" locale="en"></crypto-checkout>`,
      html`<crypto-checkout mode="deposit" customer-token=${token} theme="dark" locale="en"></crypto-checkout>`,
    ]) {
      const el = await mountReady(template, 15000);
      if (el.mode === 'deposit')
        await waitUntil(() => el.shadowRoot!.querySelector('#address'), 'no address');
      expect(getComputedStyle(shadowQuery(el, '.base')).colorScheme).to.equal('dark');
      await expect(el, el.mode).to.be.accessible();
    }
  });

  it('names every control in every language the element speaks (buy and deposit forms)', async function () {
    this.timeout(120000);
    const token = await customerToken({ customerId: 'a11y-names' });
    const buy = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="100" locale="en"></crypto-checkout>`,
      15000,
    );
    const deposit = await mountReady(
      html`<crypto-checkout mode="deposit" customer-token=${token} locale="en"></crypto-checkout>`,
      15000,
    );
    await waitUntil(() => deposit.shadowRoot!.querySelector('#address'), 'no address');
    expect(LANGUAGES.length).to.be.greaterThan(5);
    const english = nameOf(shadowQuery(buy, '#fiat'));
    for (const language of LANGUAGES) {
      for (const el of [buy, deposit]) {
        el.locale = language;
        await el.updateComplete;
        expect(unnamed(el), `${language} ${el.mode}`).to.deep.equal([]);
      }
      // The words are the language's: the amount field's label is not the English one (but in English).
      if (language !== 'en')
        expect(nameOf(shadowQuery(buy, '#fiat')), `${language}: the amount's label`).to.not.equal(english);
    }
  });
});
