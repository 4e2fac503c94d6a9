/**
 * Lets V8's old generation grow only OLD_GROWTH_PERCENT past what its last full collection left alive, in the
 * CLI's process, instead of V8's own factor, which it raises towards 4 × for a process that allocates fast. A busy
 * backend is one: at 1,000 quotes/s its old generation grew to about three times what was alive in it before V8
 * collected it (73 MB for 24 MB), and that growth was most of what the process gained in RSS under load.
 *
 * Paid in CPU: full collections come sooner. Most of their marking is done off the main thread, and the quote
 * path leaves little in the old generation (requests die young), so the price is small (`npm run bench -- load`,
 * `observability`).
 *
 * V8 reads the flag each time it sets the old generation's next limit, so it can be set here, as the process
 * starts, before the app's modules are imported (cli.ts). An operator's own `--heap-growing-percent` (node's
 * arguments) stays. Embedding apps (`createCheckout`) do not import this: their process is theirs to tune.
 */
import { setFlagsFromString } from 'node:v8';

/** How far past the live old generation V8 may let it grow before it collects it again, in percent. */
export const OLD_GROWTH_PERCENT = 30;

if (!process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg)))
  setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT}`);
