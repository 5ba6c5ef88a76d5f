/**
 * better-sqlite3 behind Kysely, with prepared statements reused. Kysely's SQLite driver
 * prepares every query afresh; preparing costs as much as running a point select, so
 * the hot paths (auth, status) reuse statements keyed by their SQL text.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/** Distinct SQL texts kept; `IN (?, ?, …)` lists make one text per list length. */
const MAX_STATEMENTS = 512;

export function withStatementCache(sqlite: SqliteDatabase): KyselySqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement as unknown as ReturnType<KyselySqliteDatabase['prepare']>;
    },
  };
}
