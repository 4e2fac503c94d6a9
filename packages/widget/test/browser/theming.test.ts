// The element's theming: the public tokens and parts, light, dark and auto, reduced motion, [hidden].
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import { shadowQuery, waitForEvent } from '../support.ts';
import { methodEntries, mountReady, typeInto } from './checkout-helpers.ts';

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
      const ready = waitForEvent(document, 'checkout-ready');
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
