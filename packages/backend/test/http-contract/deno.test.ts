/** The HTTP contract against the built CLI on Deno, on SQLite. */
import { cliTarget } from './cli-target.ts';
import { httpContract } from './contract.ts';

httpContract('the CLI on Deno, SQLite', cliTarget('deno'));
