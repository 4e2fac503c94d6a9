// Pay mode against the real backend on the sandbox: product and checkout token, the order made once, status
// followed to each outcome, the payment page shown and its messages trusted only from the right window.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { CryptoCheckout } from '../../src/index.ts';
import {
  backendInfo,
  cancelOrder,
  checkoutToken,
  expireOrder,
  messageArrives,
  messagesDelivered,
  otherOrigin,
  payOrder,
  recordEvents,
  resetSandbox,
  shadowQuery,
  waitForEvent,
} from '../support.ts';
import { captureNavigation, frameTimers, internals, mountReady, textOf } from './checkout-helpers.ts';

const PRODUCT = 'ember-mug';

/** How many orders the backend's ledger holds: every page of `GET /api/admin/orders`, followed by its cursor. */
async function adminOrderCount(): Promise<number> {
  const { adminToken } = await backendInfo();
  let count = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`/api/admin/orders?${query}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { orders: unknown[]; nextCursor: string | null };
    count += body.orders.length;
    cursor = body.nextCursor;
  } while (cursor);
  return count;
}

/** The order this tab keeps for the Back button (sessionStorage), with the status token the element follows it by. */
function keptOrder(): { orderId: string; statusToken: string } {
  const key = Object.keys(sessionStorage).find((name) => name.startsWith('crypto-checkout:pay:'));
  if (!key) throw new Error('no order kept in this tab');
  return JSON.parse(sessionStorage.getItem(key)!);
}

/** Resolves when the backend's status stream of the order (the one the element follows) says `status`. */
function statusStreamed(
  { orderId, statusToken }: ReturnType<typeof keptOrder>,
  status: string,
): Promise<void> {
  const url = `/api/orders/${encodeURIComponent(orderId)}/events?token=${encodeURIComponent(statusToken)}`;
  return new Promise((resolve) => {
    const source = new EventSource(url);
    source.addEventListener('status', (event) => {
      if ((JSON.parse((event as MessageEvent<string>).data) as { status: string }).status !== status) return;
      source.close();
      resolve();
    });
  });
}

describe('pay mode', () => {
  beforeEach(resetSandbox);

  it('shows a skeleton while loading, then the product as the backend states it', async () => {
    const ready = waitForEvent(document, 'checkout-ready');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="pay" product=${PRODUCT} locale="en"></crypto-checkout>`,
    );
    expect(el.shadowRoot!.querySelector('.skeleton')).to.exist;
    await expect(el).to.be.accessible();
    const event = await ready;
    expect(event.detail).to.deep.equal({
      mode: 'pay',
      language: 'en',
      product: { name: 'Ember Ceramic Mug', price: '18.50', currency: 'EUR' },
    });
    await el.updateComplete;
    expect(textOf(el)).to.contain('Ember Ceramic Mug').and.contain('€18.50');
    expect(shadowQuery(el, '[part~="button"]').textContent).to.contain('Pay with crypto');
    await expect(el).to.be.accessible();
  });

  it('shows an error for an unknown product, and emits checkout-error', async () => {
    const error = waitForEvent(document, 'checkout-error');
    const el = await fixture<CryptoCheckout>(
      html`<crypto-checkout mode="pay" product="no-such-thing"></crypto-checkout>`,
    );
    const { detail } = await error;
    expect(detail.code).to.equal('NOT_FOUND');
    expect(detail.retryable).to.equal(false);
    expect(detail.message).to.be.a('string').and.not.empty;
    await el.updateComplete;
    expect(shadowQuery(el, '[role="alert"]').textContent).to.contain(detail.message);
    await expect(el).to.be.accessible();
  });

  it('pays with a checkout token, showing what the token charges', async () => {
    const token = await checkoutToken({
      name: 'Token hoodie',
      price: '12.50',
      currency: 'EUR',
      expiresInSeconds: 600,
    });
    const el = await mountReady(
      html`<crypto-checkout mode="pay" checkout-token=${token} locale="de"></crypto-checkout>`,
    );
    expect(textOf(el))
      .to.contain('Token hoodie')
      .and.match(/12,50\s€/);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(detail).to.include({ kind: 'pay', amount: '12.50', currency: 'EUR' });
  });

  it('a double click makes one order, and the order is shown inline with its status', async () => {
    const before = await adminOrderCount();
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const events = recordEvents(el, ['checkout-order']);
    const button = shadowQuery<HTMLButtonElement>(el, '[part~="button"]');
    button.click();
    button.click();
    // The second press joined the first attempt: once that has settled, every order the presses made is made.
    await (internals(el)._view as { _payInFlight?: Promise<void> })._payInFlight;
    expect(events.of('checkout-order')).to.have.length(1);
    expect(await adminOrderCount()).to.equal(before + 1);
    const { detail } = events.of('checkout-order')[0]!;
    expect(detail.orderId).to.be.a('string');
    expect(detail.url).to.match(/^http/);
    expect(detail).to.not.have.property('statusToken');
    expect(JSON.parse(JSON.stringify(detail))).to.deep.equal(detail);
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe[part~="frame"]');
    expect(frame.src).to.equal(detail.url);
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Waiting for your payment');
    await expect(el).to.be.accessible();
  });

  for (const [kind, status] of [
    ['exact', 'paid'],
    ['overpaid', 'overpaid'],
  ] as const) {
    it(`follows the status to ${status}, emits checkout-status and checkout-complete, then goes to return-url`, async () => {
      const el = await mountReady(
        html`<crypto-checkout mode="pay" product=${PRODUCT} return-url="/thanks?ref=1"></crypto-checkout>`,
      );
      const navigations = captureNavigation(el);
      const timers = frameTimers(await internals(el)._loadFrame());
      const events = recordEvents(el, ['checkout-status', 'checkout-complete']);
      const order = waitForEvent(el, 'checkout-order');
      shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
      const orderId = (await order).detail.orderId!;
      // Listen before paying: the webhook and the status stream can finish before the pay control answers.
      const completed = waitForEvent(el, 'checkout-complete');
      await payOrder(orderId, kind);
      const complete = await completed;
      const returnUrl = new URL(`/thanks?ref=1&orderId=${orderId}&status=${status}`, location.href).href;
      expect(complete.detail).to.deep.equal({ kind: 'pay', orderId, status, returnUrl });
      const last = events.of('checkout-status').at(-1)!;
      expect(last.detail).to.include({ orderId, status, final: true });
      // The outcome shows for a moment before the page moves on: the payer sees it.
      expect(navigations).to.deep.equal([]);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
      const shown = shadowQuery(el, '[part~="status"]');
      expect(shown.className).to.contain(status);
      expect(shown.getAttribute('role')).to.equal('status');
      expect(shown.checkVisibility()).to.equal(true);
      await expect(el).to.be.accessible();
      // The page moves on once the outcome has been on screen for 1.5 s (the frame's timers, run here).
      const leave = timers.filter((timer) => timer.ms === 1500);
      expect(leave).to.have.length(1);
      expect(navigations).to.deep.equal([]);
      leave[0]!.work();
      expect(navigations).to.deep.equal([returnUrl]);
    });
  }

  it('stays when checkout-complete is cancelled, even after the moment the outcome is shown', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} return-url="/thanks"></crypto-checkout>`,
    );
    const navigations = captureNavigation(el);
    const timers = frameTimers(await internals(el)._loadFrame());
    el.addEventListener('checkout-complete', (e) => e.preventDefault());
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    const completed = waitForEvent(el, 'checkout-complete');
    await payOrder(orderId);
    expect((await completed).detail).to.include({ orderId, status: 'paid' });
    // Whatever the frame had still to do, done now: nothing of it leaves the page.
    for (const timer of timers) timer.work();
    expect(timers.filter((timer) => timer.ms === 1500)).to.deep.equal([]);
    expect(navigations).to.deep.equal([]);
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Paid. Thank you!');
  });

  it('follows the status by polling where server-sent events are not available', async () => {
    const { EventSource } = window;
    (window as { EventSource?: unknown }).EventSource = undefined;
    try {
      const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
      const order = waitForEvent(el, 'checkout-order');
      shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
      const orderId = (await order).detail.orderId!;
      const completed = waitForEvent(el, 'checkout-complete');
      await payOrder(orderId);
      expect((await completed).detail).to.include({ orderId, status: 'paid' });
      const asked = performance.getEntriesByType('resource').map((e) => e.name);
      expect(asked.filter((url) => url.includes(`/api/orders/${orderId}/events`))).to.deep.equal([]);
      expect(asked.filter((url) => url.endsWith(`/api/orders/${orderId}`)).length).to.be.greaterThan(0);
    } finally {
      window.EventSource = EventSource;
    }
  });

  it('switching to another mode abandons the payment: its later status is not reported', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const events = recordEvents(el, ['checkout-status', 'checkout-complete']);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    const kept = keptOrder();
    el.mode = 'buy';
    await el.updateComplete;
    const paid = statusStreamed(kept, 'paid');
    await payOrder(orderId);
    // The backend has streamed `paid` to whoever follows the order: had the element still followed it, it would
    // have heard it too by the end of one more round trip.
    await paid;
    await fetch('/healthz');
    await el.updateComplete;
    expect(events.of('checkout-complete')).to.deep.equal([]);
    expect(events.of('checkout-status').filter((e) => e.detail.status === 'paid')).to.deep.equal([]);
  });

  it('shows underpaid without ending the checkout', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const events = recordEvents(el, ['checkout-complete']);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    const underpaid = waitForEvent(el, 'checkout-status', {
      accept: (e) => e.detail.status === 'underpaid',
    });
    await payOrder(orderId, 'underpaid');
    expect((await underpaid).detail).to.include({ orderId, status: 'underpaid', final: false });
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('Partly paid');
    expect(el.shadowRoot!.querySelector('iframe')).to.exist;
    expect(events.events).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('shows expired with a way to start again, as a new order', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    const complete = waitForEvent(el, 'checkout-complete');
    await expireOrder(orderId);
    expect((await complete).detail).to.deep.equal({ kind: 'pay', orderId, status: 'expired' });
    await el.updateComplete;
    expect(shadowQuery(el, '[part~="status"]').textContent).to.contain('This payment expired.');
    await expect(el).to.be.accessible();
    shadowQuery<HTMLButtonElement>(el, '[part~="status"] button').click();
    await el.updateComplete;
    const again = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    expect((await again).detail.orderId).to.not.equal(orderId);
  });

  it('shows cancelled (not failed) when the order is cancelled, emits checkout-status, and offers to try again', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    const failed = waitForEvent(el, 'checkout-status', {
      accept: (e) => e.detail.status === 'cancelled',
    });
    const complete = waitForEvent(el, 'checkout-complete');
    await cancelOrder(orderId);
    expect((await failed).detail).to.deep.equal({ orderId, status: 'cancelled', final: true });
    expect((await complete).detail).to.deep.equal({ kind: 'pay', orderId, status: 'cancelled' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    const shown = shadowQuery(el, '[part~="status"]');
    expect(shown.className).to.contain('cancelled');
    expect(shown.textContent).to.contain('This payment was cancelled.');
    expect(shown.textContent).to.not.contain('failed');
    await expect(el).to.be.accessible();
    const retry = shadowQuery<HTMLButtonElement>(el, '[part~="status"] button');
    expect(retry.textContent).to.equal('Try again');
    retry.click();
    await el.updateComplete;
    const again = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    expect((await again).detail.orderId).to.not.equal(orderId);
  });

  it('sends the whole page to the payment page with display="redirect", and "auto" picks by width', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="pay" product=${PRODUCT} display="redirect"></crypto-checkout>`,
    );
    const navigations = captureNavigation(el);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { detail } = await order;
    expect(navigations).to.deep.equal([detail.url]);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);

    await setViewport({ width: 400, height: 800 });
    try {
      // Each element below is a new shopper: not the order this tab keeps in flight for the Back button.
      sessionStorage.clear();
      const narrow = await mountReady(
        html`<crypto-checkout mode="pay" product=${PRODUCT} display="auto"></crypto-checkout>`,
      );
      const went = captureNavigation(narrow);
      const narrowOrder = waitForEvent(narrow, 'checkout-order');
      shadowQuery<HTMLButtonElement>(narrow, '[part~="button"]').click();
      expect(went).to.deep.equal([]);
      await narrowOrder;
      expect(went).to.have.length(1);
      await setViewport({ width: 1000, height: 800 });
      sessionStorage.clear();
      const wide = await mountReady(
        html`<crypto-checkout mode="pay" product=${PRODUCT} display="auto"></crypto-checkout>`,
      );
      const wideOrder = waitForEvent(wide, 'checkout-order');
      shadowQuery<HTMLButtonElement>(wide, '[part~="button"]').click();
      await wideOrder;
      await wide.updateComplete;
      expect(shadowQuery<HTMLDialogElement>(wide, 'dialog[part~="dialog"]').open).to.equal(true);
      await expect(wide).to.be.accessible();
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('can be completed with the keyboard alone', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const button = shadowQuery(el, '[part~="button"]');
    // Name and e-mail are asked once, on the payment page: here the first stop is the button.
    expect(el.shadowRoot!.querySelector('input'), 'no field of its own').to.equal(null);
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(button);
    expect(getComputedStyle(button).outlineStyle, 'a visible focus ring').to.equal('solid');
    const order = waitForEvent(el, 'checkout-order');
    await sendKeys({ press: 'Enter' });
    expect((await order).detail.orderId).to.be.a('string');
  });

  it('ignores messages from another origin or another window, and accepts the return page in its frame', async () => {
    const el = await mountReady(html`<crypto-checkout mode="pay" product=${PRODUCT}></crypto-checkout>`);
    const events = recordEvents(el, ['checkout-complete']);
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const orderId = (await order).detail.orderId!;
    await el.updateComplete;
    const message = { type: 'crypto-checkout:return', orderId, status: 'paid' };

    // Right origin, wrong window: this page itself.
    window.postMessage(message, location.origin);
    await messagesDelivered();
    // Wrong origin: a page on the other origin posting to this one, then a marker: messages from one window
    // arrive in the order they were posted, so once the marker is here, the element has had (and ignored) it.
    const marker = `test:after:${Math.random()}`;
    const other = document.createElement('iframe');
    other.src = `${otherOrigin()}/packages/widget/test/browser/fixtures/post-message.html#${encodeURIComponent(JSON.stringify([message, marker]))}`;
    const delivered = messageArrives(marker);
    document.body.append(other);
    await delivered;
    other.remove();
    expect(events.of('checkout-complete')).to.have.length(0);

    // The frame goes to the backend's return route, whose page posts to us from the api origin.
    const complete = waitForEvent(el, 'checkout-complete');
    shadowQuery<HTMLIFrameElement>(el, 'iframe').src = `/api/orders/${orderId}/return`;
    const { detail } = await complete;
    expect(detail.orderId).to.equal(orderId);
    expect(internals(el)._frame?.url).to.equal('');
  });
});
