import { type Kysely, sql } from 'kysely';

/**
 * Two things that cost a scan of every domain of an account, or of every record, once an
 * account holds a million domains (issue 19):
 *
 * - `accounts.domain_count`: registration checked the account's limit with `count(*)` over its
 *   domains (~100 ms at 1M on PostgreSQL). The count is now kept on the account row, changed in
 *   the transaction that registers or deletes, so it is exact and costs one row.
 * - `dkim_key_queue`: the key generator found tokens without a key by an anti-join of every
 *   DKIM record with every key (25–32 s at 1M). A token waiting for its key now has a row here,
 *   added with the record and removed with the key's insert; a deleted domain takes its rows
 *   along (cascade from the record's token).
 * - `dkim_keys.changed_at` and `dkim_key_deletions`: every process's DNS zone reloaded every
 *   key whenever one changed (3M keys at 1M domains). It now reads what changed since its last
 *   look: keys stored or revoked (`changed_at`, indexed) and keys deleted with their domain
 *   (tombstones, written by the deletion, kept a day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('domain_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update accounts set domain_count = (select count(*) from domains where domains.account_id = accounts.id)`.execute(
    db,
  );

  await db.schema
    .createTable('dkim_key_queue')
    .addColumn('token', 'text', (c) => c.primaryKey().references('domain_records.token').onDelete('cascade'))
    /** When the token's domain was registered: keys are made oldest registration first. */
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dkim_key_queue_order')
    .on('dkim_key_queue')
    .columns(['queued_at', 'token'])
    .execute();
  await sql`
    insert into dkim_key_queue (token, queued_at)
    select r.token, d.created_at
    from domain_records r
    join domains d on d.id = r.domain_id
    where r.kind = 'dkim' and r.token is not null
      and not exists (select 1 from dkim_keys k where k.token = r.token)
  `.execute(db);

  await db.schema
    .alterTable('dkim_keys')
    .addColumn('changed_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update dkim_keys set changed_at = coalesce(revoked_at, created_at)`.execute(db);
  await db.schema.createIndex('dkim_keys_changed').on('dkim_keys').column('changed_at').execute();

  await db.schema
    .createTable('dkim_key_deletions')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dkim_key_deletions_at')
    .on('dkim_key_deletions')
    .column('deleted_at')
    .execute();
}
