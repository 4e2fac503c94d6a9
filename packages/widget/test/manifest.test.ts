// custom-elements.json, generated from the element's JSDoc by the build, documents the public surface the
// issue promises: the tag, its attributes, the checkout-* events, the theme tokens and parts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_MODE, MODES } from '../src/modes.ts';

const widget = join(import.meta.dirname, '..');
const manifestPath = join(widget, 'custom-elements.json');

interface Named {
  name: string;
  description?: string;
}
interface Declaration {
  kind: string;
  name: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: (Named & { fieldName?: string })[];
  members?: (Named & { kind: string })[];
  events?: Named[];
  cssProperties?: Named[];
  cssParts?: Named[];
}
interface Manifest {
  modules: { path: string; declarations?: Declaration[] }[];
}

function element(): Declaration {
  assert.ok(existsSync(manifestPath), 'build the widget first (npm run build -w packages/widget)');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const found = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .find((declaration) => declaration.tagName === 'crypto-checkout');
  assert.ok(found, 'custom-elements.json has no <crypto-checkout>');
  return found;
}

const attributes = [
  'api',
  'mode',
  'product',
  'checkout-token',
  'customer-token',
  'fiat',
  'crypto',
  'amount',
  'country',
  'payment-method',
  'payout-method',
  'wallet-address',
  'display',
  'return-url',
  'locale',
  'theme',
];
const events = [
  'checkout-ready',
  'checkout-quote',
  'checkout-order',
  'checkout-status',
  'checkout-complete',
  'checkout-error',
  'checkout-close',
];
const cssProperties = [
  '--checkout-accent',
  '--checkout-radius',
  '--checkout-font-family',
  '--checkout-surface',
  '--checkout-text',
  '--checkout-danger',
];

describe('custom-elements.json', () => {
  it('declares <crypto-checkout> as the class CryptoCheckout', () => {
    const declaration = element();
    assert.equal(declaration.customElement, true);
    assert.equal(declaration.name, 'CryptoCheckout');
  });

  it('lists every attribute of the issue, each with its property and a description', () => {
    const listed = element().attributes ?? [];
    for (const name of attributes) {
      const attribute = listed.find((candidate) => candidate.name === name);
      assert.ok(attribute, `attribute ${name} is missing`);
      assert.ok(attribute.fieldName, `attribute ${name} has no property`);
      assert.ok(attribute.description, `attribute ${name} has no description`);
    }
  });

  it('documents every mode of src/modes.ts, and its default', () => {
    const mode = element().attributes?.find((attribute) => attribute.name === 'mode') as
      | (Named & { default?: string })
      | undefined;
    for (const name of Object.keys(MODES))
      assert.match(mode?.description ?? '', new RegExp(`\`${name}\``), `the mode ${name} is not documented`);
    assert.equal(mode?.default, `'${DEFAULT_MODE}'`);
  });

  it('lists the checkout-* events with descriptions, and no others', () => {
    const listed = (element().events ?? []).filter((event) => event.name);
    assert.deepEqual(listed.map((event) => event.name).sort(), [...events].sort());
    for (const event of listed) assert.ok(event.description, `event ${event.name} has no description`);
  });

  it('documents the theme tokens and at least a few parts', () => {
    const declaration = element();
    const properties = (declaration.cssProperties ?? []).map((property) => property.name);
    for (const name of cssProperties) assert.ok(properties.includes(name), `${name} is not documented`);
    const parts = declaration.cssParts ?? [];
    assert.ok(parts.length >= 3, `only ${parts.length} parts documented`);
    for (const part of parts) assert.ok(part.description, `part ${part.name} has no description`);
  });

  it('renders as Markdown tables (scripts/element-docs.mjs)', () => {
    const markdown = execFileSync(
      process.execPath,
      [join(widget, '..', '..', 'scripts', 'element-docs.mjs')],
      {
        encoding: 'utf8',
      },
    );
    assert.match(markdown, /^## `<crypto-checkout>`/m);
    for (const heading of ['Attributes', 'Properties', 'Events', 'CSS custom properties', 'CSS parts']) {
      assert.match(markdown, new RegExp(`^### ${heading}$`, 'm'));
    }
    assert.match(markdown, /\| `checkout-token` \| `checkoutToken` \|/);
    assert.match(markdown, /\| `checkout-complete` \|/);
  });

  it("keeps the element's page (docs/element.md) in step with the manifest", () => {
    // `--check` exits non-zero (and execFileSync throws) when docs/element.md differs from what the manifest renders.
    execFileSync(process.execPath, [join(widget, '..', '..', 'scripts', 'element-docs.mjs'), '--check'], {
      encoding: 'utf8',
    });
  });
});
