import type { Kysely } from 'kysely';

/**
 * The customer's DNS provider (issue 23), as the last check named it from the zone's NS
 * records: an id of `domain/dns-providers.ts`, or `null` (not known yet, or no provider we
 * know). An id no longer in that list reads as `null`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('dns_provider', 'text').execute();
}
