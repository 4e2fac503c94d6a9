// Builds packages/widget. Three builds, picked by `--mode` (scripts/build.mjs runs lib and bundle):
//   lib     (default) the npm entries dist/index.js, dist/define.js, dist/react.js: ES modules, unminified,
//           with lit, @lit/*, react and react-dom left to the consumer's bundler.
//   bundle  the script-tag bundle dist/crypto-checkout.js: one minified IIFE with Lit inside that registers
//           the element. An IIFE has no import/export syntax, so it runs from a classic <script src> and from
//           <script type="module" src> alike, and it defines no global of its own. Its plugins are in build/.
//   floor   a trivial Lit element built as the bundle is (scripts/build.mjs --floor): what Lit alone weighs.
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import { bundleEntry, bundleEntryId } from './build/bundle-entry.ts';
import { mangleInternals } from './build/mangle-internals.ts';
import { squeezeLiterals } from './build/squeeze-literals.ts';

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

/** The script-tag bundle's chunk of the element: Lit, and what every mode uses. */
const elementChunk = 'core';

/** The script-tag bundle's view chunks, each loaded by a page of its mode (buy and sell share `ramp`). */
const viewChunks: Record<string, RegExp> = {
  ramp: /src\/(views\/(ramp-view|buy|sell|flag)(\.styles|\.messages)?|internal\/(limits|format)|controllers\/quote-controller)\.ts$/,
  pay: /src\/views\/pay(\.styles|\.messages)?\.ts$/,
  deposit: /src\/views\/deposit(\.styles|\.messages)?\.ts$/,
};

/** The chunks a page runs before its first quote or product: the element's and its mode's view. */
const firstChunks = [elementChunk, ...Object.keys(viewChunks)];

/**
 * The script-tag bundle's lazy parts, each a chunk of its own that the code imports dynamically when the shopper
 * reaches it (or when the browser is idle once the form shows): never in what a page downloads first.
 */
const lazyParts: Record<string, RegExp> = {
  // The payment or ramp page: the frame's controller, the iframe and the modal.
  frame: /src\/(views\/frame(\.messages)?|controllers\/frame-controller)\.ts$/,
  // The searchable picker's open list (the closed field is in the element's chunk).
  picker: /src\/picker\/picker-list\.ts$/,
  // Buy and sell after Continue: the session's page shown, the summary line with Change, the page's success.
  session: /src\/views\/ramp-session\.ts$/,
  // Pay once there is an order (pressed, or restored): its page, its status followed, its outcome and ways on.
  order: /src\/(views\/pay-order(\.messages)?|controllers\/order-status-controller)\.ts$/,
  // The status band the order and the session show (its CSS), shared by both.
  status: /src\/views\/status\.styles\.ts$/,
};

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
        bundleEntry({
          define: src('define.ts'),
          views: Object.fromEntries(
            ['buy', 'sell', 'pay', 'deposit'].map((mode) => [mode, src(`views/${mode}.ts`)]),
          ),
          defaultMode: 'pay',
          elementChunk,
        }),
        squeezeLiterals(src('')),
        mangleInternals(),
      ],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2021',
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
            // bundlers' annotations (`/* @__PURE__ */`, 44 B gzip in the element's chunk) go too.
            minify: true,
            comments: { legal: false, annotation: false },
            // Hashed names: the backend serves them immutable for a year. Rolldown's runtime (a helper every chunk
            // imports) by a short name: each chunk names it once.
            chunkFileNames: (chunk) =>
              `crypto-checkout-${chunk.name === 'rolldown-runtime' ? 'rt' : '[name]'}-[hash].js`,
            // The element and each mode's view, which a page runs before its first quote or product: V8 compiles
            // all their functions at once, on the thread that streams the file, rather than each on the main
            // thread when first called (explicit compile hints, Chrome 136; other engines read a comment).
            // Main-thread compiling up to a buy's first quote went from 13–20 ms to under 1 ms (about 8 ms of it
            // the element's), for about 20 B gzip a file.
            postBanner: (chunk) => (firstChunks.includes(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
            // Behind the loader: the element with Lit and what every mode uses, one chunk per view (buy and sell
            // share theirs), and the parts a shopper reaches later, each loaded then (see `lazyParts`).
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [
                ...Object.entries(viewChunks).map(([name, test]) => ({ name, test })),
                ...Object.entries(lazyParts).map(([name, test]) => ({ name, test })),
                // Each language but English is a chunk of its own (internal/lang/*.ts), loaded by a page that shows it.
                {
                  name: elementChunk,
                  test: (id: string) =>
                    !id.includes(bundleEntryId) &&
                    !/\/internal\/lang\//.test(id) &&
                    !Object.values(lazyParts).some((part) => part.test(id)),
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
        target: 'es2021',
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
