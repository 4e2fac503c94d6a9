// Builds the merchant console into the backend's dist/console (routes/console.ts serves it, compressed once; the
// backend's own build runs this one too, so a rebuilt backend always has it):
// one entry, console.js, and a chunk per page, loaded when the page is first opened.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./', import.meta.url)),
  // Lit's decorators lowered the TypeScript way, with `useDefineForClassFields: false` semantics (TOOLCHAIN.md).
  oxc: {
    decorator: { legacy: true },
    assumptions: { setPublicClassFields: true },
    typescript: { removeClassFieldsWithoutInitializer: true },
  },
  build: {
    outDir: fileURLToPath(new URL('../backend/dist/console/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No modulepreload polyfill: it would be an inline-free but extra script; every engine supports modules.
    modulePreload: false,
    lib: false,
    rollupOptions: {
      input: fileURLToPath(new URL('./src/console-app.ts', import.meta.url)),
      preserveEntrySignatures: false,
      output: {
        entryFileNames: 'console.js',
        chunkFileNames: 'console-[name]-[hash].js',
        format: 'es',
      },
    },
  },
});
