import type { Kysely } from 'kysely';

/**
 * Open and click tracking (issue 37):
 * - `emails.tracking`: what was tracked in the message (`opens`, `clicks` or `opens,clicks`),
 *   decided when it was accepted; `null` for none. The sender personalises a tracked message's
 *   links and pixel per recipient.
 * - `email_events.url`: the link a `clicked` event followed.
 * - `email_events.machine`: why an `opened` or `clicked` event was not a person's (Apple Mail
 *   Privacy Protection, a security scanner…); `null` when nothing says so.
 * - `certificates`: the tracking hosts' certificates from ACME, their pending challenges and
 *   the ACME account key (`store/certificate-store.ts`), shared by every process; private keys
 *   encrypted under `SECRET_KEY`.
 * - `domains_name`: a TLS handshake names a tracking host; whether it is one of ours is read by
 *   the domain's name, across accounts, so that lookup is an index's, at a million domains too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('tracking', 'text').execute();
  await db.schema.alterTable('email_events').addColumn('url', 'text').execute();
  await db.schema.alterTable('email_events').addColumn('machine', 'text').execute();
  await db.schema
    .createTable('certificates')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_name').on('domains').column('name').execute();
}
