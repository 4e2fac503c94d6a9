/** The product page: the product as the backend states it, next to `<crypto-checkout mode="pay">`. */
import { attachEventLog } from './lib/event-log.ts';
import { formatMoney } from './lib/money.ts';
import { type Product, productImage } from './lib/product-art.ts';

attachEventLog();

const section = document.querySelector<HTMLElement>('#product')!;
const id = section.dataset['productId'] ?? '';

// Mark the current display mode in the switcher.
const current = document.querySelector<HTMLElement>('#display-modes')?.dataset['current'] ?? 'auto';
for (const link of document.querySelectorAll<HTMLAnchorElement>('#display-modes a')) {
  if (link.dataset['display'] === current) link.setAttribute('aria-current', 'true');
}

async function load(): Promise<void> {
  const error = document.querySelector<HTMLElement>('#product-error')!;
  try {
    const response = await fetch(`/api/products/${encodeURIComponent(id)}`);
    if (response.status === 404) throw new Error('There is no such product.');
    if (!response.ok) throw new Error('The product could not be loaded.');
    const product = (await response.json()) as Product;
    document.title = `${product.name} · ${document.title.split(' · ').pop()}`;
    document.querySelector('#crumb')!.textContent = product.name;
    document.querySelector('#product-image')!.replaceChildren(productImage(product));
    document.querySelector('#product-name')!.textContent = product.name;
    document.querySelector('#product-price')!.textContent = formatMoney(product.price, product.currency);
    document.querySelector('#product-description')!.textContent = product.description ?? '';
  } catch (caught) {
    error.textContent = caught instanceof Error ? caught.message : 'The product could not be loaded.';
    error.hidden = false;
    document.querySelector('#product-name')!.textContent = 'Product not found';
    document.querySelector('#product-image')!.replaceChildren();
  } finally {
    section.setAttribute('aria-busy', 'false');
  }
}

void load();
