/**
 * The CLI's process keeps V8's young generation at its first size (src/young-generation.ts), unless the operator
 * sized it: a child process imports the module, allocates as a busy server does, and reports the young
 * generation's size.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const moduleUrl = new URL('../src/young-generation.ts', import.meta.url).href;
const script = `
import(${JSON.stringify(moduleUrl)}).then(async () => {
  const { getHeapSpaceStatistics } = await import('node:v8');
  let kept = [];
  for (let i = 0; i < 3e6; i++) { kept.push({ i, s: 'x' + i }); if (kept.length > 20000) kept = []; }
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  process.stdout.write(String(young.space_size));
});`;

/** The young generation's size (bytes) in a child that imported the module and churned. */
function youngGenerationSize(nodeOptions?: string): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, NODE_OPTIONS: nodeOptions ?? '' },
    encoding: 'utf8',
  });
  return Number(out.trim());
}

describe('the young generation of the CLI process', () => {
  test('stays at its first size (two 1 MB semi-spaces) however much the process allocates', () => {
    assert.ok(youngGenerationSize() <= 4 * 2 ** 20, 'the young generation grew past 4 MB');
  });

  test("an operator's own size is kept", () => {
    assert.ok(
      youngGenerationSize('--max-semi-space-size=16') > 8 * 2 ** 20,
      'the operator asked for 16 MB semi-spaces and the young generation stayed small',
    );
  });
});
