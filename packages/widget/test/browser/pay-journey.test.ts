// The pay journey as a shopper sees it: the status reads as status (not a text field), the order in flight comes
// back after the Back button, the modal has a title and a frame as tall as the payment page says it is.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import { payOrder, resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady } from './checkout-helpers.ts';

const PRODUCT = 'ember-mug';

async function startPayment(el: CryptoCheckout): Promise<string> {
  const order = waitForEvent(el, 'checkout-order');
  shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
  const orderId = (await order).detail.orderId!;
  await el.updateComplete;
  return orderId;
}

describe('the pay journey', () => {
  beforeEach(resetSandbox);

  it('asks nothing the payment page asks: the shopper sees the product and one button', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    expect(el.shadowRoot!.querySelectorAll('input')).to.have.length(0);
    expect(shadowQuery(el, '[part~="button"]').textContent?.trim()).to.equal('Pay with crypto');
  });

  it('shows the status as a status: a live region with an icon and a tint, not a bordered box', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const orderId = await startPayment(el);
    const status = shadowQuery(el, '[part~="status"]');
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.getAttribute('aria-live')).to.equal('polite');
    expect(status.textContent).to.contain('Waiting for your payment');
    const waiting = getComputedStyle(status);
    const waitingColour = waiting.borderInlineStartColor;
    // A text input is boxed on all four sides; a status is a tinted band with a coloured edge.
    expect(waiting.borderTopWidth).to.equal('0px');
    expect(waiting.borderBottomWidth).to.equal('0px');
    expect(waiting.borderInlineStartWidth).to.equal('4px');
    expect(waiting.backgroundColor).to.not.equal('rgba(0, 0, 0, 0)');
    const icon = status.querySelector<HTMLElement>('.icon')!;
    expect(icon.getAttribute('aria-hidden')).to.equal('true');
    expect(icon.getBoundingClientRect().width).to.be.greaterThan(0);

    const completed = waitForEvent(el, 'checkout-complete');
    await payOrder(orderId);
    await completed;
    await el.updateComplete;
    const paid = shadowQuery(el, '[part~="status"]');
    expect(paid.textContent).to.contain('Paid. Thank you!');
    expect(getComputedStyle(paid.querySelector('.icon')!, '::before').content).to.equal('"✓"');
    // Paid reads in another colour than waiting.
    expect(getComputedStyle(paid).borderInlineStartColor).to.not.equal(waitingColour);
  });

  it('comes back after the Back button with the order in flight and its current status, until it ends', async () => {
    const first = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    const orderId = await startPayment(first);
    // Back (or a reload): the page, and with it the element, is built afresh in the same tab.
    first.remove();
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    await waitUntil(() => el.shadowRoot?.querySelector('[part~="status"]'), 'no order restored');
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Waiting for your payment');
    expect(el.shadowRoot!.textContent).to.not.contain('Pay with crypto');
    const resume = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
    expect(resume.textContent?.trim()).to.equal('Open the payment page');
    resume.click();
    // The page's code may still be on its way (a lazy part): the page shows once it is here.
    await waitUntil(() => el.shadowRoot?.querySelector('iframe'), 'the payment page did not open');
    expect(shadowQuery<HTMLIFrameElement>(el, 'iframe').src).to.contain('/pay/');

    // Paid meanwhile: the restored order follows the status to the end, then is forgotten.
    const completed = waitForEvent(el, 'checkout-complete');
    await payOrder(orderId);
    expect((await completed).detail).to.include({ orderId, status: 'paid' });
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Paid');
    el.remove();
    const fresh = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    expect(fresh.shadowRoot!.querySelector('[part~="status"]')).to.equal(null);
    expect(shadowQuery(fresh, '[part~="button"]').textContent?.trim()).to.equal('Pay with crypto');
  });

  it('forgets the order in flight when the shopper starts over', async () => {
    const first = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    await startPayment(first);
    first.remove();
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    await waitUntil(() => el.shadowRoot?.querySelector('.actions'), 'no order restored');
    const startOver = [...el.shadowRoot!.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Start over',
    )!;
    startOver.click();
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="button"]').textContent?.trim()).to.equal('Pay with crypto');
    el.remove();
    const again = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="inline"></crypto-checkout>`,
    );
    expect(again.shadowRoot!.querySelector('[part~="status"]')).to.equal(null);
  });

  it('titles the modal with what is paid and sizes the frame to the payment page', async () => {
    await setViewport({ width: 1280, height: 800 });
    try {
      const el = await mountReady(
        html`<crypto-checkout mode="pay" product=${PRODUCT} display="modal"></crypto-checkout>`,
      );
      await startPayment(el);
      const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog[part~="dialog"]');
      expect(dialog.open).to.equal(true);
      const titleId = dialog.getAttribute('aria-labelledby')!;
      const title = el.shadowRoot!.getElementById(titleId)!;
      // The price is isolated left to right (U+2066 … U+2069, invisible), so a right-to-left page keeps it whole.
      expect(title.textContent).to.equal('Ember Ceramic Mug · \u2066€18.50\u2069');
      expect(title.checkVisibility()).to.equal(true);
      // The page posts its height; the frame takes it, so the page's own button is not cut off.
      const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe');
      await waitUntil(() => frame.style.height, 'the page never said its height');
      const said = Number.parseInt(frame.style.height, 10);
      expect(said).to.be.greaterThan(200);
      const box = frame.getBoundingClientRect();
      expect(box.bottom).to.be.at.most(800);
      expect(dialog.getBoundingClientRect().bottom).to.be.at.most(800);
      // All of the page shows without scrolling inside the frame when the screen has room for it.
      expect(Math.abs(box.height - said), `frame ${box.height}px for a page of ${said}px`).to.be.below(2);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('shows the modal full-screen on a phone, and follows the screen as it turns', async () => {
    const box = (el: CryptoCheckout) => {
      const { left, top, width, height } = shadowQuery(el, 'dialog').getBoundingClientRect();
      return [left, top, width, height].map(Math.round);
    };
    const modal = html`<crypto-checkout mode="pay" product=${PRODUCT} display="modal"></crypto-checkout>`;
    try {
      // A modal seen on a wide screen, then gone: WebKit used to keep that screen's layout for the next element
      // mounted on the page once the screen had changed.
      await setViewport({ width: 1280, height: 800 });
      const wide = await mountReady(modal);
      const wideOrder = await startPayment(wide);
      expect(box(wide)[2]).to.equal(600);
      // Paid, so that the next element starts afresh rather than resuming this order.
      const paid = waitForEvent(wide, 'checkout-complete');
      await payOrder(wideOrder);
      await paid;
      wide.remove();
      await setViewport({ width: 390, height: 844 });
      const el = await mountReady(modal);
      await startPayment(el);
      expect(box(el)).to.deep.equal([0, 0, 390, 844]);
      // Turned to landscape (wider than a phone's 640 px): the centred modal; turned back, the whole screen.
      await setViewport({ width: 844, height: 390 });
      await waitUntil(() => box(el)[2] === 600, `landscape: ${box(el)}`);
      expect(box(el)[3]).to.be.at.most(390 - 24);
      await setViewport({ width: 390, height: 844 });
      await waitUntil(() => `${box(el)}` === '0,0,390,844', `portrait again: ${box(el)}`);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});
