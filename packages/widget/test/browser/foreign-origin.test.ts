// A storefront on another origin than the checkout's backend, which loads only the script: the script finds its
// chunks beside itself (cross-origin module imports, allowed by the backend's CORS header), the element talks
// to the backend its `api` names, and the country flags come from that backend as images. And a storefront whose
// origin the backend does not list (ALLOWED_ORIGINS): the element says so, to its developer and to the shopper.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { LitElement } from 'lit';
import { otherOrigin, patience, resetSandbox, waitForEvent, waitUntil } from '../support.ts';

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

  it('on an origin the backend does not allow, tells the developer to list it and the shopper a neutral message', async () => {
    // A page on an origin of its own (a server the test starts), the script from beside it, the API this backend's.
    const api = `${location.origin}/api`;
    // A pay page (its first request a GET) and a deposit page (a POST, with a preflight first).
    const page = `<!doctype html><html lang="en"><body>
<crypto-checkout mode="pay" product="ember-mug" api="${api}" locale="en"></crypto-checkout>
<crypto-checkout mode="deposit" customer-token="unused" api="${api}" locale="en"></crypto-checkout>
<script>
  const logged = [];
  const consoleError = console.error;
  console.error = (...args) => { logged.push(args.map(String).join(' ')); consoleError.apply(console, args); };
  for (const el of document.querySelectorAll('crypto-checkout'))
    el.addEventListener('checkout-error', (event) => {
      // Once the element shows it (a frame at a time: a condition, not a delay).
      const shown = () => {
        const box = el.shadowRoot && el.shadowRoot.querySelector('.error');
        if (!box) return requestAnimationFrame(shown);
        parent.postMessage({ mode: el.getAttribute('mode'), detail: event.detail, text: box.textContent.trim(), retry: !!box.querySelector('button'), logged, origin: location.origin }, '*');
      };
      shown();
    }, { once: true });
</script>
<script src="/widget/crypto-checkout.js"></script>
</body></html>`;
    const copy = await executeServerCommand<{ origin: string }, object>('crypto-checkout:widget-copy', {
      page,
    });
    expect(copy.origin).to.not.equal(location.origin);
    const frame = document.createElement('iframe');
    try {
      type Told = {
        mode: string;
        detail: { code: string; message: string; retryable: boolean };
        text: string;
        retry: boolean;
        logged: string[];
        origin: string;
      };
      const told = new Promise<Told[]>((resolve, reject) => {
        const each: Told[] = [];
        const timer = setTimeout(
          () => reject(new Error(`the refused storefront said ${JSON.stringify(each)}`)),
          patience,
        );
        window.addEventListener('message', function listen(event) {
          if (event.origin !== copy.origin) return;
          each.push(event.data);
          if (each.length < 2) return;
          window.removeEventListener('message', listen);
          clearTimeout(timer);
          resolve(each);
        });
      });
      frame.src = `${copy.origin}/storefront.html`;
      document.body.append(frame);
      const pages = await told;
      expect(pages.map((p) => p.mode).sort()).to.deep.equal(['deposit', 'pay']);
      for (const { mode, detail, text, retry } of pages) {
        expect(detail.code, mode).to.equal('ORIGIN_NOT_ALLOWED');
        expect(detail.retryable, mode).to.equal(false);
        expect(detail.message, mode).to.equal('This checkout is not available.');
        // Deposit keeps its own way out, a Try again (which asks the backend again); pay has none to offer.
        expect(text, mode).to.match(/^This checkout is not available\./);
        expect(text, mode).to.not.contain('connection');
        expect(retry, mode).to.equal(mode === 'deposit');
      }
      // A line for the developer: the fix (ALLOWED_ORIGINS) and the origin to add.
      const { logged, origin } = pages[1]!;
      const lines = logged.filter((line) => line.includes('ALLOWED_ORIGINS'));
      expect(lines.length, logged.join(' | ')).to.be.greaterThan(0);
      expect(lines.every((line) => line.includes(origin))).to.equal(true);
    } finally {
      frame.remove();
    }
  });
});
