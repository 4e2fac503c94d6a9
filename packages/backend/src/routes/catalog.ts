/** `GET /api/catalog`: what the widget can offer a shopper in their country (catalog/), served as kept. */
import { createRoute } from '@hono/zod-openapi';
import { countryFromHeaders } from '../catalog/country.ts';
import { createRenderedCatalogs, matchesEtag } from '../catalog/rendered.ts';
import { catalogQuery, catalogSchema } from '../catalog/schemas.ts';
import type { AppDeps } from '../deps.ts';
import { errorResponses, jsonResponse, openApiRoutes } from '../openapi.ts';
import { sendPrecompressed, varyOnEncoding } from '../precompressed.ts';

const catalogRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['Ramp'],
  summary: 'Countries, currencies and the payment and payout methods of a country',
  description:
    'The country comes from `?country`, else the `cf-ipcountry`, `x-vercel-ip-country`, `x-country` or ' +
    '`accept-language` headers, else DEFAULT_COUNTRY. Methods are those of that country only. ETag, ' +
    'max-age=60, brotli/gzip by Accept-Encoding (compressed once per build of the catalog).',
  request: { query: catalogQuery },
  responses: {
    200: jsonResponse(catalogSchema, 'The catalog'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses('VALIDATION_FAILED', 'UPSTREAM_ERROR', 'UPSTREAM_BUSY', 'UPSTREAM_TIMEOUT'),
  },
});

export function catalogRoutes(deps: AppDeps) {
  const render = createRenderedCatalogs(deps.ramp, deps.fx, deps.config.markup);
  // The body is the catalog serialised once (catalog/rendered.ts), sent as it is.
  return openApiRoutes().openapi(catalogRoute, async (c) => {
    const asked = c.req.valid('query').country;
    let catalog = await render(asked ?? countryFromHeaders(c) ?? deps.config.defaultCountry);
    // A header-derived country the ramp does not serve falls back to the configured default.
    if (!asked && !catalog.served) catalog = await render(deps.config.defaultCountry);
    // No shopper data in it, so shared caches may keep it; when the country came from headers, they must
    // key on those headers.
    c.header('Cache-Control', 'public, max-age=60');
    if (!asked)
      c.header('Vary', 'Accept-Language, CF-IPCountry, X-Vercel-IP-Country, X-Country', { append: true });
    c.header('ETag', catalog.etag);
    if (matchesEtag(c.req.header('if-none-match'), catalog.etag)) {
      varyOnEncoding(c);
      return c.body(null, 304);
    }
    return sendPrecompressed(c, catalog.body, { 'Content-Type': 'application/json' });
  });
}
