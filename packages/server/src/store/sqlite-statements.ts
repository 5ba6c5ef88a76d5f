/**
 * better-sqlite3 behind Kysely's own SQLite dialect, with prepared statements reused
 * (`statementCache`). Kysely's SQLite driver prepares every query afresh; preparing costs as
 * much as running a point select, so the hot paths (auth, status) reuse statements keyed by
 * their SQL text.
 */
import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import { statementCache } from './sqlite-connection.js';

export function withStatementCache(sqlite: SqliteDatabase): KyselySqliteDatabase {
  const prepare = statementCache(sqlite);
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => prepare(sql) as unknown as ReturnType<KyselySqliteDatabase['prepare']>,
  };
}
