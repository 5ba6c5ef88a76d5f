import type { Kysely } from 'kysely';
import { createMigrationBackfills } from './0014-dkim-rotation.js';

/**
 * `migration_backfills` on databases that ran migration 0014 when it still filled the key
 * roles itself (issue 39): they have nothing to fill, but readers look the table up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createMigrationBackfills(db);
}
