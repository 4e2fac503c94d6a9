/**
 * The CLI's process keeps V8's young generation at its first size (src/process/young-generation.ts) unless its event loop
 * stays busy, and then lets it grow only so far; an operator who sized it keeps theirs. A child process imports
 * the module, allocates as a server does (quietly, or with its loop always busy), and reports the young
 * generation's size.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mayGrow, SUSTAINED, YOUNG_CAP } from '../src/process/young-generation.ts';

const MB = 2 ** 20;
const moduleUrl = new URL('../src/process/young-generation.ts', import.meta.url).href;

/**
 * The child's work: `quiet`, a batch of allocations every 100 ms, or after four times as long as the batch took if
 * that is longer, the loop idle most of the time; `busy`, one batch after another. Both keep some of what they
 * allocate alive for a while, as requests in flight are. It works for `seconds`, or, given `until`, until the young
 * generation reaches that size (then one second more, to see it stop) or a minute passes. What is busy is the
 * event loop's own measure, which counts time the process waits for a core while running: a batch takes a few
 * milliseconds, but other processes can slow it past 100 ms (at a load average of 8 to 10 on 2 cores, one batch
 * every 100 ms was more than half busy for a second), so the quiet child rests four times what its batch took.
 * Without the module, V8 grows this quiet workload's young generation to 32 MB within its three seconds.
 */
const script = (mode: 'quiet' | 'busy', seconds: number, until?: number) => `
import(${JSON.stringify(moduleUrl)}).then(async () => {
  const { getHeapSpaceStatistics } = await import('node:v8');
  const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
  let kept = [];
  const batch = () => {
    for (let i = 0; i < 20000; i++) { kept.push({ i, s: 'x' + i }); if (kept.length > 20000) kept = []; }
  };
  let end = Date.now() + ${until === undefined ? seconds * 1000 : 60_000};
  const first = young();
  let largest = first;
  let reached = false;
  while (Date.now() < end) {
    const started = performance.now();
    batch();
    const took = performance.now() - started;
    largest = Math.max(largest, young());
    if (${until ?? 'Infinity'} <= largest && !reached) {
      reached = true;
      end = Math.min(end, Date.now() + 1000);
    }
    await new Promise((resolve) => ${mode === 'quiet' ? 'setTimeout(resolve, Math.max(100, 4 * took))' : 'setImmediate(resolve)'});
  }
  process.stdout.write(JSON.stringify({ first, largest }));
});`;

/** The young generation's size (bytes) in a child once it imported the module, and the largest it got while it
 *  worked as told. */
function youngGeneration(
  mode: 'quiet' | 'busy',
  { seconds = 0, until, nodeOptions }: { seconds?: number; until?: number; nodeOptions?: string },
): { first: number; largest: number } {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script(mode, seconds, until)],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_OPTIONS: nodeOptions ?? '' },
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
}

describe('the young generation of the CLI process', () => {
  test('keeps its size while the process has time to spare', () => {
    const { first, largest } = youngGeneration('quiet', { seconds: SUSTAINED + 2 });
    assert.equal(largest, first, `the young generation grew from ${first / MB} to ${largest / MB} MB`);
  });

  test('grows once the event loop has been busy for seconds in a row, to two 4 MB semi-spaces at most', () => {
    const { first, largest } = youngGeneration('busy', { until: YOUNG_CAP });
    assert.ok(largest > first, `a busy process kept its first size (${first / MB} MB)`);
    assert.ok(largest <= YOUNG_CAP, `the young generation grew past its cap (${largest / MB} MB)`);
  });

  test('a burst shorter than the sustained time does not count', () => {
    assert.equal(mayGrow(SUSTAINED - 1, 2 * MB), false);
    assert.equal(mayGrow(SUSTAINED, 2 * MB), true);
    assert.equal(mayGrow(SUSTAINED + 10, YOUNG_CAP), false);
  });

  test("an operator's own size is kept", () => {
    assert.ok(
      youngGeneration('busy', { until: 16 * MB, nodeOptions: '--max-semi-space-size=16' }).largest > 8 * MB,
      'the operator asked for 16 MB semi-spaces and the young generation stayed small',
    );
  });
});
