/**
 * Bodies many requests share (the widget's bundle and chunks, the flags, each country's catalog), compressed once
 * when they are made rather than on every request, and sent in the encoding the client accepts.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';

export interface Precompressed {
  raw: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  brotli: Uint8Array<ArrayBuffer>;
}

/**
 * `body` in its three encodings. `effort` 'max' (brotli 11, gzip 9) for files made once per process; 'fast'
 * (brotli 5, gzip 6: a millisecond or so for a catalog) for bodies rebuilt while the server runs.
 */
export function precompress(body: string | Uint8Array, effort: 'max' | 'fast' = 'max'): Precompressed {
  const raw = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
  return {
    raw,
    gzip: new Uint8Array(gzipSync(raw, { level: effort === 'max' ? 9 : 6 })),
    brotli: new Uint8Array(
      brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: effort === 'max' ? 11 : 5 } }),
    ),
  };
}

/** The answer depends on Accept-Encoding (say so on a 304 too, so caches keep the encodings apart). */
export const varyOnEncoding = (c: Context): void => c.header('Vary', 'Accept-Encoding', { append: true });

/** Sends `body` brotli- or gzip-encoded when the request accepts it, as it is otherwise; `Vary` says so. */
export function sendPrecompressed(
  c: Context,
  body: Precompressed,
  headers: Record<string, string>,
): Response {
  varyOnEncoding(c);
  const accepts = (c.req.header('accept-encoding') ?? '').toLowerCase();
  if (/\bbr\b/.test(accepts)) return c.body(body.brotli, 200, { ...headers, 'Content-Encoding': 'br' });
  if (/\bgzip\b/.test(accepts)) return c.body(body.gzip, 200, { ...headers, 'Content-Encoding': 'gzip' });
  return c.body(body.raw, 200, headers);
}
