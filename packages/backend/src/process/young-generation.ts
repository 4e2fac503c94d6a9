/**
 * Keeps V8's young generation at its first size (two 1 MB semi-spaces) in the CLI's process while the process has
 * CPU to spare, instead of the two 16 MB it grows to as soon as the process is busy, or while Node parses the app's
 * modules. That growth is most of what the backend's RSS gains under load (memory: `npm run bench -- load`).
 *
 * A small young generation is paid in CPU: it fills faster, so V8 scavenges it more often. Near a core's worth of
 * quotes that price matters more than the memory (a quote of a freely typed amount costs clearly more CPU with
 * 1 MB semi-spaces than with 16 MB ones, and about the same with 4 MB ones: `npm run bench -- profile`), so a
 * process busy for SUSTAINED seconds in a row (its event loop busy over BUSY of each) lets V8 grow it again, up to
 * two 4 MB semi-spaces (YOUNG_CAP). One second is enough: at the load step's highest rate each second spent with
 * the small young generation left a backlog that took the rest of the run to clear. The process starting does not
 * count (the first second is only the baseline). Half busy, not three quarters: on a machine with much less
 * loopback throughput than the bench's, the backend stayed under three quarters of a core at the load step's
 * lower rate, so that bar let the small young generation stay and the CLI's p99 grew by an order of magnitude
 * (`npm run bench -- load`).
 *
 * `--max-semi-space-size` would say it, but V8 takes that only when the process starts (`node --max-semi-space-size=2`,
 * or NODE_OPTIONS); the growth factor it reads each time it would grow the young generation, so it can be set from
 * here, before the rest of the app is imported (cli.ts imports this module, then the command dynamically), and
 * changed while the process runs. An operator who sets either flag keeps theirs. Embedding apps (`createCheckout`)
 * do not import this: their process is theirs to tune (README, "Deploying").
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The event loop's utilization (busy ÷ busy and idle) over a second that counts as a busy second. */
export const BUSY = 0.5;
/** Busy seconds in a row before the young generation may grow. */
export const SUSTAINED = 1;
/** The young generation's size (V8's `new_space`: both semi-spaces) past which it may not grow. */
export const YOUNG_CAP = 8 * 2 ** 20;

/** Whether V8 may grow the young generation, after `busySeconds` busy seconds in a row at `youngBytes`. */
export const mayGrow = (busySeconds: number, youngBytes: number): boolean =>
  busySeconds >= SUSTAINED && youngBytes < YOUNG_CAP;

const asked = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const tuned = asked.some((arg) =>
  /^--(max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/.test(arg),
);
const youngSize = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? YOUNG_CAP;

if (!tuned) {
  setFlagsFromString('--semi-space-growth-factor=1');
  let growing = false;
  const allow = (grow: boolean) => {
    if (grow === growing) return;
    growing = grow;
    // V8's own factor is 2; each growth doubles the young generation, so it is watched after every
    // collection while it may grow, and stopped at the cap.
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
    if (grow) collections.observe({ entryTypes: ['gc'] });
    else collections.disconnect();
  };
  const collections = new PerformanceObserver(() => {
    if (youngSize() >= YOUNG_CAP) allow(false);
  });
  let busySeconds = 0;
  // Set at the first tick: the app's modules loading before it are not load.
  let loop: ReturnType<typeof performance.eventLoopUtilization> | undefined;
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = loop !== undefined && performance.eventLoopUtilization(now, loop).utilization > BUSY;
    busySeconds = busy ? busySeconds + 1 : 0;
    loop = now;
    allow(mayGrow(busySeconds, youngSize()));
  }, 1000).unref();
}
