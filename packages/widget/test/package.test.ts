// The built package as a consumer gets it: the script-tag bundle's weight, and every path package.json
// promises (exports, types, sideEffects, files, customElements) present after `npm run build -w packages/widget`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Script } from 'node:vm';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

const widget = join(import.meta.dirname, '..');
const dist = join(widget, 'dist');
const bundlePath = join(dist, 'crypto-checkout.js');
/** The budget for the script-tag bundle. */
const budgetGzip = 20_000;

function readBuilt(path: string): Buffer {
  assert.ok(
    existsSync(path),
    `${path} is missing: build the widget first (npm run build -w packages/widget)`,
  );
  return readFileSync(path);
}

interface PackageJson {
  main: string;
  module: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
  sideEffects: string[];
  files: string[];
  customElements: string;
}
const pkg = JSON.parse(readFileSync(join(widget, 'package.json'), 'utf8')) as PackageJson;

describe('script-tag bundle', () => {
  it(`is at most ${budgetGzip / 1000} kB gzip`, (t) => {
    const bundle = readBuilt(bundlePath);
    const gzip = gzipSync(bundle, { level: 9 }).length;
    const brotli = brotliCompressSync(bundle).length;
    t.diagnostic(`dist/crypto-checkout.js: ${bundle.length} B minified, ${gzip} B gzip, ${brotli} B brotli`);
    console.log(
      `# dist/crypto-checkout.js: ${(gzip / 1000).toFixed(1)} kB gzip (budget ${budgetGzip / 1000} kB)`,
    );
    assert.ok(gzip <= budgetGzip, `${gzip} B gzip is over the ${budgetGzip} B budget`);
  });

  it('parses as a classic script (no import/export, no decorators left)', () => {
    const code = readBuilt(bundlePath).toString('utf8');
    // V8 supports neither module syntax in a classic script nor decorators: either would throw here.
    assert.doesNotThrow(() => new Script(code, { filename: 'crypto-checkout.js' }));
    assert.doesNotMatch(code, /^\s*(import|export)\s/m);
    assert.match(code, /crypto-checkout/, 'the bundle registers the tag');
  });

  it('has precompressed copies that decompress to the bundle', () => {
    const bundle = readBuilt(bundlePath);
    assert.deepEqual(gunzipSync(readBuilt(`${bundlePath}.gz`)), bundle);
    assert.deepEqual(brotliDecompressSync(readBuilt(`${bundlePath}.br`)), bundle);
  });
});

describe('package.json', () => {
  const targets = (value: string | Record<string, string>) =>
    typeof value === 'string' ? [value] : Object.values(value);

  it('points every export, type and entry field at a built file', () => {
    const paths = [pkg.main, pkg.module, pkg.types, ...Object.values(pkg.exports).flatMap(targets)];
    for (const path of paths) assert.ok(existsSync(join(widget, path)), `${path} does not exist`);
    assert.deepEqual(Object.keys(pkg.exports).sort(), [
      '.',
      './crypto-checkout.js',
      './custom-elements.json',
      './define',
      './react',
    ]);
  });

  it('names the define entry (only) as having side effects, and it exists', () => {
    for (const path of pkg.sideEffects) assert.ok(existsSync(join(widget, path)), `${path} does not exist`);
    assert.ok(pkg.sideEffects.includes('./dist/define.js'));
    assert.ok(
      !pkg.sideEffects.some((path) => /index|react/.test(path)),
      'index and react are side-effect free',
    );
  });

  it('publishes dist and the manifest', () => {
    for (const path of [...pkg.files, pkg.customElements]) {
      assert.ok(existsSync(join(widget, path)), `${path} does not exist`);
    }
  });

  it('keeps lit and react out of the npm entries', () => {
    const chunks = existsSync(join(dist, 'chunks')) ? readdirSync(join(dist, 'chunks')) : [];
    const files = [
      'index.js',
      'define.js',
      'react.js',
      ...chunks.filter((name) => name.endsWith('.js')).map((name) => `chunks/${name}`),
    ];
    for (const entry of files) {
      const code = readBuilt(join(dist, entry)).toString('utf8');
      assert.doesNotMatch(
        code,
        /class ReactiveElement|function createElement\(/,
        `${entry} bundles lit or react`,
      );
    }
    assert.match(readBuilt(join(dist, 'react.js')).toString('utf8'), /from ["']@lit\/react["']/);
  });
});
