// A storefront on another origin than the checkout's backend, which loads only the script: the script finds its
// chunks beside itself (cross-origin module imports, allowed by the backend's CORS header), the element talks
// to the backend its `api` names, and the country flags come from that backend as images.
import { expect } from '@open-wc/testing';
import type { LitElement } from 'lit';
import { otherOrigin, resetSandbox, waitForEvent, waitUntil } from '../support.ts';

describe('a storefront on another origin', () => {
  before(resetSandbox);

  it('loads the script, its chunks and the flags from the backend, and quotes', async () => {
    const backend = otherOrigin();
    expect(backend).to.not.equal(location.origin);
    const el = document.createElement('crypto-checkout') as LitElement & { country: string };
    for (const [name, value] of Object.entries({
      mode: 'buy',
      api: `${backend}/api`,
      country: 'DE',
      amount: '80',
      locale: 'en',
    }))
      el.setAttribute(name, value);
    document.body.append(el);
    try {
      const quote = waitForEvent(el, 'checkout-quote');
      await new Promise<void>((resolve, reject) => {
        const script = document.createElement('script');
        script.src = `${backend}/widget/crypto-checkout.js`;
        script.onload = () => resolve();
        script.onerror = () => reject(new Error('the script did not load'));
        document.head.append(script);
      });
      expect((await quote).detail.fiat.currency).to.equal('EUR');
      await el.updateComplete;
      const chunks = performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name))
        .filter((url) => url.pathname.startsWith('/widget/crypto-checkout-'));
      expect(chunks.length).to.be.greaterThan(1);
      expect(chunks.every((url) => url.origin === backend)).to.equal(true);
      const flag = el.shadowRoot!.querySelector<HTMLImageElement>('.combo-input img.flag')!;
      expect(flag.src).to.equal(`${backend}/api/flags/de.svg`);
      expect(flag.alt).to.equal('Germany');
      await waitUntil(() => flag.complete && flag.naturalWidth > 0, 'the flag did not load');
    } finally {
      el.remove();
    }
  });
});
