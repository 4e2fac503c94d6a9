/** The HTTP contract against the built CLI on Bun, on SQLite. */
import { cliTarget } from './cli-target.ts';
import { httpContract } from './contract.ts';

httpContract('the CLI on Bun, SQLite', cliTarget('bun'));
