/**
 * The npm-import example, as an app would write it: import the package's `define` entry (which registers
 * `<crypto-checkout>`), then create and use the element from code. Bundled by Vite into demo/dist/npm-example.js.
 */
import 'crypto-checkout/define';

const mount = document.querySelector<HTMLElement>('#npm-mount');
const status = document.querySelector<HTMLElement>('#npm-status');

if (mount) {
  const checkout = document.createElement('crypto-checkout');
  checkout.id = 'checkout';
  checkout.setAttribute('mode', 'pay');
  checkout.setAttribute('product', mount.dataset['productId'] ?? 'hoodie');
  checkout.setAttribute('return-url', '/thank-you');
  checkout.addEventListener('checkout-ready', () => {
    if (status) status.textContent = 'Loaded from the npm package (crypto-checkout/define), bundled by Vite.';
  });
  checkout.addEventListener('checkout-complete', (event) => {
    if (status)
      status.textContent = `Complete: order ${event.detail.orderId ?? ''} is ${event.detail.status}.`;
  });
  mount.append(checkout);
}
