// The browser support policy (package.json's `browserslist`, docs/embedding.md's "Browser support") held by what ships:
// the built JavaScript checked with es-check (syntax and built-ins, against the policy's browsers), the element's
// CSS with stylelint-plugin-use-baseline (web-features' Baseline data), after `npm run build -w packages/widget`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CSSResult } from 'lit';
import stylelint from 'stylelint';
import { buildTargets, supportQuery } from '../build/browsers.ts';

const widget = join(import.meta.dirname, '..');
const dist = join(widget, 'dist');
const root = join(widget, '..', '..');

/** Every JavaScript file the package ships: the script-tag bundle's chunks and the npm entries with theirs. */
function shippedScripts(): string[] {
  assert.ok(existsSync(dist), 'dist/ is missing: build the widget first (npm run build -w packages/widget)');
  const js = (dir: string) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(dir, name));
  return [...js(dist), ...(existsSync(join(dist, 'chunks')) ? js(join(dist, 'chunks')) : [])];
}

/** Every stylesheet of the element: the `css` literals of src/**\/*.styles.ts, as the chunks carry them. */
async function stylesheets(): Promise<{ file: string; name: string; css: string }[]> {
  const sheets: { file: string; name: string; css: string }[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.styles.ts')) {
        const module = (await import(path)) as Record<string, unknown>;
        for (const [name, value] of Object.entries(module))
          if (value && typeof (value as CSSResult).cssText === 'string')
            sheets.push({ file: path.slice(widget.length + 1), name, css: (value as CSSResult).cssText });
      }
    }
  };
  await walk(join(widget, 'src'));
  return sheets;
}

/**
 * CSS newer than Baseline 2023 that the policy's browsers all have, each with why. The check allows Baseline
 * 2023 (every feature interoperable by the end of 2023 is widely available on the policy's date), and these.
 */
const newerAllowed = {
  functions: {
    // Baseline 2024 (May): Chrome 123, Firefox 120, Safari 17.5, all within the policy: the theme's colours.
    'light-dark': 'Chrome 123, Firefox 120, Safari 17.5',
  },
  properties: {
    // Not Baseline because iOS draws no resize grip: the element only turns the grip off (`resize: none`).
    resize: ['none'],
    // Not Baseline (a detail of iOS's radios), in every engine since 2022: without it a radio keeps its own colour.
    'accent-color': [],
  },
};

describe('browser support policy', () => {
  it('targets the build at the oldest browser of each engine the policy names', () => {
    // The policy's engines, each with a version: a query that names none would build for nothing in particular.
    const targets = buildTargets();
    assert.deepEqual(
      targets.map((target) => target.replace(/[\d.]+$/, '')),
      ['chrome', 'edge', 'firefox', 'ios', 'safari'],
    );
    assert.ok(targets.every((target) => /\d/.test(target)));
  });

  it('ships JavaScript that uses nothing the policy’s browsers lack (es-check: syntax and built-ins)', () => {
    const files = shippedScripts();
    assert.ok(
      files.some((file) => /crypto-checkout-core-/.test(file)),
      'no element chunk in dist/',
    );
    const result = spawnSync(
      join(root, 'node_modules', '.bin', 'es-check'),
      ['checkBrowser', ...files, '--module', '--checkFeatures', `--browserslistQuery=${supportQuery}`],
      { encoding: 'utf8' },
    );
    assert.equal(
      result.status,
      0,
      `es-check found code newer than the policy:\n${result.stdout}${result.stderr}`,
    );
    assert.match(result.stdout + result.stderr, new RegExp(`checking ${files.length} files`));
  });

  it('styles the element with nothing the policy’s browsers lack (Baseline 2023, and the newer CSS they all have)', async () => {
    const sheets = await stylesheets();
    // One or more from each part's styles (the element's, each view's, each lazy part's).
    assert.ok(
      new Set(sheets.map((sheet) => sheet.file)).size >= 9,
      `only ${sheets.length} stylesheets found`,
    );
    const problems: string[] = [];
    for (const { file, name, css } of sheets) {
      const { results } = await stylelint.lint({
        code: css,
        config: {
          plugins: ['stylelint-plugin-use-baseline'],
          rules: {
            'plugin/use-baseline': [
              true,
              {
                available: 2023,
                ignoreFunctions: Object.keys(newerAllowed.functions),
                ignoreProperties: newerAllowed.properties,
              },
            ],
          },
        },
      });
      for (const result of results)
        for (const warning of result.warnings) problems.push(`${file} (${name}): ${warning.text}`);
    }
    assert.deepEqual(problems, []);
  });

  it('finds what the policy rules out: the check is not blind', async () => {
    // `field-sizing` (Safari 26.2, Firefox 152) is what cut the addresses in WebKit before they grew without it.
    const { results } = await stylelint.lint({
      code: 'textarea { field-sizing: content; } p { color: light-dark(red, blue); }',
      config: {
        plugins: ['stylelint-plugin-use-baseline'],
        rules: { 'plugin/use-baseline': [true, { available: 2023 }] },
      },
    });
    const texts = results.flatMap((result) => result.warnings.map((warning) => warning.text));
    assert.ok(
      texts.some((text) => /field-sizing/.test(text)),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((text) => /light-dark/.test(text)),
      texts.join('\n'),
    );
  });
});
