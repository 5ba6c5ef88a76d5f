/**
 * Empty databases for migration tests, on either backend: a SQLite file in a directory of its
 * own, or a fresh database in one PostgreSQL server per test file (the run's shared cluster
 * when `TEST_DATABASE_URL` is set). `stop()` in `after()` removes them all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { type PostgresServer, startPostgres, testPool } from './postgres.js';

export function migrationDatabases(prefix: string) {
  let postgres: PostgresServer | undefined;
  const dirs: string[] = [];
  return {
    async open(backend: 'sqlite' | 'postgres'): Promise<Kysely<unknown>> {
      if (backend === 'sqlite') {
        const dir = mkdtempSync(path.join(tmpdir(), prefix));
        dirs.push(dir);
        return new Kysely({
          dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }),
        });
      }
      postgres ??= await startPostgres();
      const pool = testPool(await postgres.createDatabase(), 2);
      return new Kysely({ dialect: new PostgresDialect({ pool }) });
    },
    async stop(): Promise<void> {
      await postgres?.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
