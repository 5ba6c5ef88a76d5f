import type { Kysely } from 'kysely';

/**
 * Since when a record's checks have failed without a definitive answer (issue 14): an error
 * that persists on every check for an hour is the customer's DNS to fix, not a passing outage.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domain_records').addColumn('error_since', 'bigint').execute();
}
