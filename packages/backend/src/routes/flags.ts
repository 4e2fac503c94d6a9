/**
 * `GET /api/flags/:code.svg`: a country's flag (ISO 3166-1 alpha-2, lower case), the 4:3 SVG of the
 * `flag-icons` package, for the widget's country picker. Images rather than emoji (which show as boxes or two
 * letters where no emoji font has flags) and never bytes of the widget's bundle. A flag does not change: cached
 * for a year, immutable; compressed once per process.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, openApiRoutes, otherResponse } from '../openapi.ts';
import { type Precompressed, precompress, sendPrecompressed } from '../precompressed.ts';

/** The folder of flag-icons' 4:3 flags, `de.svg` and so on. */
export const flagsDir = join(
  dirname(fileURLToPath(import.meta.resolve('flag-icons/package.json'))),
  'flags',
  '4x3',
);

const flagParams = z.object({ file: z.string().regex(/^[a-z]{2}\.svg$/, 'a two-letter code and .svg') });

const flagRoute = createRoute({
  method: 'get',
  path: '/{file}',
  tags: ['Widget'],
  summary: "A country's flag, `de.svg` (ISO 3166-1 alpha-2, lower case)",
  description: 'SVG from the flag-icons package; brotli/gzip by Accept-Encoding; immutable for a year.',
  request: { params: flagParams },
  responses: {
    200: otherResponse('image/svg+xml', 'The flag'),
    ...errorResponses('NOT_FOUND', 'VALIDATION_FAILED'),
  },
});

async function loadFlag(file: string): Promise<Precompressed | undefined> {
  const raw = await readFile(join(flagsDir, file)).catch(() => undefined);
  return raw && precompress(raw);
}

export function flagRoutes(_deps: AppDeps) {
  // Per app instance: some 270 small files at most.
  const cache = new Map<string, Promise<Precompressed | undefined>>();
  return openApiRoutes().openapi(flagRoute, async (c) => {
    // The regex allows no slash or dot-dot, so the name cannot leave the flags folder.
    const { file } = c.req.valid('param');
    let flag = cache.get(file);
    if (!flag) {
      flag = loadFlag(file);
      cache.set(file, flag);
    }
    const found = await flag;
    if (!found) throw new AppError('NOT_FOUND', 'No flag for this code.');
    return sendPrecompressed(c, found, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=31536000, immutable',
      // An SVG opened directly must not run anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
}
