// Builds packages/widget. Three builds, picked by `--mode` (scripts/build.mjs runs lib and bundle):
//   lib     (default) the npm entries dist/index.js, dist/define.js, dist/react.js: ES modules, unminified,
//           with lit, @lit/*, react and react-dom left to the consumer's bundler.
//   bundle  the script-tag bundle dist/crypto-checkout.js: one minified IIFE with Lit inside that registers
//           the element. An IIFE has no import/export syntax, so it runs from a classic <script src> and from
//           <script type="module" src> alike, and it defines no global of its own. Its plugins are in build/.
//   floor   a trivial Lit element built as the bundle is (scripts/build.mjs --floor): what Lit alone weighs.
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { buildTargets } from './build/browsers.ts';
import { bundleEntry, bundleEntryId } from './build/bundle-entry.ts';
import { mangleInternals } from './build/mangle-internals.ts';
import { packTranslations } from './build/pack-translations.ts';
import { pinChunks } from './build/pin-chunks.ts';
import { squeezeLiterals } from './build/squeeze-literals.ts';
import pkg from './package.json' with { type: 'json' };
import { MODES } from './src/modes.ts';

// WIDGET_ROOT lets the size-floor measurement build a trivial element the same way (see build.mjs --floor).
const widget = process.env.WIDGET_ROOT ?? fileURLToPath(new URL('./', import.meta.url));
const src = (file: string) => `${widget}src/${file}`;

/** Lit 3 needs decorators lowered the TypeScript way and `useDefineForClassFields: false` semantics
 *  (a class field would shadow Lit's reactive accessor and the element would stop re-rendering). Vite 8's
 *  Oxc reads both from tsconfig.json, but says nothing when it does not find them, so they are spelled out. */
const oxc: UserConfig['oxc'] = {
  decorator: { legacy: true },
  assumptions: { setPublicClassFields: true },
  typescript: { removeClassFieldsWithoutInitializer: true },
};

const external = [
  /^lit(\/|$)/,
  /^@lit\//,
  /^lit-html(\/|$)/,
  /^lit-element(\/|$)/,
  /^react(\/|$)/,
  /^react-dom(\/|$)/,
];

/**
 * The chunk a source file ships in follows its folder: that of the deepest folder of src/ it is in that is named
 * here, else the element's. Each language but English is a chunk of its own (internal/lang/*.ts), loaded by a
 * page that shows it, and so is their list (`languages`): what an English page never downloads.
 */
const elementChunk = 'core'; // Lit, define.ts and what every mode uses: api/, controllers/, internal/, view/, picker/

/** The view chunks, each run by a page of its mode before its first quote or product: the modes' folders. */
const viewFolders = [...new Set(Object.values(MODES))];

/**
 * The lazy parts, by chunk name: each a chunk of its own that the code imports dynamically when the shopper
 * reaches it (or when the browser is idle once the form shows), never in what a page downloads first.
 */
const lazyFolders: Record<string, string> = {
  // The payment or ramp page: the frame's controller, the iframe and the modal.
  frame: 'frame',
  // The searchable picker's open list (the closed field, picker/picker.ts, is in the element's chunk).
  picker: 'picker/list',
  // Buy and sell after Continue: the session's page shown, the summary line with Change, the page's success.
  session: 'ramp/session',
  // Pay once there is an order (pressed, or restored): its page, its status followed, its outcome and ways on.
  order: 'pay/order',
  // An order's money gone wrong: the exact rest with its time left, the address to copy, the excess, a refund's link.
  settlement: 'pay/order/settlement',
  // The status band the order and the session show (its CSS), shared by both.
  status: 'status',
};

/** Every chunk named by a folder: chunk name → folder. */
const chunkFolders: Record<string, string> = {
  ...Object.fromEntries(viewFolders.map((folder) => [folder, folder])),
  ...lazyFolders,
  // The languages with a table and their loaders, loaded by a page whose locale is not English (before its table).
  languages: 'languages',
};

/** The chunk named by the deepest folder of `id` in `chunkFolders`, or undefined (the element's). */
function chunkOf(id: string): string | undefined {
  let found: { name: string; folder: string } | undefined;
  for (const [name, folder] of Object.entries(chunkFolders))
    if (id.startsWith(src(`${folder}/`)) && folder.length > (found?.folder.length ?? -1))
      found = { name, folder };
  return found?.name;
}

/** The chunks a page runs before its first quote or product: the element's and its mode's view. */
const firstChunks = [elementChunk, ...viewFolders];

/**
 * What the script-tag bundle is written for: the oldest browser of each engine the support policy names
 * (package.json's `browserslist`, the README's "Browser support"); test/browser-support.test.ts checks that what
 * ships uses nothing newer.
 */
const target = buildTargets();

export default defineConfig(({ mode }): UserConfig => {
  const shared: UserConfig = {
    root: widget,
    publicDir: false,
    logLevel: 'warn',
    oxc,
  };
  if (mode === 'bundle') {
    return {
      ...shared,
      plugins: [
        bundleEntry({ define: src('define.ts') }),
        packTranslations(src('internal/lang/')),
        squeezeLiterals(src('')),
        mangleInternals(),
        // Every chunk verified before it runs, and dist/manifest.json (the files and their SHA-384).
        pinChunks({ elementChunk, name: pkg.name, version: pkg.version }),
      ],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target,
        minify: true,
        sourcemap: true,
        reportCompressedSize: false,
        lib: {
          entry: { 'crypto-checkout': bundleEntryId },
          formats: ['es'],
          fileName: () => 'crypto-checkout.js',
        },
        rolldownOptions: {
          // The loader exports nothing: its chunks may be shaped freely.
          preserveEntrySignatures: false,
          output: {
            // Vite's library mode keeps an ES build's whitespace; these files are for browsers only, so the
            // bundlers' annotations (`/* @__PURE__ */`, which the size test would count) go too.
            minify: true,
            comments: { legal: false, annotation: false },
            // Hashed names: the backend serves them immutable for a year. Rolldown's runtime (a helper every chunk
            // imports) by a short name: each chunk names it once.
            chunkFileNames: (chunk) =>
              `crypto-checkout-${chunk.name === 'rolldown-runtime' ? 'rt' : '[name]'}-[hash].js`,
            // The element and each mode's view, which a page runs before its first quote or product: V8 compiles
            // all their functions at once, on the thread that streams the file, rather than each on the main
            // thread when first called (explicit compile hints, Chrome 136; other engines read a comment). What
            // it saves is main-thread time before a first quote (`npm run bench -- ttfq`, long tasks); what it
            // costs, a line in each file (the size test).
            postBanner: (chunk) => (firstChunks.includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
            // Behind the loader: the element with Lit and what every mode uses, one chunk per view (buy and sell
            // share theirs), and the parts a shopper reaches later, each loaded then (see `lazyFolders`).
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [
                ...Object.keys(chunkFolders).map((name) => ({
                  name,
                  test: (id: string) => chunkOf(id) === name,
                })),
                {
                  name: elementChunk,
                  test: (id: string) =>
                    !id.includes(bundleEntryId) && !id.startsWith(src('internal/lang/')) && !chunkOf(id),
                },
              ],
            },
          },
        },
      },
    };
  }
  if (mode === 'floor') {
    // The size floor (build.mjs --floor): a trivial element, one minified IIFE with Lit inside.
    return {
      ...shared,
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target,
        minify: true,
        reportCompressedSize: false,
        lib: {
          entry: { 'crypto-checkout': src('define.ts') },
          formats: ['iife'],
          name: 'CryptoCheckoutBundle',
          fileName: () => 'crypto-checkout.js',
        },
        rolldownOptions: { output: { comments: { legal: false } } },
      },
    };
  }
  return {
    ...shared,
    plugins: [packTranslations(src('internal/lang/'))],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      lib: {
        entry: { index: src('index.ts'), define: src('define.ts'), react: src('react.ts') },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        external,
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  };
});
