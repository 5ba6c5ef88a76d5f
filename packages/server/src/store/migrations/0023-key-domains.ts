import type { Kysely } from 'kysely';

/**
 * Keys limited to sending from some domains (issue 37, Resend's "sending access" for one
 * domain): `api_keys.domains` holds the domain names (JSON array, lower-case, as registered),
 * `null` for a key not limited. A platform hands such a key to its customer: it sends only
 * from the customer's domains and reads only their messages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('domains', 'text').execute();
}
