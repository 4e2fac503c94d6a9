// The script-tag bundle as a storefront loads it: `/widget/crypto-checkout.js`, served by the backend, from a
// classic <script> and from a module script, defines <crypto-checkout> once; a second copy does not throw. It
// loads its chunks from next to itself (/widget/, not the page's folder), and only the view of the modes shown.
// This page imports nothing from src/, so the tag can only come from the bundle.
import { expect } from '@open-wc/testing';
import type { LitElement } from 'lit';
import { waitUntil } from '../support.ts';

const bundleUrl = '/widget/crypto-checkout.js';
let globalsBefore = new Set<string>();

/** Adds a script and resolves once it ran; collects the errors it threw (they reach window, not the promise). */
async function loadScript(src: string, type?: 'module'): Promise<ErrorEvent[]> {
  const errors: ErrorEvent[] = [];
  const onError = (event: ErrorEvent) => {
    errors.push(event);
    event.preventDefault();
  };
  window.addEventListener('error', onError);
  try {
    await new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      if (type) script.type = type;
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`${src} failed to load`));
      document.head.append(script);
    });
  } finally {
    window.removeEventListener('error', onError);
  }
  return errors;
}

type CheckoutLike = LitElement & { mode: string };

describe('script-tag bundle', () => {
  it('is served by the backend as JavaScript', async () => {
    const response = await fetch(bundleUrl);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/javascript/);
  });

  it('defines <crypto-checkout> from a classic <script src>, loading only the view of the mode on the page', async () => {
    expect(customElements.get('crypto-checkout'), 'defined before the bundle ran').to.equal(undefined);
    globalsBefore = new Set(Object.keys(window));
    // An element already on the page, as a storefront has it before the script runs.
    const el = document.createElement('crypto-checkout');
    el.setAttribute('mode', 'deposit');
    document.body.append(el);
    try {
      const errors = await loadScript(bundleUrl);
      expect(errors.map((e) => e.message)).to.deep.equal([]);
      await customElements.whenDefined('crypto-checkout');
      expect(customElements.get('crypto-checkout')).to.be.a('function');
      const chunks = () =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .filter((path) => /\/crypto-checkout-/.test(path));
      await waitUntil(() => chunks().some((path) => path.includes('-deposit-')), 'no deposit view loaded');
      // From next to the script, whatever the page's own path; the element's code and this mode's view only.
      expect(chunks().every((path) => path.startsWith('/widget/crypto-checkout-'))).to.equal(true);
      expect(
        chunks().map((path) => path.replace(/^\/widget\/crypto-checkout-([a-z]+)-.*$/, '$1')),
      ).to.include.members(['core', 'deposit']);
      expect(chunks().some((path) => /-(ramp|pay)-/.test(path))).to.equal(false);
    } finally {
      el.remove();
    }
  });

  it('renders, and re-renders when a property changes (decorators lowered, accessors not shadowed)', async () => {
    const el = document.createElement('crypto-checkout') as CheckoutLike;
    el.setAttribute('mode', 'pay');
    el.setAttribute('product', 'no-such-product');
    document.body.append(el);
    try {
      await el.updateComplete;
      expect(el.shadowRoot, 'shadow root').to.not.equal(null);
      expect(el.shadowRoot!.childNodes.length).to.be.greaterThan(0);
      expect(el.mode, 'attribute → property').to.equal('pay');
      el.mode = 'deposit';
      // With class fields shadowing Lit's accessors (useDefineForClassFields), no update would be scheduled.
      expect(el.isUpdatePending, 'an update is scheduled').to.equal(true);
      await el.updateComplete;
    } finally {
      el.remove();
    }
  });

  it('a second copy, classic or module, does not throw and keeps the first definition', async () => {
    const first = customElements.get('crypto-checkout');
    const classic = await loadScript(`${bundleUrl}?copy=2`);
    const module = await loadScript(`${bundleUrl}?copy=3`, 'module');
    expect([...classic, ...module].map((e) => e.message)).to.deep.equal([]);
    expect(customElements.get('crypto-checkout')).to.equal(first);
  });

  it('defines no globals', () => {
    // An IIFE without a name: nothing but the custom element registration is left behind.
    const added = Object.keys(window).filter((key) => !globalsBefore.has(key));
    expect(added).to.deep.equal([]);
  });
});
