/**
 * The merchant's product catalog (PRODUCTS_FILE), shared by the products route and order creation.
 * Note for B1 (routes/products.ts): written by B2 because orders need it first; use `loadProducts` /
 * `productSchema` from here rather than a second parser, and change it freely if it needs more.
 *
 * The file is a JSON array of products or `{ "products": [...] }`. It is re-read when it changes on disk
 * (by mtime), so a merchant can edit prices without a restart; a broken file is an error, never "no products".
 */
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { priceAmount, refuseExcessDecimals } from './money.ts';
import { currencyCode } from './schemas/codes.ts';

/** A product image shipped next to the products file. */
export const localImage = /^(images\/)?[A-Za-z0-9_-]{1,64}\.(svg|png|jpe?g|webp)$/;

export const productSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are letters, digits, "-" and "_"'),
    name: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    /**
     * An absolute http(s) URL, or a file in the `images/` folder next to the products file (`images/mug.svg`),
     * served by this backend at `/api/products/images/<file>` so the demo catalog needs nothing remote.
     */
    image: z
      .union([
        z.url({ protocol: /^https?$/ }),
        z.string().regex(localImage, 'must be an http(s) URL or a file like "images/mug.svg"'),
      ])
      .nullish()
      .transform((value) => value ?? null),
    price: priceAmount,
    currency: currencyCode,
  })
  .superRefine((product, ctx) => refuseExcessDecimals(ctx, 'price', product.price, product.currency, 'fiat'));
export type Product = z.output<typeof productSchema>;

const fileSchema = z.union([z.array(productSchema), z.object({ products: z.array(productSchema) })]);

export class ProductsFileError extends Error {
  override readonly name = 'ProductsFileError';
}

/** Validates the catalog file's text. Throws ProductsFileError naming the problem. */
export function parseProducts(text: string, file: string): Product[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProductsFileError(`PRODUCTS_FILE ${file} is not valid JSON`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ProductsFileError(
      `PRODUCTS_FILE ${file}: ${first?.path.join('.') ?? ''} ${first?.message ?? 'invalid'}`.trim(),
    );
  }
  const products = Array.isArray(parsed.data) ? parsed.data : parsed.data.products;
  const seen = new Set<string>();
  for (const product of products) {
    if (seen.has(product.id))
      throw new ProductsFileError(`PRODUCTS_FILE ${file}: duplicate id ${product.id}`);
    seen.add(product.id);
  }
  return products;
}

const unreadable = (file: string, error: unknown) =>
  new ProductsFileError(`Cannot read PRODUCTS_FILE ${file}: ${(error as Error).message}`);

/** Reads and validates the catalog file. Throws ProductsFileError naming the problem. */
export async function loadProducts(file: string): Promise<Product[]> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw unreadable(file, error);
  });
  return parseProducts(text, file);
}

/** `loadProducts` for start-up, where the configuration is checked before anything is served. */
export function loadProductsSync(file: string): Product[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadable(file, error);
  }
  return parseProducts(text, file);
}

/** A local image name → its URL on this backend; absolute URLs stay. */
export function productImageUrl(image: string | null, publicUrl: string | undefined): string | null {
  if (!image || !localImage.test(image)) return image;
  return publicUrl ? `${publicUrl}/api/products/images/${image.replace(/^images\//, '')}` : null;
}

/**
 * A catalog reader that re-parses only when the file's mtime changes (one per app instance). With `publicUrl`,
 * local image names become URLs on this backend. No file (PRODUCTS_FILE=none): an empty catalog, so the product
 * routes answer what they answer for a product that does not exist, and checkouts are priced by tokens.
 */
export function createProductCatalog(file: string | null, publicUrl?: string) {
  let cached: { mtimeMs: number; products: Promise<Product[]> } | undefined;
  return {
    async list(): Promise<Product[]> {
      if (file === null) return [];
      const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: -1 }));
      if (!cached || cached.mtimeMs !== mtimeMs) {
        const products = loadProducts(file).then((list) =>
          list.map((product) => ({ ...product, image: productImageUrl(product.image, publicUrl) })),
        );
        cached = { mtimeMs, products };
        // A failed read is not cached, so the next call tries again.
        products.catch(() => {
          if (cached?.products === products) cached = undefined;
        });
      }
      return cached.products;
    },
    async get(id: string): Promise<Product | undefined> {
      return (await this.list()).find((product) => product.id === id);
    },
  };
}
export type ProductCatalog = ReturnType<typeof createProductCatalog>;
