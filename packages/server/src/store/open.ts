/**
 * Open the configured database and bring its schema up to date. SQLite (a file in
 * `DATA_DIR`) is the embedded default; a `postgres://` `DATABASE_URL` selects PostgreSQL.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { type Dialect, Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { tracedDialect } from '../telemetry/traced-dialect.js';
import type { Tracing } from '../telemetry/tracing.js';
import { type CacheOptions, KyselyStore } from './kysely-store.js';
import { migrationProvider } from './migrations/index.js';
import { nameStatements } from './prepared-statements.js';
import { openConnection } from './sqlite-connection.js';
import { withStatementCache } from './sqlite-statements.js';
import { SqliteWriter } from './sqlite-writer.js';
import type { Database } from './tables.js';
import { threadedSqliteDialect } from './threaded-sqlite-dialect.js';

export interface StoreOptions {
  /** Directory of the SQLite file (and other local state). */
  dataDir: string;
  /** `postgres://…` for PostgreSQL; unset or `sqlite:` for the embedded default. */
  databaseUrl?: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** PostgreSQL: the hottest reads as named statements (`prepared-statements.ts`); on unless false. */
  preparedStatements?: boolean;
  /** Read caching of hot lookups; off when absent. */
  cache?: CacheOptions;
  /** Where queries are traced (issue 39); absent: not traced. */
  tracing?: Tracing | undefined;
  /**
   * SQLite: writes run on a thread of their own and reads on this one (`threaded-sqlite-dialect.ts`),
   * so no insert or commit holds the event loop: the server's setting. `onExit` hears once
   * when that thread ends unasked (writes then fail with 503). Absent: one connection, on this
   * thread (the CLI, the DKIM responder's thread, tools).
   */
  writerThread?: { onExit?: (error: Error) => void } | undefined;
}

/** The SQLite file inside `dataDir`. */
export const sqliteFile = (dataDir: string): string => path.join(dataDir, 'service.sqlite');

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** Open, migrate and return the store. */
export async function openStore(options: StoreOptions): Promise<KyselyStore> {
  const store = isPostgresUrl(options.databaseUrl)
    ? await openPostgres(
        options.databaseUrl,
        options.poolSize ?? 10,
        options.preparedStatements ?? true,
        options.cache,
        options.tracing,
      )
    : await openSqlite(options.dataDir, options.cache, options.tracing, options.writerThread);
  try {
    await migrate(store.db);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

async function openSqlite(
  dataDir: string,
  cache: CacheOptions | undefined,
  tracing: Tracing | undefined,
  writerThread: StoreOptions['writerThread'],
): Promise<KyselyStore> {
  // The database holds every account's key hashes and sealed DKIM keys: only this user may
  // read it. A directory or file that already exists keeps the mode its owner gave it.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = sqliteFile(dataDir);
  // Created here, 0600, before SQLite would create it 0644; SQLite gives its -wal and -shm
  // files the database file's mode.
  closeSync(openSync(file, 'a', 0o600));
  if (!writerThread) {
    const dialect = new SqliteDialect({ database: withStatementCache(openConnection(file)) });
    return new KyselyStore(
      'sqlite',
      new Kysely<Database>({ dialect: traced(dialect, tracing, 'sqlite') }),
      cache,
    );
  }
  // this connection puts the file in WAL mode before the writer opens it
  const reader = openConnection(file, { readOnly: true });
  let writer: SqliteWriter;
  try {
    writer = await SqliteWriter.start(file, writerThread);
  } catch (error) {
    reader.close();
    throw error;
  }
  const dialect = threadedSqliteDialect(reader, writer);
  const db = new Kysely<Database>({ dialect: traced(dialect, tracing, 'sqlite') });
  return new KyselyStore('sqlite', db, cache, undefined, writer.thread);
}

async function openPostgres(
  url: string,
  poolSize: number,
  preparedStatements: boolean,
  cache?: CacheOptions,
  tracing?: Tracing,
): Promise<KyselyStore> {
  // loaded here: a process on SQLite never needs it
  const { default: pg } = await import('pg');
  // PostgreSQL returns int8 as strings to protect precision; our int8 columns are epoch
  // milliseconds, far below 2^53.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one in use: pg emits 'error' on a client whose connection ends mid-query (a server
  // restarting, `pg_terminate_backend`) besides failing the query, and the pool listens only
  // while a client is idle. The query's own rejection reports it; the pool drops the client.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (preparedStatements) nameStatements(client);
  });
  const db = new Kysely<Database>({ dialect: traced(new PostgresDialect({ pool }), tracing, 'postgresql') });
  return new KyselyStore('postgres', db, cache, pool);
}

/** The dialect, its queries traced when tracing is on. */
function traced(dialect: Dialect, tracing: Tracing | undefined, system: 'sqlite' | 'postgresql'): Dialect {
  return tracing ? tracedDialect(dialect, tracing, system) : dialect;
}

/**
 * Apply pending migrations. On PostgreSQL, Kysely takes an advisory lock for the whole
 * run, so several processes starting at once apply each migration exactly once.
 */
async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
