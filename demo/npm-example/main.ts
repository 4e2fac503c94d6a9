/**
 * The npm-import example, as an app would write it: import the package's `define` entry (which registers
 * `<crypto-checkout>` and types it), then create and use the element from code. Bundled by Vite into
 * demo/dist/npm-example.js; the embed-npm page shows this same code.
 */
import 'crypto-checkout/define';

const mount = document.querySelector<HTMLElement>('#npm-mount');
const status = document.querySelector<HTMLElement>('#npm-status');

if (mount) {
  const checkout = document.createElement('crypto-checkout');
  checkout.mode = 'pay';
  checkout.product = mount.dataset['productId'] ?? '';
  checkout.returnUrl = '/thank-you';
  checkout.addEventListener('checkout-complete', (event) => {
    console.log('paid', event.detail.orderId, event.detail.status);
  });
  mount.append(checkout);
  // Resolves once the form shows (at once had it shown already): the README's "The element".
  void checkout.ready.then(() => {
    if (status) status.textContent = 'Loaded from the npm package (crypto-checkout/define), bundled by Vite.';
  });
}
