// The payment or ramp page's modal from the keyboard: Escape closes it wherever focus is that the element can
// see (its dialog, the page around it, a payment page of its own origin, as the sandbox's is here), and focus
// then goes back to a control of the checkout, never to the top of the page.
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import { resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { mountReady } from './checkout-helpers.ts';

/** The element's focused control, through its shadow root. */
const focusedIn = (el: CryptoCheckout) => el.shadowRoot!.activeElement as HTMLElement | null;

/** Presses the main button from the keyboard, as a shopper who tabbed to it, and waits for the modal's page. */
async function openModal(
  el: CryptoCheckout,
): Promise<{ dialog: HTMLDialogElement; frame: HTMLIFrameElement }> {
  const button = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
  await waitUntil(() => !button.disabled, 'the main button stays disabled');
  button.focus();
  // Generous: the first order of a run meets a cold backend, on a machine busy with the other engines' runs.
  const order = waitForEvent(el, 'checkout-order', { timeout: 20000 });
  await sendKeys({ press: 'Enter' });
  await order;
  await el.updateComplete;
  const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog[part~="dialog"]');
  const frame = shadowQuery<HTMLIFrameElement>(el, 'dialog iframe');
  await waitUntil(() => frame.contentDocument?.querySelector('button, input'), 'the page never loaded', {
    timeout: 20000,
  });
  expect(dialog.open).to.equal(true);
  return { dialog, frame };
}

/** Moves focus onto the first control of the page in the frame. */
function focusInPage(el: CryptoCheckout, frame: HTMLIFrameElement): void {
  const control = frame.contentDocument!.querySelector<HTMLElement>('input, button')!;
  frame.contentWindow!.focus();
  control.focus();
  expect(frame.contentDocument!.activeElement).to.equal(control);
  expect(focusedIn(el)).to.equal(frame);
}

describe('the modal from the keyboard', () => {
  beforeEach(async () => {
    // A pay order another test left in flight would come back (this tab's sessionStorage, which WebKit's test
    // frames share), with "Open the payment page" where Pay should be.
    sessionStorage.clear();
    await resetSandbox();
  });

  it('pay: Escape in the payment page closes it, and focus goes to "Open the payment page", which opens it again', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="pay" product="ember-mug" display="modal"></crypto-checkout>`,
    );
    const { frame } = await openModal(el);
    focusInPage(el, frame);
    const closed = waitForEvent(el, 'checkout-close');
    await sendKeys({ press: 'Escape' });
    expect((await closed).detail).to.deep.equal({ reason: 'user' });
    // The Pay button that opened it is gone (the order's status took its place): the way back to the page has it.
    await waitUntil(() => focusedIn(el), 'focus fell out of the checkout');
    const focused = focusedIn(el)!;
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
    expect(focused.matches('[part~="button"]')).to.equal(true);
    expect(focused.textContent?.trim()).to.equal('Open the payment page');
    expect(document.activeElement).to.equal(el);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await waitUntil(
      () => el.shadowRoot!.querySelector<HTMLDialogElement>('dialog')?.open,
      'not opened again',
    );
  });

  it('buy: Escape in the ramp page, or with focus on the page around it, closes it; focus goes back to Continue', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" amount="61" display="modal" wallet-address="0x2222222222222222222222222222222222222222"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const continueButton = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
    const first = await openModal(el);
    focusInPage(el, first.frame);
    let closed = waitForEvent(el, 'checkout-close');
    await sendKeys({ press: 'Escape' });
    expect((await closed).detail).to.deep.equal({ reason: 'user' });
    await waitUntil(() => focusedIn(el), 'focus fell out of the checkout');
    expect(focusedIn(el)).to.equal(continueButton);

    // Again, with focus on nothing in particular (the page's body, as after a click on the backdrop).
    const second = await openModal(el);
    (el.shadowRoot!.activeElement as HTMLElement | null)?.blur();
    expect(second.dialog.open).to.equal(true);
    closed = waitForEvent(el, 'checkout-close');
    await sendKeys({ press: 'Escape' });
    expect((await closed).detail).to.deep.equal({ reason: 'user' });
    await waitUntil(() => focusedIn(el), 'focus fell out of the checkout');
    expect(focusedIn(el)).to.equal(continueButton);
  });
});
