import { type Kysely, sql } from 'kysely';

/**
 * Every DNS provider serving a domain's zone (issue 36), not only the one most of its name
 * servers belong to: a zone served by Cloudflare and Route 53 needs the records at both.
 *
 * `domains.dns_providers`: ids of `domain/dns-providers.ts`, comma-separated, most name servers
 * first, as the last check named them; `null` when none is known. Existing rows get the one id
 * `dns_provider` held, and their next check names the others.
 *
 * `dns_provider` is no longer read or written, and stays: a process of the previous version
 * still running during an upgrade reads and writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('dns_providers', 'text').execute();
  await sql`update domains set dns_providers = dns_provider where dns_provider is not null`.execute(db);
}
