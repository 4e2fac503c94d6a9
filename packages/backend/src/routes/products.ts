/** `GET /api/products`, `/api/products/:id` and the catalog's local images (`/api/products/images/:file`). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRoute } from '@hono/zod-openapi';
import { etag } from 'hono/etag';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, jsonResponse, openApiRoutes, otherResponse } from '../openapi.ts';
import { createProductCatalog, localImage, type ProductCatalog } from '../products.ts';

export const productViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    image: z.string().nullable(),
    price: z.string().describe('Decimal string, e.g. "49.00"'),
    currency: z.string(),
  })
  .meta({ id: 'Product' });

export const productParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a product id'),
});
const imageParams = z.object({ file: z.string().regex(localImage, 'is not an image file name') });

const imageTypes: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

export function productRoutes(
  deps: AppDeps,
  catalog: ProductCatalog = createProductCatalog(deps.config.productsFile, deps.config.publicUrl),
) {
  const { productsFile } = deps.config;
  const imageDir = productsFile === null ? undefined : path.join(path.dirname(productsFile), 'images');

  return openApiRoutes()
    .openapi(
      createRoute({
        method: 'get',
        path: '/',
        tags: ['Products'],
        summary: "The merchant's products as shoppers may see them",
        responses: {
          200: jsonResponse(z.object({ products: z.array(productViewSchema) }), 'All products'),
        },
      }),
      async (c) => {
        const products = await catalog.list();
        c.header('Cache-Control', 'public, max-age=60');
        return c.json({ products }, 200);
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/images/{file}',
        tags: ['Products'],
        summary: 'A product image shipped with the catalog',
        middleware: [etag()] as const,
        request: { params: imageParams },
        responses: {
          200: otherResponse('image/svg+xml', 'The image'),
          304: { description: 'Not modified (If-None-Match)' },
          ...errorResponses('NOT_FOUND', 'VALIDATION_FAILED'),
        },
      }),
      async (c) => {
        // The regex allows no slash or dot-dot, so the name cannot leave the images folder.
        const file = c.req.valid('param').file.replace(/^images\//, '');
        const bytes = imageDir && (await readFile(path.join(imageDir, file)).catch(() => undefined));
        if (!bytes) throw new AppError('NOT_FOUND', 'No such image.');
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': imageTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
          'Cache-Control': 'public, max-age=86400',
          // An SVG opened directly must not run anything.
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
      },
    )
    .openapi(
      createRoute({
        method: 'get',
        path: '/{id}',
        tags: ['Products'],
        summary: 'One product',
        request: { params: productParams },
        responses: {
          200: jsonResponse(productViewSchema, 'The product'),
          ...errorResponses('NOT_FOUND', 'VALIDATION_FAILED'),
        },
      }),
      async (c) => {
        const product = await catalog.get(c.req.valid('param').id);
        if (!product) throw new AppError('NOT_FOUND', 'No such product.');
        return c.json(product, 200);
      },
    );
}
