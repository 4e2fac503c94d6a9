// The React wrapper (`crypto-checkout/react`): renders <crypto-checkout>, sets props as properties, and
// forwards the element's events to the typed on… props.
import { expect } from '@open-wc/testing';
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { CheckoutReadyEvent } from '../../src/events.ts';
import { CheckoutCloseEvent } from '../../src/index.ts';
import { CryptoCheckout, checkoutEventProps } from '../../src/react.ts';

describe('React wrapper', () => {
  let container: HTMLElement;
  let root: Root;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    root.unmount();
    container.remove();
  });

  it('maps each on… prop to a checkout-* event', () => {
    expect(Object.values(checkoutEventProps).sort()).to.deep.equal([
      'checkout-close',
      'checkout-complete',
      'checkout-error',
      'checkout-order',
      'checkout-quote',
      'checkout-ready',
      'checkout-status',
    ]);
  });

  it('renders the element with its props as properties and forwards an event', async () => {
    const closes: CheckoutCloseEvent[] = [];
    const readies: CheckoutReadyEvent[] = [];
    flushSync(() => {
      root.render(
        createElement(CryptoCheckout, {
          mode: 'pay',
          product: 'no-such-product',
          onCheckoutClose: (event) => closes.push(event),
          onCheckoutReady: (event) => readies.push(event),
        }),
      );
    });
    const el = container.querySelector('crypto-checkout');
    expect(el, 'rendered').to.be.instanceOf(customElements.get('crypto-checkout')!);
    expect(el!.mode).to.equal('pay');
    expect(el!.product).to.equal('no-such-product');

    el!.dispatchEvent(new CheckoutCloseEvent({ reason: 'user' }));
    expect(closes).to.have.length(1);
    expect(closes[0]!.detail.reason).to.equal('user');
    expect(readies.every((event) => event.type === 'checkout-ready')).to.equal(true);
  });

  it('calls the latest handler when the prop changes', () => {
    const calls: string[] = [];
    const render = (name: string) =>
      flushSync(() => {
        root.render(createElement(CryptoCheckout, { onCheckoutClose: () => calls.push(name) }));
      });
    render('first');
    const el = container.querySelector('crypto-checkout')!;
    el.dispatchEvent(new CheckoutCloseEvent({ reason: 'user' }));
    render('second');
    expect(container.querySelector('crypto-checkout'), 'the same element is kept').to.equal(el);
    el.dispatchEvent(new CheckoutCloseEvent({ reason: 'page' }));
    expect(calls).to.deep.equal(['first', 'second']);
  });
});
