import type { Kysely } from 'kysely';

/**
 * Hosted DKIM keys (issue 4): one key pair per DKIM selector token, and the serial of the
 * provider zone `dkim.<DKIM_PROVIDER_HOST>` that serves their public halves.
 *
 * `dkim_keys.token` references `domain_records.token` with ON DELETE CASCADE, so deleting a
 * domain (which cascades to its records) destroys its keys in the same statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dkim_keys')
    .addColumn('token', 'text', (c) => c.primaryKey().references('domain_records.token').onDelete('cascade'))
    // Base64 DER SubjectPublicKeyInfo: the `p=` value of the key record (RFC 6376 §3.6.1).
    .addColumn('public_key', 'text', (c) => c.notNull())
    // PKCS#8 DER under AES-256-GCM with SECRET_KEY (see dkim/secret-box.ts).
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Set when the key is revoked: the zone then publishes `p=` empty (RFC 6376 §3.6.1).
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('dkim_zone')
    .addColumn('zone', 'text', (c) => c.primaryKey())
    // RFC 1035 §3.3.13 SOA SERIAL, raised whenever the published content changes.
    .addColumn('serial', 'bigint', (c) => c.notNull())
    // SHA-256 of the published records, so every process agrees whether content changed.
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
