/**
 * The CLI's process lets V8's old generation grow only OLD_GROWTH_PERCENT past what is alive in it
 * (src/process/old-generation.ts); an operator's own `--heap-growing-percent` stays. A child process imports the module,
 * keeps 20 MB alive as a server's caches are, then makes the same 3,000 batches of short-lived objects, each kept
 * long enough to reach the old generation (as requests in flight do), and reports the largest the old generation
 * got against what was alive in it at the end. The child collects on its main thread (`--single-threaded-gc`): with
 * V8's background marking, how far the heap overshoots its limit while marking runs depends on how busy the
 * machine is (2.2 to 2.8 × on a quiet one, here); on the main thread it is the limit the flag sets (1.4 to 1.6 ×).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OLD_GROWTH_PERCENT } from '../src/process/old-generation.ts';

const moduleUrl = new URL('../src/process/old-generation.ts', import.meta.url).href;

const script = `
import(${JSON.stringify(moduleUrl)}).then(async () => {
  const { getHeapSpaceStatistics } = await import('node:v8');
  const old = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  const live = Array.from({ length: 200000 }, (_, i) => ({ i, s: ('kept ' + i).repeat(4) }));
  const ring = new Array(64);
  let largest = 0;
  for (let n = 0; n < 3000; n++) {
    ring[n % ring.length] = Array.from({ length: 2000 }, (_, i) => ({ n, i, s: 'request ' + i }));
    if (n % 50 === 0) largest = Math.max(largest, old().space_size);
    if (n % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  globalThis.gc();
  process.stdout.write(JSON.stringify({ largest, alive: old().space_used_size, kept: live.length + ring.length }));
});`;

/** How many times what is alive at the end the old generation grew to, in a child started with `flags`. */
function oldGrowth(flags: string[]): number {
  const out = execFileSync(
    process.execPath,
    ['--single-threaded-gc', ...flags, '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' },
  );
  const { largest, alive } = JSON.parse(out) as { largest: number; alive: number };
  return largest / alive;
}

test(`the old generation grows ${OLD_GROWTH_PERCENT} % past what is alive, not V8's 4 ×`, () => {
  // Measured: 1.4 to 1.6 × what is alive at the end (more was alive at the largest); with 300 %: 3.9 to 4.4 ×.
  const growth = oldGrowth([]);
  assert.ok(growth < 2.5, `the old generation grew to ${growth.toFixed(1)} × what is alive`);
});

test('an operator who sets --heap-growing-percent keeps theirs', () => {
  const growth = oldGrowth(['--heap-growing-percent=300']);
  assert.ok(
    growth > 3,
    `with a growth of 300 % the old generation grew to only ${growth.toFixed(1)} × what is alive`,
  );
});
