/**
 * Database spans (issue 39): a Kysely dialect that wraps another's driver, so every query
 * Kysely runs, on either backend, is a client span named after its operation and table,
 * carrying the SQL as compiled (`$1`, `?`: never the parameters' values, which hold addresses,
 * key hashes and message bodies).
 *
 * Queries are traced only inside an open span (a request, a delivery attempt): the workers'
 * claim queries every tick would otherwise be a trace each.
 */
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { ATTR } from './attributes.js';
import type { Tracing } from './tracing.js';

/** `dialect`, its queries traced; `system` is the conventions' `db.system.name`. */
export function tracedDialect(dialect: Dialect, tracing: Tracing, system: 'sqlite' | 'postgresql'): Dialect {
  return {
    createDriver: () => new TracedDriver(dialect.createDriver(), tracing, system),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** What a wrapped connection wraps: the driver's own methods are handed the original. */
const unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
const inner = (connection: DatabaseConnection) => unwrapped.get(connection) ?? connection;

class TracedDriver implements Driver {
  constructor(
    private readonly driver: Driver,
    private readonly tracing: Tracing,
    private readonly system: 'sqlite' | 'postgresql',
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    const traced: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const { operation, table } = summary(query.sql);
        // the conventions' span name: `{operation} {table}`, or the operation alone
        return this.tracing.span(
          table === undefined ? operation : `${operation} ${table}`,
          {
            kind: 'client',
            onlyInTrace: true,
            attributes: {
              [ATTR.DB_SYSTEM_NAME]: this.system,
              [ATTR.DB_QUERY_TEXT]: query.sql,
              [ATTR.DB_OPERATION_NAME]: operation,
              [ATTR.DB_COLLECTION_NAME]: table,
            },
          },
          () => connection.executeQuery<R>(query),
        );
      },
      // streamed reads (AXFR) are long-lived and not part of a request: not traced
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
        connection.streamQuery<R>(query, chunkSize),
    };
    unwrapped.set(traced, connection);
    return traced;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(inner(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(inner(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(inner(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.driver.savepoint?.(inner(connection), name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.driver.rollbackToSavepoint?.(inner(connection), name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.driver.releaseSavepoint?.(inner(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(inner(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}

/** The statement's first keyword and the table it names first (`select … from "domains"`). */
export function summary(sql: string): { operation: string; table: string | undefined } {
  const operation = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  const table = /\b(?:from|into|update|join)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i.exec(sql)?.[1];
  return { operation, table };
}
