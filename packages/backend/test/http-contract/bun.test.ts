/** The HTTP contract against the built CLI on Bun, on SQLite and on PostgreSQL. */
import { contractOnEachStore } from './cli-target.ts';

contractOnEachStore('bun');
