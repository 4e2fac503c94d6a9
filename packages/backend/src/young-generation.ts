/**
 * Keeps V8's young generation at its first size (two 1 MB semi-spaces) in the CLI's process, instead of the two
 * 16 MB it grows to as soon as the process is busy, or while the app's modules load. The bench (section 6,
 * memory) found that growth to be most of the backend's peak RSS under load, and no CPU saved by it: the same CPU
 * per quote at 5,000/s, where the peak RSS fell from about 200 MB to about 120.
 *
 * `--max-semi-space-size` would say it, but V8 takes that only when the process starts (`node --max-semi-space-size=2`,
 * or NODE_OPTIONS); the growth factor it reads each time it would grow the young generation, so it can be set from
 * here, before the rest of the app is imported (cli.ts imports this module, then the command dynamically). An operator who sets either
 * flag keeps theirs. Embedding apps (`createCheckout`) do not import this: their process is theirs to tune
 * (README, "Deploying").
 */
import { setFlagsFromString } from 'node:v8';

const asked = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const tuned = asked.some((arg) =>
  /^--(max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/.test(arg),
);
if (!tuned) setFlagsFromString('--semi-space-growth-factor=1');
