// Server-side rendering: the package's entry is imported where there is no window, and must not throw or
// register anything (index has no side effects; define is a separate entry).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const widget = join(import.meta.dirname, '..');

interface CustomElementsLike {
  get(name: string): unknown;
}
const registry = () => (globalThis as { customElements?: CustomElementsLike }).customElements;

describe('importing the widget without a window', () => {
  it('has no window here', () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  });

  it('imports src/index.ts without throwing or registering the tag', async () => {
    const module = (await import('../src/index.ts')) as Record<string, unknown>;
    assert.equal(typeof module.CryptoCheckout, 'function', 'index exports the element class');
    assert.equal(registry()?.get('crypto-checkout'), undefined);
  });

  it('imports the built dist/index.js without throwing or registering the tag', async () => {
    const built = join(widget, 'dist', 'index.js');
    assert.ok(existsSync(built), 'build the widget first (npm run build -w packages/widget)');
    const module = (await import(built)) as Record<string, unknown>;
    assert.equal(typeof module.CryptoCheckout, 'function');
    assert.equal(registry()?.get('crypto-checkout'), undefined);
  });
});
