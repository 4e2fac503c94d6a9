/** The HTTP contract's targets for the built CLI: on a runtime, on SQLite (its default) or PostgreSQL. */
import { after, before } from 'node:test';
import { type Runtime, startCli } from '../cli-process.ts';
import { createDatabase, type Postgres, startPostgres, waitFor } from '../servers.ts';
import { httpContract, type StartTarget } from './contract.ts';

/** The CLI on `runtime`, refused unless its start-up line names the storage expected (`SQLite`, `PostgreSQL`). */
export const cliTarget =
  (
    runtime: Runtime,
    storage: 'SQLite' | 'PostgreSQL' = 'SQLite',
    storageEnv: () => Promise<Record<string, string>> = async () => ({}),
  ): StartTarget =>
  async (env) => {
    const cli = await startCli({ ...(await storageEnv()), ...env }, { runtime });
    try {
      await waitFor(async () => {
        if (!cli.lines().some((line) => line.includes(`STORAGE: ${storage}`)))
          throw new Error(`no "STORAGE: ${storage}" line in:\n${cli.lines().join('\n')}`);
      }, `the CLI on ${runtime} saying it stores in ${storage}`);
    } catch (error) {
      await cli.stop();
      throw error;
    }
    return { baseUrl: cli.url, sandboxUrl: `${cli.url}/sandbox`, stop: cli.stop };
  };

const names: Record<Runtime, string> = { node: 'Node', bun: 'Bun', deno: 'Deno' };

/** The contract on `runtime` twice: SQLite in a data directory of its own, then a fresh PostgreSQL database. */
export function contractOnEachStore(runtime: Runtime) {
  let postgres: Postgres | undefined;
  before(async () => {
    postgres = await startPostgres();
  });
  after(() => postgres?.stop());
  httpContract(`the CLI on ${names[runtime]}, SQLite`, cliTarget(runtime));
  httpContract(
    `the CLI on ${names[runtime]}, PostgreSQL`,
    cliTarget(runtime, 'PostgreSQL', async () => ({
      DATABASE_URL: await createDatabase(postgres as Postgres, `contract_${runtime}`),
    })),
  );
}
