/**
 * The backend's floors (.dependency-cruiser.cjs, CONTRIBUTING.md "Floors"): `npm run lint` refuses an import from
 * a lower floor to a higher one. The tree as it is passes; a copy of it with one back-import added fails, naming it.
 * Cycles (Biome's noImportCycles, biome.json): the backend, the sandbox and the widget refuse an import that closes
 * a cycle, type imports and dynamic `import()` included.
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
const biome = path.join(root, 'node_modules/.bin/biome');
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

describe('no import cycles in the backend, the sandbox and the widget', () => {
  const packages = ['backend', 'sandbox', 'widget'];
  const copy = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  after(() => rmSync(copy, { recursive: true, force: true }));
  /** Biome's cycle rule as `npm run lint` applies it (biome.json's overrides), on `dir`'s packages. */
  const cycles = (dir: string) => {
    const run = spawnSync(
      biome,
      [
        'lint',
        '--vcs-enabled=false',
        '--only=suspicious/noImportCycles',
        ...packages.map((name) => `packages/${name}/src`),
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  test('each package is under the rule', () => {
    const config = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8')) as {
      overrides: Array<{ includes: string[]; linter?: { rules?: { suspicious?: Record<string, unknown> } } }>;
    };
    for (const name of packages) {
      const override = config.overrides.find(
        (entry) =>
          entry.includes.includes(`packages/${name}/src/**`) &&
          entry.linter?.rules?.suspicious?.noImportCycles,
      );
      assert.deepEqual(
        override?.linter?.rules?.suspicious?.noImportCycles,
        { level: 'error', options: { ignoreTypes: false } },
        name,
      );
    }
  });

  test('the trees as they stand have none', () => {
    const { status, output } = cycles(root);
    assert.equal(status, 0, output);
  });

  test('an import closing a cycle, added on purpose in each, fails the lint, named', () => {
    cpSync(path.join(root, 'biome.json'), path.join(copy, 'biome.json'));
    for (const name of packages)
      cpSync(path.join(root, `packages/${name}/src`), path.join(copy, `packages/${name}/src`), {
        recursive: true,
      });
    const planted = {
      // The outage log imports the clock; the clock importing it back closes a cycle.
      backend: [
        'clock.ts',
        "import type { OutageLog } from './outage-log.ts';\nexport type Back = OutageLog;",
      ],
      // The state imports the clock.
      sandbox: [
        'clock.ts',
        "import type { PartKey } from './state.ts';\nexport type Back = PartKey<number>;",
      ],
      // The picker imports its state's types; the state importing the picker back.
      widget: [
        'picker/picker-state.ts',
        "import type { Picker } from './picker.ts';\nexport type Back = Picker;",
      ],
    } as const;
    for (const name of packages) {
      const [file, line] = planted[name as keyof typeof planted];
      appendFileSync(path.join(copy, `packages/${name}/src`, file), `\n${line}\n`);
    }
    const { status, output } = cycles(copy);
    assert.notEqual(status, 0, output);
    for (const name of packages) {
      const [file] = planted[name as keyof typeof planted];
      assert.ok(output.includes(`packages/${name}/src/${file}`), `${name}: ${file} named\n${output}`);
    }
  });
});
