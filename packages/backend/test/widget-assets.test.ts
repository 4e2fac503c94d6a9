// What a storefront's browser fetches besides the API: the script-tag loader and its hashed chunks, and the
// country flags of the widget's picker; from a foreign origin too, cached as long as they can be.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readWidgetManifest, widgetBundleFile, widgetTag } from '../src/routes/widget-bundle.ts';
import { json, type Stack, startStack } from './support.ts';

describe('widget assets', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  test('a flag is an SVG of flag-icons, immutable for a year, from any origin, compressed on request', async () => {
    const flag = await stack.api('/api/flags/de.svg', {
      headers: { origin: 'https://another-shop.example', 'accept-encoding': 'gzip' },
    });
    assert.equal(flag.status, 200);
    assert.equal(flag.headers.get('content-type'), 'image/svg+xml');
    assert.equal(flag.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(await flag.text(), /^<svg[\s>]/);
    const raw = await stack.api('/api/flags/gb.svg', { headers: { 'accept-encoding': 'identity' } });
    assert.match(await raw.text(), /<svg[^>]*viewBox="0 0 640 480"/);
    // The same bytes, gzipped, for a browser that asks (fetch decodes it; the raw body is checked here).
    const gz = await stack.api('/api/flags/gb.svg', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
  });

  test('an unknown or malformed flag name is a clear error, never a file outside the folder', async () => {
    const unknown = await stack.api('/api/flags/zz.svg');
    assert.equal(unknown.status, 404);
    assert.equal((await json<{ error: { code: string } }>(unknown)).error.code, 'NOT_FOUND');
    for (const name of ['DE.svg', 'de.png', '..%2Fpackage.json', 'deu.svg']) {
      const bad = await stack.api(`/api/flags/${name}`);
      assert.ok(bad.status === 404 || bad.status === 422, `${name}: ${bad.status}`);
    }
  });

  test('the loader revalidates; its hashed chunks are immutable and open to module scripts of any origin', async (t) => {
    const dist = dirname(widgetBundleFile);
    const chunks = existsSync(dist)
      ? readdirSync(dist).filter((n) => /^crypto-checkout-.+\.js$/.test(n))
      : [];
    // The widget is built by `npm test` before this suite: no chunks is a failure, never a quiet pass.
    assert.ok(chunks.length, `no chunks next to ${widgetBundleFile}: build the widget first`);
    const loader = await stack.api('/widget/crypto-checkout.js');
    assert.equal(loader.status, 200);
    assert.match(loader.headers.get('cache-control') ?? '', /max-age=86400/);
    const code = await loader.text();
    for (const name of chunks.filter((n) => code.includes(n))) {
      const chunk = await stack.api(`/widget/${name}`, {
        headers: { origin: 'https://another-shop.example', 'accept-encoding': 'gzip' },
      });
      assert.equal(chunk.status, 200, name);
      assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(chunk.headers.get('access-control-allow-origin'), '*');
      assert.match(chunk.headers.get('content-type') ?? '', /javascript/);
      t.diagnostic(`${name}: ${chunk.headers.get('content-encoding')}`);
    }
    assert.ok(
      chunks.some((n) => code.includes(n)),
      'the loader names its chunks',
    );
    for (const name of ['crypto-checkout-nope-123.js', '..%2Fpackage.json', 'index.js']) {
      const missing = await stack.api(`/widget/${name}`);
      assert.equal(missing.status, 404, name);
    }
  });

  test('the manifest lists every file the element can load with its SHA-384, as in the npm package', async () => {
    const dist = dirname(widgetBundleFile);
    const built = readdirSync(dist).filter((n) => /^crypto-checkout.*\.js$/.test(n));
    assert.ok(built.length > 2, `no build next to ${widgetBundleFile}: build the widget first`);
    const served = await stack.api('/widget/manifest.json', {
      headers: { origin: 'https://another-shop.example' },
    });
    assert.equal(served.status, 200);
    assert.match(served.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(served.headers.get('cache-control') ?? '', /max-age=86400/);
    assert.equal(served.headers.get('access-control-allow-origin'), '*');
    const manifest = await json<{
      name: string;
      version: string;
      loader: string;
      files: Record<string, string>;
    }>(served);
    const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(manifest.name, 'crypto-checkout');
    assert.equal(manifest.version, version);
    assert.equal(manifest.loader, 'crypto-checkout.js');
    // Every file of the build, each with the hash of its bytes as served (SRI hashes the decoded body).
    assert.deepEqual(Object.keys(manifest.files).sort(), built.sort());
    for (const [name, integrity] of Object.entries(manifest.files)) {
      const body = new Uint8Array(
        await (await stack.api(`/widget/${name}`, { headers: { 'accept-encoding': 'br' } })).arrayBuffer(),
      );
      assert.equal(integrity, `sha384-${createHash('sha384').update(body).digest('base64')}`, name);
    }
    assert.deepEqual(await readWidgetManifest(), manifest);
  });

  test('the installed version is served at a path of its own, immutable for a year; another version is a 404', async () => {
    const manifest = await readWidgetManifest();
    const base = `/widget/v${manifest.version}`;
    for (const name of ['crypto-checkout.js', 'manifest.json', ...Object.keys(manifest.files)]) {
      const file = await stack.api(`${base}/${name}`, {
        headers: { origin: 'https://another-shop.example', 'accept-encoding': 'gzip' },
      });
      assert.equal(file.status, 200, name);
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable', name);
      assert.equal(file.headers.get('access-control-allow-origin'), '*', name);
      assert.match(
        file.headers.get('content-type') ?? '',
        name.endsWith('.json') ? /json/ : /javascript/,
        name,
      );
      if (name !== 'manifest.json') {
        const bytes = new Uint8Array(await file.arrayBuffer());
        assert.equal(
          `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
          manifest.files[name],
          name,
        );
      }
    }
    // The pinned loader is the moving one's bytes (an update moves /widget/crypto-checkout.js, not this path).
    assert.equal(
      await (await stack.api(`${base}/crypto-checkout.js`)).text(),
      await (await stack.api('/widget/crypto-checkout.js')).text(),
    );
    for (const path of [
      '/widget/v0.0.0-nope/crypto-checkout.js',
      `${base}/index.js`,
      `${base}/..%2Fpackage.json`,
    ]) {
      const missing = await stack.api(path);
      assert.equal(missing.status, 404, path);
    }
  });

  test('the tag to paste names the pinned path, its integrity and crossorigin', async () => {
    const manifest = await readWidgetManifest();
    assert.equal(
      widgetTag(manifest, 'https://checkout.shop.example/'),
      `<script type="module" src="https://checkout.shop.example/widget/v${manifest.version}/crypto-checkout.js" integrity="${manifest.files['crypto-checkout.js']}" crossorigin="anonymous"></script>`,
    );
  });
});
