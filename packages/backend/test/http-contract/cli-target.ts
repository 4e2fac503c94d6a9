/** The HTTP contract's target for the built CLI: on a runtime, with its storage's variables (SQLite by default). */
import { type Runtime, startCli } from '../cli-process.ts';
import type { StartTarget } from './contract.ts';

export const cliTarget =
  (runtime: Runtime, storageEnv: () => Record<string, string> = () => ({})): StartTarget =>
  async (env) => {
    const cli = await startCli({ ...storageEnv(), ...env }, { runtime });
    return { baseUrl: cli.url, sandboxUrl: `${cli.url}/sandbox`, stop: cli.stop };
  };
