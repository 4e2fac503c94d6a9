// Registers <crypto-checkout>; a second copy of the bundle on the page leaves the first registration alone.
import { CryptoCheckout } from './crypto-checkout.ts';

export { CryptoCheckout };

if (typeof customElements !== 'undefined' && !customElements.get('crypto-checkout')) {
  customElements.define('crypto-checkout', CryptoCheckout);
}

declare global {
  interface HTMLElementTagNameMap {
    'crypto-checkout': CryptoCheckout;
  }
}
