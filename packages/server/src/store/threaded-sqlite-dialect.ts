/**
 * SQLite behind Kysely with its writes off the event loop (issue 37): reads run here on a
 * read-only connection, everything else on the writer thread's connection (`sqlite-writer.ts`).
 *
 * Which statements run where:
 * - a statement outside a transaction that only reads (a `SELECT`, or a `WITH` that SQLite
 *   says is read-only) runs on this thread, at once: a WAL reader never waits for the writer
 *   and sees every commit the writer has answered, so what a request wrote it reads back;
 * - a transaction, every statement after a connection's first write (`db.connection()` holds
 *   one connection across statements, e.g. a `PRAGMA` then a transaction), and every write
 *   runs on the writer, one connection at a time (the write lock below), as Kysely's own
 *   SQLite driver serialises its single connection.
 *
 * A transaction's `BEGIN` goes with its first statement, one message instead of two; each
 * statement is then a round trip to the writer, which costs the event loop a message each
 * way, not the statement's work or the commit's fsync. The write lock is held across those
 * round trips, so they bound the writes per second: statements whose answer nobody reads
 * travel with the next one instead (`executeUnanswered`, and `PRAGMA` settings).
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import {
  type Compilable,
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { statementCache } from './sqlite-connection.js';
import type { SqliteWriter, WriterResult, WriterStatement } from './sqlite-writer.js';

/** The dialect over `reader` (a `query_only` connection on this thread) and `writer`. */
/** The compiled queries `executeUnanswered` marks (Kysely hands the same object to the driver). */
const unansweredQueries = new WeakSet<CompiledQuery>();

/**
 * Runs `query`, a write whose answer the caller does not read (no `RETURNING`, no row count),
 * in the transaction `trx`. On the writer thread it is not sent on its own: it travels with
 * the transaction's next statement or its `COMMIT`, a round trip saved while the write lock is
 * held (issue 37: a registration's transaction went from 8 messages to 5). Its error, if any,
 * then fails that later statement or the commit, and so the transaction, instead of this
 * call. Elsewhere (PostgreSQL, the CLI's SQLite) it simply runs.
 */
export async function executeUnanswered(
  trx: { executeQuery(query: CompiledQuery): Promise<unknown> },
  query: Compilable,
): Promise<void> {
  const compiled = query.compile();
  unansweredQueries.add(compiled);
  await trx.executeQuery(compiled);
}

/** `PRAGMA name = value`: a setting, answered with nothing anyone reads. */
const PRAGMA_SETTING = /^\s*pragma\s+[\w.]+\s*=/i;

export function threadedSqliteDialect(reader: SqliteDatabase, writer: SqliteWriter): Dialect {
  return {
    createDriver: () => new ThreadedSqliteDriver(reader, writer),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new SqliteIntrospector(db),
  };
}

class ThreadedSqliteDriver implements Driver {
  private readonly writeLock = new WriteLock();
  private readonly prepare: (sql: string) => Statement;

  constructor(
    private readonly reader: SqliteDatabase,
    private readonly writer: SqliteWriter,
  ) {
    this.prepare = statementCache(reader);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadedConnection(this.reader, this.prepare, this.writer, this.writeLock);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ThreadedConnection).begin();
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as ThreadedConnection).end('commit');
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as ThreadedConnection).end('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoted(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as ThreadedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.writer.close();
    this.reader.close();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A `SELECT` (or a `WITH`, which may be a write) as Kysely compiles it: lower case, no comment first. */
const READ_START = /^\s*(select|with)\s/i;

class ThreadedConnection implements DatabaseConnection {
  /** Holds the write lock: every statement goes to the writer until released. */
  private pinned = false;
  /** A transaction's `BEGIN`, sent with its first statement. */
  private beginPending = false;
  /** Inside `begin` … `end`. */
  private inTransaction = false;
  /** Statements nobody waits for, sent with the next one (or on release, unawaited). */
  private deferred: WriterStatement[] = [];
  /** How many of `deferred` came before the transaction's `BEGIN` (a rollback keeps those). */
  private deferredBeforeBegin = 0;

  constructor(
    private readonly reader: SqliteDatabase,
    private readonly prepare: (sql: string) => Statement,
    private readonly writer: SqliteWriter,
    private readonly writeLock: WriteLock,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = query;
    if (!this.pinned && READ_START.test(sql)) {
      const statement = this.prepare(sql);
      if (statement.readonly) return { rows: statement.all(parameters as unknown[]) as R[] };
    }
    await this.pin();
    if (PRAGMA_SETTING.test(sql) || (this.inTransaction && unansweredQueries.has(query))) {
      this.deferred.push({ sql, params: parameters });
      return { rows: [] };
    }
    return queryResult<R>(await this.writer.execute(this.withPending({ sql, params: parameters })));
  }

  /** `last` after what waits to be sent: the deferred settings, the `BEGIN`, the deferred writes. */
  private withPending(last: WriterStatement): WriterStatement[] {
    const statements = this.deferred;
    if (this.beginPending) {
      statements.splice(this.deferredBeforeBegin, 0, { sql: 'begin', params: [] });
      this.beginPending = false;
    }
    statements.push(last);
    this.deferred = [];
    this.deferredBeforeBegin = 0;
    return statements;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (this.pinned || !READ_START.test(query.sql)) {
      for (const row of (await this.executeQuery<R>(query)).rows) yield { rows: [row] };
      return;
    }
    // A statement of its own: a cached one would be busy for every other read meanwhile.
    const statement = this.reader.prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    await this.pin();
    this.beginPending = true;
    this.inTransaction = true;
    this.deferredBeforeBegin = this.deferred.length;
  }

  /**
   * Commits (with the writes still deferred) or rolls back (dropping them); a transaction that
   * sent nothing has nothing to end.
   */
  async end(command: 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = false;
    if (command === 'rollback') this.deferred.length = this.beginPending ? this.deferredBeforeBegin : 0;
    if (this.beginPending && this.deferred.length === this.deferredBeforeBegin) {
      this.beginPending = false;
      return;
    }
    await this.writer.execute(this.withPending({ sql: command, params: [] }));
  }

  /**
   * Ends the hold on the writer. Settings still deferred (a `PRAGMA` after the last statement)
   * are sent first, unawaited: the writer runs messages in order, so they apply before the
   * next holder's statements.
   */
  release(): void {
    if (!this.pinned) return;
    if (this.deferred.length > 0) {
      // settings only here (writes are deferred only inside a transaction, which `end` sent)
      this.writer.execute(this.deferred).catch(() => {});
      this.deferred = [];
    }
    this.pinned = false;
    this.beginPending = false;
    this.inTransaction = false;
    this.deferredBeforeBegin = 0;
    this.writeLock.unlock();
  }

  private async pin(): Promise<void> {
    if (this.pinned) return;
    await this.writeLock.lock();
    this.pinned = true;
  }
}

/** Kysely's result from the writer's answer; a BLOB that crossed the thread boundary is a Buffer again. */
function queryResult<R>(result: WriterResult): QueryResult<R> {
  if (result.rows !== undefined) {
    for (const row of result.rows)
      for (const column in row) {
        const value = row[column];
        if (value instanceof Uint8Array && !Buffer.isBuffer(value))
          row[column] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
    return { rows: result.rows as R[] };
  }
  return {
    numAffectedRows: result.changes === undefined ? undefined : BigInt(result.changes),
    insertId: result.lastInsertRowid === undefined ? undefined : BigInt(result.lastInsertRowid),
    rows: [],
  };
}

/** The write connection, one holder at a time, first come first served. */
class WriteLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}
