/**
 * `GET /widget/crypto-checkout.js`: the script-tag loader built by packages/widget, and
 * `GET /widget/crypto-checkout-<name>-<hash>.js`: the chunks it loads next to itself (the element, and each
 * mode's view). Compressed once per build (brotli, gzip), with an ETag. The loader's `?v=<etag>` URLs are
 * immutable for a year and the bare URL is cached for a day and revalidated, so merchants who paste the plain
 * tag still get updates; a chunk's name carries its content hash, so chunks are immutable for a year.
 * `GET /widget/manifest.json`: the build's manifest (each file with its SHA-384, docs/pinned-scripts.md), and
 * `GET /widget/v<version>/<file>`: the installed version's loader, chunks and manifest at a path of their own,
 * immutable for a year, for a tag pinned with `integrity` (`crypto-checkout-backend widget-tag` prints it).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorResponses, openApiRoutes, otherResponse } from '../openapi.ts';
import { type Precompressed, precompress, sendPrecompressed, varyOnEncoding } from '../precompressed.ts';

/** The script-tag bundle of the installed `crypto-checkout` package (in this repository, packages/widget). */
export const widgetBundleFile = fileURLToPath(import.meta.resolve('crypto-checkout/crypto-checkout.js'));

/** The manifest of a build (packages/widget/build/pin-chunks.ts writes it beside the loader). */
export interface WidgetManifest {
  name: string;
  version: string;
  /** The loader's file name: the one a page's `<script>` names. */
  loader: string;
  algorithm: 'sha384';
  /** Every file the element can load, by name, with its `integrity` value (`sha384-<base64>`). */
  files: Record<string, string>;
}

/** The manifest beside `file` (the loader), as the widget's build wrote it. */
export async function readWidgetManifest(file = widgetBundleFile): Promise<WidgetManifest> {
  return JSON.parse(await readFile(join(dirname(file), 'manifest.json'), 'utf8')) as WidgetManifest;
}

/** The `<script>` tag that loads version `manifest.version` pinned, from the backend at `base` (its PUBLIC_URL). */
export function widgetTag(manifest: WidgetManifest, base: string): string {
  const src = `${base.replace(/\/+$/, '')}/widget/v${manifest.version}/${manifest.loader}`;
  return `<script type="module" src="${src}" integrity="${manifest.files[manifest.loader]}" crossorigin="anonymous"></script>`;
}

const bundleRoute = createRoute({
  method: 'get',
  path: '/crypto-checkout.js',
  tags: ['Widget'],
  summary: 'The <crypto-checkout> script-tag loader',
  description:
    'Brotli/gzip by Accept-Encoding, ETag, long cache with `?v=<etag>`. It loads its chunks from next to itself.',
  responses: {
    200: otherResponse('text/javascript', 'JavaScript'),
    304: { description: 'Not modified' },
    ...errorResponses('NOT_FOUND'),
  },
});

const chunkRoute = createRoute({
  method: 'get',
  path: '/{chunk}',
  tags: ['Widget'],
  summary: 'A chunk of the script-tag bundle (`crypto-checkout-<name>-<hash>.js`)',
  description: 'Loaded by the loader on demand (the element, the view of each mode); immutable for a year.',
  request: { params: z.object({ chunk: z.string() }) },
  responses: {
    200: otherResponse('text/javascript', 'JavaScript'),
    304: { description: 'Not modified' },
    ...errorResponses('NOT_FOUND'),
  },
});

const manifestRoute = createRoute({
  method: 'get',
  path: '/manifest.json',
  tags: ['Widget'],
  summary: "The installed widget's manifest: every file the element can load with its SHA-384",
  description:
    '`{ name, version, loader, algorithm, files: { "<file>": "sha384-…" } }`, as the widget\'s build wrote it (also in the npm package, `crypto-checkout/manifest.json`). Cached for a day; `/widget/v<version>/manifest.json` is immutable.',
  responses: {
    200: otherResponse('application/json', 'The manifest'),
    304: { description: 'Not modified' },
    ...errorResponses('NOT_FOUND'),
  },
});

const versionedRoute = createRoute({
  method: 'get',
  path: '/{version}/{file}',
  tags: ['Widget'],
  summary: 'A file of the installed version at its pinned path (`/widget/v<version>/crypto-checkout.js`)',
  description:
    'The loader, a chunk or `manifest.json` of the installed version, immutable for a year: the path to pin with `integrity` (another version is a 404).',
  request: { params: z.object({ version: z.string(), file: z.string() }) },
  responses: {
    200: otherResponse('text/javascript', 'JavaScript, or the manifest as JSON'),
    304: { description: 'Not modified' },
    ...errorResponses('NOT_FOUND'),
  },
});

interface Bundle extends Precompressed {
  etag: string;
}

async function loadBundle(file: string): Promise<Bundle> {
  const raw = await readFile(file);
  return {
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
    ...precompress(raw),
  };
}

/** A chunk's name: the build's `crypto-checkout-[name]-[hash].js`, no path, so it cannot leave the folder. */
const chunkName = /^crypto-checkout-[A-Za-z0-9_-]+\.js$/;

export function widgetBundleRoutes(_deps: AppDeps, file = widgetBundleFile) {
  const dir = dirname(file);
  // Per app instance and file: reloaded when the file changes (a `vite build --watch` next to a running server).
  const cache = new Map<string, { mtimeMs: number; bundle: Promise<Bundle> }>();

  const current = async (path: string): Promise<Bundle | undefined> => {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit.bundle;
    const bundle = loadBundle(path);
    cache.set(path, { mtimeMs: info.mtimeMs, bundle });
    bundle.catch(() => cache.delete(path));
    return bundle;
  };

  const serve = async (
    c: Context<AppEnv>,
    path: string,
    immutable: (b: Bundle) => boolean,
    type = 'text/javascript; charset=utf-8',
  ) => {
    const bundle = await current(path).catch(() => undefined);
    if (!bundle) {
      throw new AppError(
        'NOT_FOUND',
        'The widget bundle is not built yet (npm run build -w packages/widget), or has no such chunk.',
      );
    }
    const headers: Record<string, string> = {
      'Content-Type': type,
      ETag: bundle.etag,
      'Cache-Control': immutable(bundle)
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=86400, stale-while-revalidate=604800',
      // Public code: any page may load it, also as a CORS (`crossorigin`, module, `import()`) script.
      'Access-Control-Allow-Origin': '*',
    };
    const match = c.req.header('if-none-match');
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bundle.etag)) {
      varyOnEncoding(c);
      return c.body(null, 304, headers);
    }
    return sendPrecompressed(c, bundle, headers);
  };

  const manifestPath = join(dir, 'manifest.json');
  const json = 'application/json; charset=utf-8';
  // The installed version, from its manifest as loaded (a rebuild next to a running server may change it), parsed once.
  const parsed = new WeakMap<Bundle, WidgetManifest>();
  const installed = async (): Promise<WidgetManifest | undefined> => {
    const bundle = await current(manifestPath).catch(() => undefined);
    if (!bundle) return undefined;
    let manifest = parsed.get(bundle);
    if (!manifest) {
      manifest = JSON.parse(new TextDecoder().decode(bundle.raw)) as WidgetManifest;
      parsed.set(bundle, manifest);
    }
    return manifest;
  };

  return openApiRoutes()
    .openapi(bundleRoute, (c) => serve(c, file, (b) => c.req.query('v') === b.etag.slice(1, -1)))
    .openapi(manifestRoute, (c) => serve(c, manifestPath, () => false, json))
    .openapi(chunkRoute, (c) => {
      const name = c.req.valid('param').chunk;
      if (!chunkName.test(name)) throw new AppError('NOT_FOUND', 'No such file.');
      return serve(c, join(dir, name), () => true);
    })
    .openapi(versionedRoute, async (c) => {
      const { version, file: name } = c.req.valid('param');
      const manifest = await installed().catch(() => undefined);
      if (!manifest || version !== `v${manifest.version}`)
        throw new AppError(
          'NOT_FOUND',
          `This backend serves the widget's version ${manifest?.version ?? '(none built)'} only.`,
        );
      if (name === 'manifest.json') return serve(c, manifestPath, () => true, json);
      if (name !== manifest.loader && !chunkName.test(name)) throw new AppError('NOT_FOUND', 'No such file.');
      return serve(c, join(dir, name), () => true);
    });
}
