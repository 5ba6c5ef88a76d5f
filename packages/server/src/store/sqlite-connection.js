/**
 * One SQLite connection as the service opens it, on the main thread as in the writer thread
 * (`sqlite-writer-thread.js`): the settings every connection needs, and its prepared
 * statements reused. Plain JavaScript on purpose: worker threads start without the TypeScript
 * loader the tests run under, so this file must run as it is, from `src` as from `dist`
 * (types: `sqlite-connection.d.ts`).
 */
import SQLite from 'better-sqlite3';

/** Distinct SQL texts kept; `IN (?, ?, …)` lists make one text per list length. */
const MAX_STATEMENTS = 512;

/**
 * Opens `file` (which exists, in WAL mode once any connection set it). Writes are fsynced on
 * every commit (`synchronous=FULL`): an accepted message survives a power cut (SQLite docs,
 * "WAL mode" §4). `readOnly` connections refuse any write (`query_only`), so a statement sent
 * to the wrong connection fails instead of writing beside the writer.
 *
 * @param {string} file
 * @param {{ readOnly?: boolean }} [options]
 * @returns {SQLite.Database}
 */
export function openConnection(file, options = {}) {
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI and the server may write the same file: wait for the lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  if (options.readOnly) sqlite.pragma('query_only = ON');
  return sqlite;
}

/**
 * `sqlite.prepare` with the statements kept by SQL text: preparing costs as much as running a
 * point select, and the hot paths (auth, status, a batch's inserts) repeat the same texts.
 *
 * @param {SQLite.Database} sqlite
 * @returns {(sql: string) => SQLite.Statement}
 */
export function statementCache(sqlite) {
  /** @type {Map<string, SQLite.Statement>} */
  const cache = new Map();
  return (sql) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = sqlite.prepare(sql);
      if (cache.size >= MAX_STATEMENTS) cache.delete(/** @type {string} */ (cache.keys().next().value));
      cache.set(sql, statement);
    }
    return statement;
  };
}
