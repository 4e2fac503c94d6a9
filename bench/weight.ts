/**
 * Weight: what a merchant's page downloads. gzip (level 9) and brotli (quality 11) sizes of
 * - the script-tag bundle as built (packages/widget/dist/crypto-checkout.js);
 * - the npm entry as published (dist/index.js + the local chunks it imports, each file compressed, summed);
 * - the npm entry as a shop's bundler would ship it (Vite, minified, `customElements.define` added), lit
 *   external (the shop pays for lit once, shared) and lit bundled;
 * - the floor: bench/fixtures/trivial-element.ts bundled like the script-tag bundle (Vite IIFE, minified, lit in).
 * Everything is bundled here, in this run, with Vite's `build()` API and the options of the widget's own build.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type InlineConfig, type Plugin } from 'vite';
import { benchDir, root } from './lib.ts';

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface WeightResult {
  scriptTag: Sizes;
  npmEntryAsShipped: Sizes & { files: string[] };
  npmEntryBundledLitExternal: Sizes;
  npmEntryBundledWithLit: Sizes;
  floor: Sizes;
  /** The floor as an ES module (lit in), the like-for-like reference for `npmEntryBundledWithLit`. */
  floorEs: Sizes;
  /** The widget's src/define.ts bundled by this step's own IIFE config: checks the floor is built alike. */
  scriptTagRebuiltHere: Sizes;
  goalGzipBytes: number;
}

export function sizesOf(data: Uint8Array | string): Sizes {
  const raw = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }).length,
  };
}

const sum = (list: Sizes[]): Sizes => ({
  raw: list.reduce((total, s) => total + s.raw, 0),
  gzip: list.reduce((total, s) => total + s.gzip, 0),
  brotli: list.reduce((total, s) => total + s.brotli, 0),
});

const widgetDir = join(root, 'packages', 'widget');
const litExternal = [/^lit(\/|$)/, /^@lit\//, /^lit-html(\/|$)/, /^lit-element(\/|$)/];

/** dist/index.js and every `./chunks/…` file it reaches through static imports. */
function localGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(resolve(dirname(file), match[1] as string));
    }
  };
  visit(entry);
  return [...seen];
}

/** A virtual entry module, so an entry can be a few lines of code. */
function virtualEntry(id: string, code: string): Plugin {
  return {
    name: 'bench-virtual-entry',
    resolveId: (source) => (source.endsWith(id) ? `\0${id}` : null),
    load: (loaded) => (loaded === `\0${id}` ? code : null),
  };
}

/** Bundles `entry` in memory, minified, with the widget build's Oxc options; returns the JS of all chunks. */
async function bundle(
  entry: string,
  options: { format: 'iife' | 'es'; externalLit: boolean; plugins?: Plugin[] },
): Promise<string> {
  const config: InlineConfig = {
    configFile: false,
    root,
    logLevel: 'silent',
    publicDir: false,
    plugins: options.plugins ?? [],
    oxc: {
      decorator: { legacy: true },
      assumptions: { setPublicClassFields: true },
      typescript: { removeClassFieldsWithoutInitializer: true },
    },
    build: {
      write: false,
      target: options.format === 'iife' ? 'es2021' : 'es2022',
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry,
        formats: [options.format],
        name: 'BenchBundle',
        fileName: () => 'bundle.js',
      },
      rolldownOptions: {
        external: options.externalLit ? litExternal : [],
        output: { comments: { legal: false } },
      },
    },
  };
  const output = await build(config);
  const results = Array.isArray(output) ? output : [output];
  let code = '';
  for (const result of results) {
    if (!('output' in result)) throw new Error('unexpected watcher from vite build');
    for (const chunk of result.output) if (chunk.type === 'chunk') code += chunk.code;
  }
  return code;
}

export async function measureWeight(): Promise<WeightResult> {
  const dist = join(widgetDir, 'dist');
  const scriptTag = sizesOf(readFileSync(join(dist, 'crypto-checkout.js')));

  const files = localGraph(join(dist, 'index.js'));
  const npmEntryAsShipped = {
    ...sum(files.map((file) => sizesOf(readFileSync(file)))),
    files: files.map((file) => file.slice(widgetDir.length + 1)),
  };

  const npmEntryId = 'bench-npm-entry.js';
  const npmEntryCode = `import { CryptoCheckout } from ${JSON.stringify(join(dist, 'index.js'))};
customElements.define('crypto-checkout', CryptoCheckout);`;
  const npmBundle = (externalLit: boolean) =>
    bundle(npmEntryId, { format: 'es', externalLit, plugins: [virtualEntry(npmEntryId, npmEntryCode)] });
  const npmEntryBundledLitExternal = sizesOf(await npmBundle(true));
  const npmEntryBundledWithLit = sizesOf(await npmBundle(false));

  const floor = sizesOf(
    await bundle(join(benchDir, 'fixtures', 'trivial-element.ts'), { format: 'iife', externalLit: false }),
  );
  const floorEs = sizesOf(
    await bundle(join(benchDir, 'fixtures', 'trivial-element.ts'), { format: 'es', externalLit: false }),
  );
  const scriptTagRebuiltHere = sizesOf(
    await bundle(join(widgetDir, 'src', 'define.ts'), { format: 'iife', externalLit: false }),
  );
  return {
    scriptTag,
    npmEntryAsShipped,
    npmEntryBundledLitExternal,
    npmEntryBundledWithLit,
    floor,
    floorEs,
    scriptTagRebuiltHere,
    goalGzipBytes: 14_000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureWeight(), null, 2));
}
