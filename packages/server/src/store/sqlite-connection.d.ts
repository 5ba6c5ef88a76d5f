/** Types of `sqlite-connection.js` (plain JavaScript: it runs on the SQLite writer thread too). */
import type { Database, Statement } from 'better-sqlite3';

/** Opens `file` with the service's settings; `readOnly` refuses every write (`query_only`). */
export declare function openConnection(file: string, options?: { readOnly?: boolean }): Database;
/** `sqlite.prepare` with the statements kept by SQL text. */
export declare function statementCache(sqlite: Database): (sql: string) => Statement;
