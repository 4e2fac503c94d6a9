/**
 * The backend's floors (.dependency-cruiser.cjs, CONTRIBUTING.md "Floors"): `npm run lint` refuses an import from
 * a lower floor to a higher one. The tree as it is passes; a copy of it with one back-import added fails, naming it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const depcruise = path.join(root, 'node_modules/.bin/depcruise');
const lint: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.lint;
// The floors part of `npm run lint`, exactly as the script runs it.
const floorsCommand = lint
  .split('&&')
  .map((part) => part.trim())
  .find((part) => part.startsWith('depcruise'));

function cruise(cwd: string) {
  const args = (floorsCommand as string).split(/\s+/).slice(1);
  const run = spawnSync(depcruise, args, { cwd, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the backend floors', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'floors-'));
  after(() => rmSync(copy, { recursive: true, force: true }));

  test('npm run lint checks them', () => {
    assert.ok(floorsCommand, `the lint script runs dependency-cruiser: ${lint}`);
  });

  test('the tree as it stands keeps them', () => {
    const { status, output } = cruise(root);
    assert.equal(status, 0, output);
  });

  test('a back-import added on purpose fails the lint, named', () => {
    cpSync(path.join(root, '.dependency-cruiser.cjs'), path.join(copy, '.dependency-cruiser.cjs'));
    cpSync(path.join(root, 'packages/backend/src'), path.join(copy, 'packages/backend/src'), {
      recursive: true,
    });
    // The clock (a foundation) reaching up into the store.
    appendFileSync(
      path.join(copy, 'packages/backend/src/clock.ts'),
      "\nimport type { Store } from './store/store.ts';\nexport type Back = Store;\n",
    );
    const { status, output } = cruise(copy);
    assert.notEqual(status, 0, output);
    assert.match(output, /packages\/backend\/src\/clock\.ts → packages\/backend\/src\/store\/store\.ts/);
  });

  test('a file with a known back-import may add no other', () => {
    appendFileSync(
      path.join(copy, 'packages/backend/src/orders/create.ts'),
      "\nimport type { Config } from '../config.ts';\nexport type Back = Config;\n",
    );
    const { status, output } = cruise(copy);
    assert.notEqual(status, 0, output);
    assert.match(output, /packages\/backend\/src\/orders\/create\.ts → packages\/backend\/src\/config\.ts/);
  });
});
