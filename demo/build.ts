/**
 * Bundles the demo's browser code with Vite into `demo/dist/`: each page script in `client/` and the npm-import
 * example (`npm-example/main.ts`, which imports `crypto-checkout/define` as an app would). `npm run build -w demo`
 * runs it; `demo/server.ts` runs it at start-up when `dist` is missing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const demoDir = fileURLToPath(new URL('.', import.meta.url));

const widgetEntry = join(demoDir, '..', 'packages', 'widget', 'dist', 'define.js');

/** Whether `demo/dist` lacks something `buildDemo` would now produce. */
export function demoBuildMissing(): boolean {
  return (
    !existsSync(join(demoDir, 'dist', 'shop.js')) ||
    (existsSync(widgetEntry) && !existsSync(join(demoDir, 'dist', 'npm-example.js')))
  );
}

export async function buildDemo(): Promise<void> {
  const input: Record<string, string> = {};
  // The npm example imports the widget package's build; without it, build the rest and say so.
  if (existsSync(widgetEntry)) input['npm-example'] = join(demoDir, 'npm-example', 'main.ts');
  else
    console.warn('The widget is not built yet (npm run build -w packages/widget): skipping the npm example.');
  for (const file of readdirSync(join(demoDir, 'client'))) {
    if (file.endsWith('.ts') && !file.endsWith('.d.ts'))
      input[file.slice(0, -3)] = join(demoDir, 'client', file);
  }
  await build({
    configFile: false,
    root: demoDir,
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir: join(demoDir, 'dist'),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      modulePreload: false,
      rollupOptions: {
        input,
        // A bare import left in the output would fail in the browser: make it a build error instead.
        onwarn(warning, warn) {
          if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(warning.message);
          warn(warning);
        },
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDemo();
  console.log('Built the demo into demo/dist/');
}
