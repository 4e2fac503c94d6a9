// Registers <crypto-checkout>; a second copy of the bundle on the page leaves the first registration alone.
import { CryptoCheckout } from './crypto-checkout.ts';
import { idle } from './internal/idle.ts';
import { decimalSeparator, validLocale } from './internal/locale.ts';

export { CryptoCheckout };

if (typeof customElements !== 'undefined' && !customElements.get('crypto-checkout')) {
  customElements.define('crypto-checkout', CryptoCheckout);
  // The first Intl formatter of a page readies the browser's data, for every locale at once: main-thread time
  // that `npm run bench -- ttfq` shows in the updates before a first quote (bench/results.md, where the time
  // goes). Done while the page is idle, a checkout added later (a single-page app's checkout route) shows its
  // first quote without paying it; one already on the page sends its requests first (firstUpdated). The
  // browser's language as the element takes it: not always a tag (`"C"`, `""`; no navigator under a server-side
  // DOM shim), and an uncaught RangeError here would reach the shop's error reporting.
  idle(() => decimalSeparator(validLocale(globalThis.navigator?.language)));
}

declare global {
  interface HTMLElementTagNameMap {
    'crypto-checkout': CryptoCheckout;
  }
}
