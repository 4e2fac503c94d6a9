// The frame controller: the new-tab offer when a framed page shows no sign of life, and messages accepted only
// from the expected origin and that frame's own window.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement, nothing } from 'lit';
import { FrameController, type FrameMessage } from '../../src/frame/frame-controller.ts';
import {
  addFault,
  messagesDelivered,
  otherOrigin,
  resetSandbox,
  shadowQuery,
  waitForEvent,
  waitUntil,
} from '../support.ts';
import { internals, mountReady } from './checkout-helpers.ts';

class FrameHost extends LitElement {
  messages: FrameMessage[] = [];
  frame = new FrameController(
    this,
    (m) => this.messages.push(m),
    () => {},
    400,
  );
  override render() {
    return this.frame.url
      ? html`<iframe title="t" src=${this.frame.url} @load=${this.frame.onLoad}></iframe>`
      : nothing;
  }
}
customElements.define('frame-host', FrameHost);

const fixturePage = (origin: string, name: string, message?: object) =>
  `${origin}/packages/widget/test/browser/fixtures/${name}.html${message ? `#${encodeURIComponent(JSON.stringify(message))}` : ''}`;

describe('frame controller', () => {
  it('offers a new tab when a cross-origin frame never speaks', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    const other = otherOrigin();
    host.frame.open(fixturePage(other, 'silent'), [other], 'inline');
    await host.updateComplete;
    expect(host.frame.state).to.equal('loading');
    await waitUntil(() => host.frame.state === 'fallback', 'no fallback');
  });

  it('accepts the first message from the expected origin and that frame', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    const other = otherOrigin();
    host.frame.open(fixturePage(other, 'post-message', { type: 'SWAPPED_READY' }), [other], 'inline');
    await waitUntil(() => host.messages.length === 1, 'no message');
    expect(host.messages[0]).to.deep.equal({ type: 'SWAPPED_READY' });
    expect(host.frame.state).to.equal('ready');
  });

  it('ignores a message from an origin it does not expect', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    const other = otherOrigin();
    host.frame.open(
      fixturePage(other, 'post-message', { type: 'SWAPPED_READY' }),
      [location.origin],
      'inline',
    );
    await waitUntil(() => host.frame.state === 'fallback', 'no fallback');
    expect(host.messages).to.deep.equal([]);
  });

  it('sizes the frame to the height the page posts (SWAPPED_RESIZE), only from the expected origin', async () => {
    const other = otherOrigin();
    const resize = { type: 'SWAPPED_RESIZE', height: 700.4 };
    const trusted = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    trusted.frame.open(fixturePage(other, 'post-message', resize), [other], 'inline');
    await waitUntil(() => trusted.frame.state === 'ready', 'no message');
    expect(trusted.frame.height).to.equal(701);
    // The height is the controller's: the page's other messages are what the host is told of.
    expect(trusted.messages).to.deep.equal([]);

    const foreign = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    foreign.frame.open(fixturePage(other, 'post-message', resize), [location.origin], 'inline');
    await waitUntil(() => foreign.frame.state === 'fallback', 'no fallback');
    expect(foreign.frame.height).to.equal(undefined);
  });

  it('ignores a message from the right origin but another window', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    host.frame.open(fixturePage(location.origin, 'silent'), [location.origin], 'inline');
    window.postMessage({ type: 'SWAPPED_READY' }, location.origin);
    await messagesDelivered();
    expect(host.messages).to.deep.equal([]);
  });

  it('refuses to show anything but a web page', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    for (const url of ['javascript:alert(1)', 'data:text/html,<p>hi</p>', '//evil.example/pay'])
      for (const display of ['inline', 'redirect'] as const)
        expect(() => host.frame.open(url, [location.origin], display), url).to.throw(TypeError);
    expect(host.frame.url).to.equal('');
  });

  it('counts a readable same-origin page as loaded', async () => {
    const host = await fixture<FrameHost>(html`<frame-host></frame-host>`);
    host.frame.open(fixturePage(location.origin, 'silent'), [location.origin], 'inline');
    await waitUntil(() => host.frame.state === 'ready', 'not ready');
  });
});

describe('the element’s new-tab offer', () => {
  beforeEach(resetSandbox);

  it('links the page in a new tab while the frame is silent, and drops the offer once the page speaks', async () => {
    const el = await mountReady(
      html`<crypto-checkout mode="buy" country="DE" locale="en" amount="62" wallet-address="0x4444444444444444444444444444444444444444"></crypto-checkout>`,
    );
    await waitForEvent(el, 'checkout-quote');
    await el.updateComplete;
    (await internals(el)._loadFrame()).timeoutMs = 100;
    // The ramp page answers late this once, so the frame stays silent for a while.
    await addFault({ route: '/ramp/', method: 'GET', latencyMs: 1500, times: 1 });
    const order = waitForEvent(el, 'checkout-order');
    shadowQuery<HTMLButtonElement>(el, '[part~="button"]').click();
    const { url } = (await order).detail;
    await waitUntil(() => el.shadowRoot!.querySelector('.fallback a'), 'no offer');
    const link = shadowQuery<HTMLAnchorElement>(el, '.fallback a');
    expect(link.href).to.equal(url);
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.equal('noopener');
    await expect(el).to.be.accessible();
    await waitUntil(() => internals(el)._frame?.state === 'ready', 'the ramp page never spoke');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.fallback')).to.equal(null);
  });
});
