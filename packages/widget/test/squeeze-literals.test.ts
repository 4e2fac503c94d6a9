// The bundle's html`` squeeze (build/squeeze-literals.ts) drops only quotes the HTML parser does not need.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { squeezeLiterals } from '../build/squeeze-literals.ts';

const src = join(import.meta.dirname, '..', 'src');

/** The template text of `source` (one html`` literal in a file of src/) once squeezed. */
function squeezed(source: string): string {
  const plugin = squeezeLiterals(`${src}/`);
  const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
  const out = transform(`const t = html\`${source}\`;`, join(src, 'x.ts'));
  return (out?.code ?? `const t = html\`${source}\`;`).replace(/^const t = html`|`;$/g, '');
}

describe('squeezed html', () => {
  it('unquotes a static value of plain characters followed by a space or the tag end', () => {
    assert.equal(
      squeezed('<div class="row" part="base"><b id="a-1">x</b></div>'),
      '<div class=row part=base><b id=a-1>x</b></div>',
    );
    assert.equal(squeezed("<img width='20' />"), '<img width=20 />');
  });

  it('keeps the quotes a value needs: spaces, a slash, empty, a binding inside, or no space before />', () => {
    for (const html of [
      '<p class="a b">',
      '<a href="x/y">',
      '<img alt="" />',
      '<img alt=""/>',
      '<a href="x"/>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a binding in the template's text
      '<ul id="${id}-list">',
      '<i title="a=b">',
    ])
      assert.equal(squeezed(html), html, html);
  });

  it('leaves text that only looks like an attribute alone', () => {
    assert.equal(squeezed('<p>class="row" </p>'), '<p>class="row" </p>');
  });
});
