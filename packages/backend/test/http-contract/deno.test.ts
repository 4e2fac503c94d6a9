/** The HTTP contract against the built CLI on Deno, on SQLite and on PostgreSQL. */
import { contractOnEachStore } from './cli-target.ts';

contractOnEachStore('deno');
