// Buy's ramp page: Continue signs a session and shows its page (inline with the summary line, or in a modal),
// and the page's success ends the checkout.
import { expect, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { resetSandbox, shadowQuery, waitForEvent, waitUntil } from '../support.ts';
import { captureNavigation, mountReady } from './checkout-helpers.ts';

describe('buy: the ramp page', () => {
  beforeEach(resetSandbox);

  it('Continue opens the signed ramp session inline, and the ramp page may close it', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="60" wallet-address="0x1111111111111111111111111111111111111111"></crypto-checkout>`,
    );
    expect(shadowQuery<HTMLInputElement>(el, '#fiat').value).to.equal('60');
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(detail.kind).to.equal('buy');
    expect(detail.url).to.match(/^http/);
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe[part~="frame"]');
    expect(frame.src).to.equal(detail.url);
    await waitUntil(() => frame.contentDocument?.getElementById('close'), 'ramp page not loaded');
    await expect(el).to.be.accessible();
    const close = waitForEvent(el, 'checkout-close');
    (frame.contentDocument!.getElementById('close') as HTMLButtonElement).click();
    expect((await close).detail).to.deep.equal({ reason: 'page' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('ends with checkout-complete when the ramp page reports the purchase, then goes to return-url', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="63" return-url="/done"
        wallet-address="0x5555555555555555555555555555555555555555"></crypto-checkout>`,
    );
    const navigations = captureNavigation(el);
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    await waitForEvent(el, 'checkout-order');
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe');
    const page = () => frame.contentDocument!;
    // Loaded, its script has run: a Continue clicked before would submit the form itself (WebKit, once in ten runs).
    await waitUntil(
      () => page().readyState === 'complete' && page().getElementById('amount-form'),
      'ramp page not loaded',
    );
    await waitUntil(
      () => !(page().getElementById('continue') as HTMLButtonElement).disabled,
      'no ramp quote',
    );
    (page().getElementById('continue') as HTMLButtonElement).click();
    // Continue may load the page's next document: until it has, neither step is there to read.
    const shown = (id: string) => page().getElementById(id)?.hidden === false;
    await waitUntil(() => shown('step-LOGIN_EMAIL') || shown('step-PAYMENT'), 'no next step');
    if (shown('step-LOGIN_EMAIL')) {
      (page().getElementById('email') as HTMLInputElement).value = 'shopper@example.com';
      (page().getElementById('email-form') as HTMLFormElement).requestSubmit();
    }
    await waitUntil(() => shown('step-PAYMENT'), 'no payment step');
    const complete = waitForEvent(el, 'checkout-complete');
    (page().getElementById('pay') as HTMLButtonElement).click();
    const { detail } = await complete;
    expect(detail.kind).to.equal('buy');
    expect(detail.status).to.equal('completed');
    expect(detail.orderId).to.be.a('string');
    // "Done" shows for a moment before the page moves on.
    expect(navigations).to.have.length(0);
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Done');
    await waitUntil(() => navigations.length, 'never went to return-url');
    expect(navigations).to.have.length(1);
    expect(navigations[0]).to.equal(detail.returnUrl);
    expect(new URL(navigations[0]!).searchParams.get('orderId')).to.equal(detail.orderId);
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Done');
  });

  it('shows the ramp page in a modal dialog that Esc closes', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="61" display="modal" wallet-address="0x2222222222222222222222222222222222222222"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    await waitForEvent(el, 'checkout-order');
    await el.updateComplete;
    const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog[part~="dialog"]');
    expect(dialog.open).to.equal(true);
    const frame = dialog.querySelector<HTMLIFrameElement>('iframe[part~="frame"]');
    expect(frame).to.exist;
    // The shopper presses Esc once the page is there: its script focuses its own first field as it runs, which
    // on a loaded machine can come after the dialog's button was focused below, and keys in the page stay there.
    await waitUntil(
      () =>
        frame!.contentDocument?.readyState === 'complete' &&
        frame!.contentDocument.getElementById('amount-form'),
      'ramp page not loaded',
    );
    await expect(el).to.be.accessible();
    const close = waitForEvent(el, 'checkout-close');
    // Keys pressed inside the framed page stay there; from the dialog's own controls Esc closes it.
    shadowQuery<HTMLButtonElement>(el, 'dialog .close').focus();
    await sendKeys({ press: 'Escape' });
    expect((await close).detail).to.deep.equal({ reason: 'user' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('dialog')).to.equal(null);
  });
});
