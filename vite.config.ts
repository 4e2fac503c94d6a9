// Builds packages/widget. Two builds, picked by `--mode` (packages/widget/scripts/build.mjs runs both):
//   lib     (default) the npm entries dist/index.js, dist/define.js, dist/react.js: ES modules, unminified,
//           with lit, @lit/*, react and react-dom left to the consumer's bundler.
//   bundle  the script-tag bundle dist/crypto-checkout.js: one minified IIFE with Lit inside that registers
//           the element. An IIFE has no import/export syntax, so it runs from a classic <script src> and from
//           <script type="module" src> alike, and it defines no global of its own.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

// WIDGET_ROOT lets the size-floor measurement build a trivial element the same way (see build.mjs --floor).
const widget = process.env.WIDGET_ROOT ?? fileURLToPath(new URL('./packages/widget/', import.meta.url));
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

/** The bundle's entry: only the side effect of define.ts, so the IIFE needs no global name. */
// Vite resolves lib entries against the root, so the virtual id is matched by its end.
const bundleEntryId = 'virtual:crypto-checkout-bundle';
function bundleEntry(): Plugin {
  return {
    name: 'crypto-checkout-bundle-entry',
    resolveId: (id) => (id.endsWith(bundleEntryId) ? `\0${bundleEntryId}` : null),
    load: (id) => (id === `\0${bundleEntryId}` ? `import ${JSON.stringify(src('define.ts'))};` : null),
  };
}

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
      plugins: [bundleEntry()],
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: 'es2021',
        minify: true,
        sourcemap: true,
        reportCompressedSize: false,
        lib: {
          entry: { 'crypto-checkout': bundleEntryId },
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
