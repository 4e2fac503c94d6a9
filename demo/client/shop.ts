/** The shop: the product grid from the backend's catalog. */
import { formatMoney } from './lib/money.ts';
import { type Product, productImage } from './lib/product-art.ts';

const grid = document.querySelector<HTMLElement>('#products')!;
const error = document.querySelector<HTMLElement>('#products-error')!;
const empty = document.querySelector<HTMLElement>('#products-empty')!;

function card(product: Product): HTMLElement {
  const link = document.createElement('a');
  link.className = 'card product-card';
  link.href = `/products/${encodeURIComponent(product.id)}`;
  link.dataset['productId'] = product.id;
  const body = document.createElement('div');
  body.className = 'body';
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = product.name;
  const desc = document.createElement('span');
  desc.className = 'desc';
  desc.textContent = product.description ?? '';
  const price = document.createElement('span');
  price.className = 'price';
  price.textContent = formatMoney(product.price, product.currency);
  body.append(name, desc, price);
  link.append(productImage(product), body);
  return link;
}

async function load(): Promise<void> {
  error.hidden = true;
  grid.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch('/api/products', { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { products } = (await response.json()) as { products: Product[] };
    grid.replaceChildren(...products.map(card));
    empty.hidden = products.length > 0;
  } catch {
    grid.replaceChildren();
    error.hidden = false;
  } finally {
    grid.setAttribute('aria-busy', 'false');
  }
}

document.querySelector('#products-retry')?.addEventListener('click', () => void load());
void load();
