/**
 * Weight: what a merchant's page downloads. gzip (level 9) and brotli (quality 11) sizes, each file compressed on
 * its own as a server sends it, of
 * - the script-tag bundle as built (packages/widget/dist): for each mode, what a page downloads before its first
 *   quote or product can show (the loader, the element's chunk, that mode's view), and each lazy part on its own
 *   (each view, each language other than English);
 * - the npm entry as published (dist/index.js + the local chunks it imports statically);
 * - the npm entry as a shop's bundler ships it (Vite, minified, code split, `customElements.define` added, lit
 *   bundled): for each mode, the entry's chunks plus that mode's view chunks;
 * - the floor: bench/fixtures/trivial-element.ts bundled like a script-tag bundle (Vite IIFE, minified, lit in),
 *   and as an ES module (the reference for the shop's bundle).
 * Everything but the widget's own build is bundled here, in this run, with Vite's `build()` API.
 */
import { join } from 'node:path';
import { build, type InlineConfig, type Plugin } from 'vite';
import {
  type Sizes,
  scriptTagGraph,
  sizesOf,
  sizesOfFiles,
  staticClosure,
} from '../packages/widget/scripts/weight.mjs';
import type { CheckoutMode } from '../packages/widget/src/modes.ts';
import { benchDir, root } from './lib.ts';

export type { Sizes };

export type Mode = CheckoutMode;

export interface ModeWeight {
  /** Script tag: what a page of this mode (in English) downloads before its first quote or product shows. */
  initial: Sizes & { files: string[] };
  /** Script tag: the mode's view chunk(s), beyond the element's. */
  view: Sizes & { files: string[] };
  /** A shop's bundle of the npm entry (lit in): its entry chunks plus this mode's view chunks. */
  shopInitial: Sizes;
  /** A shop's bundle: this mode's view chunks beyond the entry's. */
  shopView: Sizes;
}

export interface WeightResult {
  loader: Sizes;
  element: Sizes & { files: string[] };
  modes: Record<Mode, ModeWeight>;
  languages: Record<string, Sizes>;
  /**
   * Script tag: the lazy parts (the frame, the picker's list, what follows the ramp's Continue, pay's order, the
   * status band of those two), each on its own.
   */
  parts: Record<string, Sizes & { files: string[] }>;
  npmEntryAsShipped: Sizes & { files: string[] };
  /** A shop's bundle: the chunks its entry loads before any view. */
  shopEntry: Sizes;
  floor: Sizes;
  /** The floor as an ES module (lit in), the like-for-like reference for the shop's bundle. */
  floorEs: Sizes;
  goalGzipBytes: number;
}

export { sizesOf };

const sum = (list: Sizes[]): Sizes => ({
  raw: list.reduce((total, s) => total + s.raw, 0),
  gzip: list.reduce((total, s) => total + s.gzip, 0),
  brotli: list.reduce((total, s) => total + s.brotli, 0),
});

const widgetDir = join(root, 'packages', 'widget');
const litExternal = [/^lit(\/|$)/, /^@lit\//, /^lit-html(\/|$)/, /^lit-element(\/|$)/];

/** A virtual entry module, so an entry can be a few lines of code. */
function virtualEntry(id: string, code: string): Plugin {
  return {
    name: 'bench-virtual-entry',
    resolveId: (source) => (source.endsWith(id) ? `\0${id}` : null),
    load: (loaded) => (loaded === `\0${id}` ? code : null),
  };
}

interface Chunk {
  fileName: string;
  code: string;
  imports: string[];
  moduleIds: string[];
}

/** Bundles `entry` in memory, minified, with the widget build's Oxc options; returns its JS chunks. */
async function bundleChunks(
  entry: string,
  options: { format: 'iife' | 'es'; externalLit: boolean; plugins?: Plugin[] },
): Promise<Chunk[]> {
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
  const chunks: Chunk[] = [];
  for (const result of results) {
    if (!('output' in result)) throw new Error('unexpected watcher from vite build');
    for (const chunk of result.output) if (chunk.type === 'chunk') chunks.push(chunk);
  }
  return chunks;
}

/** The chunks `start` reaches through static imports, itself included. */
function closure(chunks: Chunk[], start: Chunk, seen = new Set<Chunk>()): Set<Chunk> {
  if (seen.has(start)) return seen;
  seen.add(start);
  for (const name of start.imports) {
    const next = chunks.find((c) => c.fileName === name);
    if (next) closure(chunks, next, seen);
  }
  return seen;
}

const sizesOfChunks = (list: Iterable<Chunk>): Sizes => sum([...list].map((c) => sizesOf(c.code)));

export async function measureWeight(): Promise<WeightResult> {
  const dist = join(widgetDir, 'dist');
  const graph = scriptTagGraph(dist);
  const files = (list: string[]) => ({ ...sizesOfFiles(list), files: list.map((f) => graph.name(f)) });

  const indexFiles = staticClosure(join(dist, 'index.js'));
  const npmEntryAsShipped = {
    ...sizesOfFiles(indexFiles),
    files: indexFiles.map((file) => file.slice(widgetDir.length + 1)),
  };

  // A shop's own build: the npm entry, lit bundled, code split as Vite does it.
  const shopId = 'bench-shop-entry.js';
  const shopCode = `import { CryptoCheckout } from ${JSON.stringify(join(dist, 'index.js'))};
customElements.define('crypto-checkout', CryptoCheckout);`;
  const chunks = await bundleChunks(shopId, {
    format: 'es',
    externalLit: false,
    plugins: [virtualEntry(shopId, shopCode)],
  });
  const entry = chunks.find((c) => c.moduleIds.some((id) => id.includes(shopId)));
  if (!entry) throw new Error('the shop bundle has no entry chunk');
  const entryChunks = closure(chunks, entry);
  const shopView = (mode: Mode) => {
    const view = chunks.find((c) => c.moduleIds.some((id) => id.includes(`/dist/chunks/${mode}-`)));
    if (!view) throw new Error(`the shop bundle has no ${mode} view chunk`);
    return [...closure(chunks, view)].filter((c) => !entryChunks.has(c));
  };

  const modes = {} as Record<Mode, ModeWeight>;
  for (const mode of graph.modes) {
    modes[mode] = {
      initial: files(graph.initial(mode)),
      view: files(graph.lazy(mode)),
      shopInitial: sizesOfChunks([...entryChunks, ...shopView(mode)]),
      shopView: sizesOfChunks(shopView(mode)),
    };
  }

  const floorChunks = async (format: 'iife' | 'es') =>
    sizesOfChunks(
      await bundleChunks(join(benchDir, 'fixtures', 'trivial-element.ts'), { format, externalLit: false }),
    );
  return {
    loader: sizesOfFiles([graph.loader]),
    element: files(staticClosure(graph.element)),
    modes,
    languages: Object.fromEntries(
      Object.entries(graph.languages).map(([lang, file]) => [lang, sizesOfFiles([file])]),
    ),
    parts: Object.fromEntries(Object.entries(graph.parts).map(([part, file]) => [part, files([file])])),
    npmEntryAsShipped,
    shopEntry: sizesOfChunks(entryChunks),
    floor: await floorChunks('iife'),
    floorEs: await floorChunks('es'),
    goalGzipBytes: 14_000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await measureWeight(), null, 2));
}
