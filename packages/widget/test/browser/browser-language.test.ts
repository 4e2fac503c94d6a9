// A browser whose language is not a language tag: WebKitGTK under LANG=C.UTF-8 reports "C", others "" or worse.
// The script-tag bundle, loaded into a frame whose `navigator.language` says so, must throw nothing (its idle Intl
// warm-up included) and show the element in English.
import { expect } from '@open-wc/testing';
import { resetSandbox, waitUntil } from '../support.ts';

const bundleUrl = new URL('/widget/crypto-checkout.js', location.href).href;

type Win = Window & typeof globalThis;

/** A blank same-origin frame whose browser reports `language`; its uncaught errors and rejections are kept. */
async function frameWithLanguage(language: string): Promise<{ win: Win; errors: string[]; done(): void }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:400px;height:600px;border:0';
  document.body.append(frame);
  const win = frame.contentWindow as Win;
  for (const [name, value] of [
    ['language', language],
    ['languages', Object.freeze(language ? [language] : [])],
  ] as const)
    Object.defineProperty(win.navigator, name, { get: () => value, configurable: true });
  const errors: string[] = [];
  win.addEventListener('error', (e) => errors.push(String(e.error ?? e.message)));
  win.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
  return { win, errors, done: () => frame.remove() };
}

/** Runs after what the element's code queued for an idle moment before now (src/internal/idle.ts's way). */
const afterIdleWork = (win: Win) =>
  new Promise<void>((resolve) => {
    if (typeof win.requestIdleCallback === 'function')
      win.requestIdleCallback(() => resolve(), { timeout: 3000 });
    else win.setTimeout(resolve, 200);
  });

describe('a browser language that is not a tag', () => {
  beforeEach(resetSandbox);

  for (const language of ['C', '', 'en_US.UTF-8@!!']) {
    it(`never throws, and shows English, when navigator.language is ${JSON.stringify(language)}`, async () => {
      const { win, errors, done } = await frameWithLanguage(language);
      try {
        expect(win.navigator.language).to.equal(language);
        const doc = win.document;
        const el = doc.createElement('crypto-checkout') as HTMLElement & { readyState?: string };
        el.setAttribute('mode', 'buy');
        el.setAttribute('api', new URL('/api', location.href).href);
        el.setAttribute('amount', '50');
        const ready = new Promise<CustomEvent>((resolve) =>
          el.addEventListener('checkout-ready', (e) => resolve(e as CustomEvent), { once: true }),
        );
        doc.body.append(el);
        await new Promise<void>((resolve, reject) => {
          const script = doc.createElement('script');
          script.src = bundleUrl;
          script.onload = () => resolve();
          script.onerror = () => reject(new Error('the bundle did not load'));
          doc.head.append(script);
        });
        await win.customElements.whenDefined('crypto-checkout');
        // The warm-up of define.ts was queued when the tag was defined: this runs after it.
        await afterIdleWork(win);
        const { detail } = await ready;
        // The backend guessed the country from the request's headers (the test browser's own language), as it does
        // for any shopper; the element sent no country of its own.
        expect(detail.country).to.match(/^[A-Z]{2}$/);
        await waitUntil(() => el.shadowRoot?.querySelector('label[for="fiat"]'), 'no form');
        const base = el.shadowRoot!.querySelector('.base')!;
        expect(base.getAttribute('lang')).to.equal('en');
        expect(el.shadowRoot!.querySelector('label[for="fiat"]')!.textContent).to.match(/^You pay/);
        expect(errors).to.deep.equal([]);
      } finally {
        done();
      }
    });
  }
});
