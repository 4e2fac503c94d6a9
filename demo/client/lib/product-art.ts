/** Product pictures: the catalog's image when it has one, else a colour tile with the product's initials. */

export interface Product {
  id: string;
  name: string;
  description?: string | null;
  image?: string | null;
  price: string;
  currency: string;
}

const palettes = [
  ['#4338ca', '#0ea5e9'],
  ['#0f766e', '#84cc16'],
  ['#b45309', '#f43f5e'],
  ['#7c3aed', '#ec4899'],
  ['#1d4ed8', '#22d3ee'],
  ['#be123c', '#f59e0b'],
];

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

function placeholder(product: Product): HTMLElement {
  const [from, to] = palettes[hash(product.id) % palettes.length] ?? ['#4338ca', '#0ea5e9'];
  const tile = document.createElement('div');
  tile.className = 'placeholder-image';
  tile.style.background = `linear-gradient(135deg, ${from}, ${to})`;
  tile.setAttribute('role', 'img');
  tile.setAttribute('aria-label', product.name);
  tile.textContent = product.name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
  return tile;
}

export function productImage(product: Product): HTMLElement {
  if (!product.image) return placeholder(product);
  const image = document.createElement('img');
  image.className = 'product-image';
  image.src = product.image;
  image.alt = product.name;
  image.loading = 'lazy';
  image.addEventListener('error', () => image.replaceWith(placeholder(product)), { once: true });
  return image;
}
