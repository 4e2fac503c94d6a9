// What a storefront's browser fetches besides the API: the script-tag loader and its hashed chunks, and the
// country flags of the widget's picker; from a foreign origin too, cached as long as they can be.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { widgetBundleFile } from '../src/routes/widget-bundle.ts';
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
});
