/**
 * Keeps V8's young generation at its first size (two 1 MB semi-spaces) in the CLI's process, instead of the two
 * 16 MB it grows to as soon as the process is busy, or while Node parses the app's modules. The bench (section 6,
 * memory) found that growth to be most of what the backend's RSS gains under load: the CLI answering 1,000
 * quotes/s went from 138 to 112 MB with this.
 *
 * `--max-semi-space-size` would say it, but V8 takes that only when the process starts (`node --max-semi-space-size=2`,
 * or NODE_OPTIONS); the growth factor it reads each time it would grow the young generation, so it can be set from
 * here, before the rest of the app is imported (cli.ts imports this module, then the command dynamically). An
 * operator who sets either flag keeps theirs. Embedding apps (`createCheckout`) do not import this: their process
 * is theirs to tune (README, "Deploying").
 */
import { setFlagsFromString } from 'node:v8';

const asked = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const tuned = asked.some((arg) =>
  /^--(max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/.test(arg),
);
if (!tuned) setFlagsFromString('--semi-space-growth-factor=1');
