import type { Config } from '../config.ts';
import { createSqlStore } from '../store/sql-store.ts';

/** The configured store: PostgreSQL with DATABASE_URL, else SQLite under DATA_DIR; migrated, old JSON imported. */
export function openStore(config: Config) {
  return createSqlStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    retentionMs: config.retentionMs,
  });
}
