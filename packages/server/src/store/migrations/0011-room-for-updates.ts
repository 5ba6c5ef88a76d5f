import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Issue 19: room on each PostgreSQL page for the updates every check makes.
 *
 * A domain row is updated by every claim (`claimed_until`) and every check, and its records by
 * every check, in columns no index covers. PostgreSQL can then keep the new version on the
 * same page without touching any index (a heap-only tuple), but only if the page has room, and
 * tables fill their pages completely by default. With 15 % left free, the claim of 1,000 due
 * domains at a million domains went from 17–64 ms to 8–21 ms for its update.
 *
 * Applies to pages written from now on; an existing table gets it page by page as rows move
 * (or at once with `VACUUM FULL`). SQLite has no such setting.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table domains set (fillfactor = 85)`.execute(db);
  await sql`alter table domain_records set (fillfactor = 85)`.execute(db);
}
