#!/usr/bin/env node
/**
 * Bundles the backend for Cloudflare Workers (src/workers/worker.ts) into dist/workers/: `worker.js` (one ES
 * module, esbuild) and beside it, as data modules the Worker reads through `node:fs` under `/bundle`, the files
 * the command reads from disk: the widget's script-tag bundle, the flags, the sample products and their images.
 * `wrangler deploy` uploads the folder as it is (packages/backend/wrangler.jsonc); the tests load it in Miniflare.
 *
 * Node built-ins stay `node:` imports, which workerd provides with the `nodejs_compat` flag. The drivers the
 * Worker never opens (pg, libsql, ioredis) and pino-pretty are left out: importing one says so.
 */
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const backend = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(backend, 'dist', 'workers');
const require = createRequire(import.meta.url);
const widgetFile = fileURLToPath(import.meta.resolve('crypto-checkout/crypto-checkout.js'));
const flagIcons = path.dirname(require.resolve('flag-icons/package.json'));

/** Where each file the code reads lands, below `/bundle` (import.meta.resolve and import.meta.url agree). */
const layout = {
  main: 'backend/dist/worker.js',
  widget: 'widget',
  flags: 'flag-icons/flags/4x3',
  data: 'backend/data',
};

const builtins = new Set(builtinModules);
/**
 * Built-ins workerd has no module for, required by dependencies at load time only for what the Worker never
 * calls (prom-client's cluster and heap metrics, pino's worker-thread transports): an empty stand-in; `process`
 * is the global workerd gives.
 */
const standIns = {
  process: 'module.exports = globalThis.process;',
  cluster: 'module.exports = {};',
  v8: 'module.exports = {};',
  worker_threads: 'module.exports = {};',
};
const left = ['pg', 'libsql', 'ioredis', 'pino-pretty'];
const nodeForWorkers = {
  name: 'node-for-workers',
  setup(on) {
    on.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (name in standIns) return { path: name, namespace: 'stand-in' };
      return builtins.has(name) ? { path: `node:${name}`, external: true } : undefined;
    });
    on.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({
      contents: standIns[args.path],
      loader: 'js',
    }));
    on.onResolve(
      { filter: new RegExp(`^(${left.map((name) => name.replace('/', '\\/')).join('|')})$`) },
      (args) => ({
        path: args.path,
        namespace: 'left-out',
      }),
    );
    on.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the Workers build (the Durable Object is the storage)`)});`,
      loader: 'js',
    }));
  },
};

const resolved = {
  'crypto-checkout/crypto-checkout.js': `file:///bundle/${layout.widget}/crypto-checkout.js`,
  'flag-icons/package.json': `file:///bundle/${path.dirname(path.dirname(layout.flags))}/package.json`,
};
/** Bundles one Worker entry as the Workers build does (the store contract's test Worker uses it too). */
export function bundleWorker(entry, outfile) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'import', 'default'],
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'none',
    external: ['node:*', 'cloudflare:*'],
    plugins: [nodeForWorkers],
    // CommonJS dependencies call require() for built-ins; workerd's createRequire needs a path, any in the bundle.
    banner: {
      js: `import { createRequire as __workerRequire } from 'node:module'; const require = __workerRequire('/bundle/${layout.main}'); const __resolved = ${JSON.stringify(resolved)}; const __resolve = (name) => { if (__resolved[name]) return __resolved[name]; throw new Error('cannot resolve ' + name + ' in the Workers build'); };`,
    },
    define: {
      'import.meta.url': JSON.stringify(`file:///bundle/${layout.main}`),
      'import.meta.resolve': '__resolve',
    },
    logLevel: 'warning',
  });
}

/** The Workers build: dist/workers/, the bundle and the files it reads. */
export async function buildWorker() {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await bundleWorker(path.join(backend, 'src', 'workers', 'worker.ts'), path.join(out, layout.main));
  await cp(path.dirname(widgetFile), path.join(out, layout.widget), {
    recursive: true,
    filter: (file) => !file.endsWith('.map') && !file.endsWith('.d.ts'),
  });
  await cp(path.join(flagIcons, 'flags', '4x3'), path.join(out, layout.flags), { recursive: true });
  await writeFile(path.join(out, 'flag-icons', 'package.json'), '{}\n');
  await cp(path.join(backend, 'data'), path.join(out, layout.data), { recursive: true });
  return out;
}

/** Every file of the folder, for Miniflare's module list (wrangler finds them by its `rules`). */
export async function workerFiles(dir = out) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
/** The Worker's main module, relative to the folder (wrangler.jsonc's `main`, Miniflare's first module). */
export const mainModule = layout.main;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWorker();
  console.log(
    `Workers build in ${path.relative(process.cwd(), out) || '.'}: ${(await workerFiles()).length} files`,
  );
}
