// Buy's searchable pickers (crypto, country) with the keyboard, and a country shown at once while its catalog
// loads.
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { recordEvents, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { flagCode, methodNames, mountReady, optionsOf, typeInto } from './checkout-helpers.ts';

describe('buy: the pickers', () => {
  beforeEach(resetSandbox);

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

  it('moves between the payment methods with the arrow keys, the focused one with its focus ring', async () => {
    // The United States in euros: four methods, shown as radios.
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="US" fiat="EUR" amount="100" locale="en"></crypto-checkout>`,
    );
    const radios = [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('.method input[type="radio"]')];
    expect(radios).to.have.length(4);
    const ring = (radio: HTMLInputElement) => {
      const style = getComputedStyle(radio);
      return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    };
    const checked = radios.findIndex((r) => r.checked);
    radios[checked]!.focus();
    for (const [key, step] of [
      ['ArrowDown', 1],
      ['ArrowUp', -1],
    ] as const) {
      const from = radios.findIndex((r) => r.checked);
      const to = (from + step + radios.length) % radios.length;
      await sendKeys({ press: key });
      await el.updateComplete;
      await waitUntil(() => el.shadowRoot!.activeElement === radios[to], `${key} did not move the focus`);
      expect(radios[to]!.checked, `${key} picks the method`).to.equal(true);
      expect(ring(radios[to]!), `the focus ring after ${key}`).to.equal(true);
      expect(radios.filter((r) => r !== radios[to]).some(ring), 'a ring elsewhere').to.equal(false);
    }
  });

  it('selects a picked country’s text, so typing next replaces it ("fra" after Australia, never "Australiafra")', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="100" locale="en"></crypto-checkout>`,
    );
    const country = shadowQuery<HTMLInputElement>(el, '#country');
    const wholeSelected = () =>
      country.selectionStart === 0 && country.selectionEnd === country.value.length && country.value !== '';
    country.focus();
    await sendKeys({ type: 'austral' });
    expect((await optionsOf(el, 'country'))[0]!.textContent!.trim()).to.equal('Australia');
    const australia = waitForEvent(el, 'checkout-ready', { accept: (e) => e.detail.country === 'AU' });
    await sendKeys({ press: 'Enter' });
    await australia;
    await el.updateComplete;
    expect(country.value).to.equal('Australia');
    expect(el.shadowRoot!.activeElement).to.equal(country);
    await waitUntil(wholeSelected, 'the picked country’s text is not selected');
    await sendKeys({ type: 'fra' });
    await el.updateComplete;
    expect(country.value).to.equal('fra');
    expect((await optionsOf(el, 'country'))[0]!.textContent!.trim()).to.equal('France');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.country === 'FR', 'France was not picked');
    // Left and entered again (Tab away and back): the text is selected again.
    country.blur();
    country.focus();
    await waitUntil(wholeSelected, 'the country’s text is not selected on entering the field again');
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
    const ready = waitForEvent(el, 'checkout-ready');
    const quote = waitForEvent(el, 'checkout-quote', {
      accept: (e) => e.detail.fiat.currency === 'EUR',
    });
    await sendKeys({ press: 'Enter' });
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'DE', language: 'en' });
    expect((await quote).detail.fiat.currency).to.equal('EUR');
    await el.updateComplete;
    expect(el.country).to.equal('DE');
    expect(country.value).to.equal('Germany');
    expect(country.getAttribute('aria-expanded')).to.equal('false');
    expect(shadowQuery<HTMLInputElement>(el, '#currency').value).to.equal('EUR · Euro');
    expect(await methodNames(el)).to.not.deep.equal(british);
  });

  it('shows the picked country at once while its catalog loads, and quotes only for it', async () => {
    const first = waitForEvent(document, 'checkout-quote');
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="100" locale="en"></crypto-checkout>`,
    );
    expect((await first).detail.fiat.currency).to.equal('EUR');
    const events = recordEvents(el, ['checkout-quote']);
    await typeInto(el, '#country', 'pola');
    const poland = (await optionsOf(el, 'country')).find((o) => o.textContent?.includes('Poland'));
    const ready = waitForEvent(el, 'checkout-ready');
    // Click and look within the same task: Poland's catalog cannot have arrived yet (the storefront test once
    // read "United States" after a click on "United Kingdom" when it had not).
    poland!.click();
    await el.updateComplete;
    expect(el.country).to.equal('PL');
    expect(shadowQuery(el, 'form').getAttribute('aria-busy')).to.equal('true');
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('Poland');
    expect((await ready).detail).to.deep.equal({ mode: 'buy', country: 'PL', language: 'en' });
    await waitUntil(() => events.events.length > 0, 'no quote for Poland');
    await el.updateComplete;
    expect(shadowQuery<HTMLInputElement>(el, '#country').value).to.equal('Poland');
    expect(events.events.map((e) => e.detail.fiat.currency)).to.deep.equal(['PLN']);
  });
});
