/**
 * `GET /widget/crypto-checkout.js`: the script-tag bundle built by packages/widget, precompressed (brotli, gzip)
 * once per build, with an ETag. `?v=<etag>` URLs are immutable for a year; the bare URL is cached for a day
 * and revalidated, so merchants who paste the plain tag still get updates.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, openApiRoutes, otherResponse } from '../openapi.ts';

/** The script-tag bundle of the installed `crypto-checkout` package (in this repository, packages/widget). */
export const widgetBundleFile = fileURLToPath(import.meta.resolve('crypto-checkout/crypto-checkout.js'));

const bundleRoute = createRoute({
  method: 'get',
  path: '/crypto-checkout.js',
  tags: ['Widget'],
  summary: 'The <crypto-checkout> script-tag bundle',
  description: 'Brotli/gzip by Accept-Encoding, ETag, long cache with `?v=<etag>`.',
  responses: {
    200: otherResponse('text/javascript', 'JavaScript'),
    304: { description: 'Not modified' },
    ...errorResponses('NOT_FOUND'),
  },
});

interface Bundle {
  mtimeMs: number;
  etag: string;
  raw: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  brotli: Uint8Array<ArrayBuffer>;
}

async function loadBundle(file: string, mtimeMs: number): Promise<Bundle> {
  const raw = await readFile(file);
  return {
    mtimeMs,
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
    raw: new Uint8Array(raw),
    gzip: new Uint8Array(gzipSync(raw, { level: 9 })),
    brotli: new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
  };
}

export function widgetBundleRoutes(_deps: AppDeps, file = widgetBundleFile) {
  // Per app instance: rebuilt when the file changes (a `vite build --watch` next to a running server).
  let cached: Promise<Bundle> | undefined;
  let cachedMtime = -1;

  const current = async (): Promise<Bundle | undefined> => {
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    if (!cached || cachedMtime !== info.mtimeMs) {
      cachedMtime = info.mtimeMs;
      cached = loadBundle(file, info.mtimeMs);
      cached.catch(() => {
        cachedMtime = -1;
      });
    }
    return cached;
  };

  return openApiRoutes().openapi(bundleRoute, async (c) => {
    const bundle = await current().catch(() => undefined);
    if (!bundle) {
      throw new AppError(
        'NOT_FOUND',
        'The widget bundle is not built yet (npm run build -w packages/widget).',
      );
    }
    const versioned = c.req.query('v') === bundle.etag.slice(1, -1);
    const headers: Record<string, string> = {
      'Content-Type': 'text/javascript; charset=utf-8',
      ETag: bundle.etag,
      Vary: 'Accept-Encoding',
      'Cache-Control': versioned
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=86400, stale-while-revalidate=604800',
      // Public code: any page may load it, also as a CORS (`crossorigin`, module) script.
      'Access-Control-Allow-Origin': '*',
    };
    const match = c.req.header('if-none-match');
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bundle.etag)) {
      return c.body(null, 304, headers);
    }
    const accepts = (c.req.header('accept-encoding') ?? '').toLowerCase();
    if (/\bbr\b/.test(accepts)) return c.body(bundle.brotli, 200, { ...headers, 'Content-Encoding': 'br' });
    if (/\bgzip\b/.test(accepts)) return c.body(bundle.gzip, 200, { ...headers, 'Content-Encoding': 'gzip' });
    return c.body(bundle.raw, 200, headers);
  });
}
