import type { Kysely } from 'kysely';

/**
 * The zone a domain's records belong to, as DNS shows it (issue 14): found from the zone cut at
 * each check; `null` until then, when record names are relative to the registrable domain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('zone', 'text').execute();
}
