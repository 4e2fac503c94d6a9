/**
 * No source file over 400 lines (CONTRIBUTING.md, "Style"): every file under a package's `src/` (backend, widget,
 * sandbox, console), generated files aside. A file that grows past the limit fails here, named with its length:
 * split it by duty rather than raise the limit.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const maxLines = 400;

/** Written by a tool, not by hand (each says so at its top): not held to the limit. */
const generated = ['packages/widget/src/api/openapi.gen.ts'];

/**
 * Over the limit when it was set, still to be split (issue 47): to leave this list once cut, and none may be
 * added. (config.ts and the sandbox's order-transitions.ts were cut by the settings registry and issue 42.)
 */
const beingSplit = [
  // The element: its split must not grow the element's weight budget (test/package.test.ts), 26 B away.
  'packages/widget/src/crypto-checkout.ts',
];

const sourceFile = /\.(ts|tsx|mts|js|mjs|cjs|css)$/;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return sourceFile.test(entry.name) ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(root, 'packages', entry.name, 'src'))
  .filter((dir) => {
    try {
      return readdirSync(dir).length > 0;
    } catch {
      return false;
    }
  });
const sources = packages.flatMap(sourcesUnder);
const lengthOf = (file: string) => readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;

describe('source files stay within 400 lines', () => {
  test('the packages have sources to check', () => {
    assert.ok(sources.length > 100, `${sources.length} source files found`);
    for (const file of [...generated, ...beingSplit]) assert.ok(sources.includes(file), `${file} exists`);
  });

  test('each generated file listed is one', () => {
    for (const file of generated) {
      const opening = readFileSync(path.join(root, file), 'utf8').split('\n', 3).join('\n');
      assert.match(opening, /generated[\s\S]*do not edit/i, `${file} says it is generated`);
    }
  });

  test('every other source file has at most 400 lines', () => {
    const over = sources
      .filter((file) => !generated.includes(file) && !beingSplit.includes(file))
      .map((file) => ({ file, lines: lengthOf(file) }))
      .filter(({ lines }) => lines > maxLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    assert.deepEqual(over, [], `over ${maxLines} lines (split by duty):\n${over.join('\n')}`);
  });
});
