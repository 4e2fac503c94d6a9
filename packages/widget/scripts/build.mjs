// `npm run build -w packages/widget`: the npm entries, the script-tag bundle (a loader and its chunks; .gz/.br
// copies of the loader), the type declarations and custom-elements.json, then what each mode downloads.
//
// `node scripts/build.mjs --floor` also builds a trivial Lit element the same way and prints its weight: the
// floor that Lit alone costs, so the rest of the bundle's figure is ours.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';

const widget = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(widget, '..', '..');
const configFile = join(widget, 'vite.config.ts');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: widget, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** Writes .gz and .br next to the file (the backend serves them by Accept-Encoding); returns the sizes. */
function compress(file, { write = true } = {}) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 });
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  if (write) {
    writeFileSync(`${file}.gz`, gz);
    writeFileSync(`${file}.br`, br);
  }
  return { raw: raw.length, gzip: gz.length, brotli: br.length };
}

/**
 * The sources import each other as `./x.ts`, and tsc keeps those specifiers in declarations (it rewrites them
 * only in JavaScript). Consumers resolve `./x.js` to `x.d.ts`, so the declarations get `.js`.
 */
function rewriteDeclarationImports(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      rewriteDeclarationImports(path);
    } else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const rewritten = text.replace(
        /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g,
        '$1$2.js$3',
      );
      if (rewritten !== text) writeFileSync(path, rewritten);
    }
  }
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const describe = ({ raw, gzip, brotli }) => `${kB(raw)} minified, ${kB(gzip)} gzip, ${kB(brotli)} brotli`;

async function buildWidget() {
  const started = performance.now();
  await build({ configFile, mode: 'lib' });
  await build({ configFile, mode: 'bundle' });
  run(bin('tsc'), ['-p', 'tsconfig.build.json']);
  rewriteDeclarationImports(join(widget, 'dist', 'types'));
  run(bin('cem'), ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet']);
  const dist = join(widget, 'dist');
  compress(join(dist, 'crypto-checkout.js'));
  const { scriptTagGraph, sizesOfFiles } = await import('./weight.mjs');
  const graph = scriptTagGraph(dist);
  for (const mode of graph.modes)
    console.log(
      `script tag, ${mode}: ${describe(sizesOfFiles(graph.initial(mode)))} before it shows (goal 14 kB gzip)`,
    );
  console.log(`widget built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Lit plus one decorated element with a style, two properties and an event binding, bundled as above. */
async function buildFloor() {
  // Inside node_modules so that `lit` resolves from the workspace, and git ignores it.
  const floor = join(root, 'node_modules', '.cache', 'size-floor');
  rmSync(floor, { recursive: true, force: true });
  mkdirSync(join(floor, 'src'), { recursive: true });
  writeFileSync(
    join(floor, 'src', 'define.ts'),
    `import { css, html, LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';

@customElement('size-floor')
export class SizeFloor extends LitElement {
  static override styles = css\`:host { display: block; }\`;
  @property() name = 'world';
  @property({ type: Number }) count = 0;
  override render() {
    return html\`<button @click=\${() => this.count++}>Hello \${this.name} \${this.count}</button>\`;
  }
}
`,
  );
  const previous = process.env.WIDGET_ROOT;
  process.env.WIDGET_ROOT = `${floor}/`;
  try {
    await build({ configFile, mode: 'floor' });
  } finally {
    if (previous === undefined) delete process.env.WIDGET_ROOT;
    else process.env.WIDGET_ROOT = previous;
  }
  console.log(
    `floor (a trivial Lit element, same build): ${describe(compress(join(floor, 'dist', 'crypto-checkout.js'), { write: false }))}`,
  );
}

await buildWidget();
if (process.argv.includes('--floor')) await buildFloor();
