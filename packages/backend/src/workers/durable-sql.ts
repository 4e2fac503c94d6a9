/**
 * Kysely over a Durable Object's own SQLite (`ctx.storage.sql`), so the Durable Object store runs the same
 * schema, migrations and queries as `sql-store.ts` does on SQLite and PostgreSQL. No dialect on npm is kept up
 * for this (`kysely-do` is a 0.0.1 release candidate), and one is small: SQLite's adapter, compiler and
 * introspector as Kysely ships them, and a driver whose one connection is `sql.exec`.
 *
 * `sql.exec` is synchronous and refuses BEGIN/COMMIT: a transaction is `storage.transaction(async …)` around the
 * work (which rolls back across awaits when the work throws), so the driver's own transaction calls refuse and
 * the store runs its transactions through `storage.transaction` (`durable-store.ts`).
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteQueryCompiler,
  sql,
  type TableMetadata,
} from 'kysely';

/** What a Durable Object's `ctx.storage` offers that the store uses (structural: no Workers types needed). */
export interface DurableObjectSqlStorage {
  sql: {
    exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] };
  };
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

/** The values SQLite in a Durable Object binds: numbers, strings, null, bytes (booleans as 0 and 1). */
const bindable = (value: unknown) => {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  return value;
};

const reads = /^\s*(select|with|pragma)\b/i;
const returns = /\breturning\b/i;

class DurableSqlConnection implements DatabaseConnection {
  constructor(private readonly storage: DurableObjectSqlStorage) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const rows = this.storage.sql.exec(query.sql, ...query.parameters.map(bindable)).toArray() as R[];
    if (reads.test(query.sql) || returns.test(query.sql)) return { rows };
    // An upsert whose update was refused by its WHERE changed nothing: SQLite's changes() says 0, as it must
    // for setIfAbsent (a cursor's rowsWritten also counts index rows).
    const [changed] = this.storage.sql.exec('select changes() as n').toArray();
    return { rows, numAffectedRows: BigInt(Number(changed?.['n'] ?? 0)) };
  }

  // biome-ignore lint/correctness/useYield: a cursor over sql.exec is not offered; Kysely's stream() is unused here.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on a Durable Object');
  }
}

const noInteractiveTransactions =
  'a Durable Object runs a transaction as storage.transaction(work): use the store’s transaction()';

class DurableSqlDriver implements Driver {
  private readonly connection: DurableSqlConnection;
  constructor(storage: DurableObjectSqlStorage) {
    this.connection = new DurableSqlConnection(storage);
  }
  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error(noInteractiveTransactions);
  }
  async commitTransaction(): Promise<void> {
    throw new Error(noInteractiveTransactions);
  }
  async rollbackTransaction(): Promise<void> {
    throw new Error(noInteractiveTransactions);
  }
  async releaseConnection() {}
  async destroy() {}
}

export class DurableSqlDialect implements Dialect {
  constructor(private readonly storage: DurableObjectSqlStorage) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver() {
    return new DurableSqlDriver(this.storage);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new DurableSqlIntrospector(db);
  }
}

/**
 * Kysely's SQLite introspector reads every table's columns, the object's own `_cf_*` tables too (its alarm, its
 * key-value pairs), which a Durable Object refuses (SQLITE_AUTH): the migrator's look for its own table then fails
 * on any object that has set an alarm. This one leaves them out.
 */
class DurableSqlIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  constructor(private readonly db: Kysely<any>) {}
  async getSchemas() {
    return [];
  }
  async getTables(): Promise<TableMetadata[]> {
    const tables = await sql<{ name: string; type: string }>`select name, type from sqlite_master
      where type in ('table', 'view') and substr(name, 1, 7) != 'sqlite_' and substr(name, 1, 4) != '_cf_'
      order by name`.execute(this.db);
    const result: TableMetadata[] = [];
    for (const table of tables.rows) {
      const columns = await sql<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: unknown;
      }>`select name,
        type, "notnull", dflt_value from pragma_table_info(${table.name})`.execute(this.db);
      result.push({
        name: table.name,
        isView: table.type === 'view',
        columns: columns.rows.map((column) => ({
          name: column.name,
          dataType: column.type,
          isNullable: !column.notnull,
          isAutoIncrementing: false,
          hasDefaultValue: column.dflt_value != null,
        })),
      });
    }
    return result;
  }
  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
