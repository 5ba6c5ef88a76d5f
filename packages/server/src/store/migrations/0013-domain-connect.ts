import type { Kysely } from 'kysely';

/**
 * Domain Connect (issue 23):
 * - `domains.domain_connect`: what the last check found about the zone's DNS provider and
 *   Domain Connect (JSON: provider name, sync URL, supported, why not, the signed apply URL);
 * - `service_keys`: keys of the service itself, sealed under `SECRET_KEY` like DKIM keys; one
 *   row, `domain-connect`, the key apply URLs are signed with (every process signs with it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('domain_connect', 'text').execute();
  await db.schema
    .createTable('service_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
