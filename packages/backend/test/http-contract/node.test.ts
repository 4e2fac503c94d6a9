/** The HTTP contract against the built CLI on Node, on SQLite (the default storage). */
import { cliTarget } from './cli-target.ts';
import { httpContract } from './contract.ts';

httpContract('the CLI on Node, SQLite', cliTarget('node'));
