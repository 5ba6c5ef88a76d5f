import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Listing sent mail by tag (issue 37, `GET /api/public/emails?tag=…&tagValue=…`): each
 * message's tags also as rows, so a filter is an index range led by the account, newest first,
 * whatever the account's volume. `emails.tags` (JSON) stays what messages are read with.
 *
 * Two indexes: by name and value (the usual filter, `campaign = black-friday`), and by name
 * alone (every message with a `campaign`), each ordered as the listing pages. Existing
 * messages get their rows from their JSON here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_tags')
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_tags_pk', ['email_id', 'name', 'value'])
    .execute();
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await (postgres
    ? sql`insert into email_tags (email_id, account_id, name, value, created_at)
        select distinct e.id, e.account_id, t.tag->>'name', t.tag->>'value', e.created_at
        from emails e cross join lateral jsonb_array_elements(e.tags::jsonb) as t(tag)`
    : sql`insert or ignore into email_tags (email_id, account_id, name, value, created_at)
        select e.id, e.account_id, json_extract(t.value, '$.name'), json_extract(t.value, '$.value'), e.created_at
        from emails e, json_each(e.tags) t`
  ).execute(db);
  await db.schema
    .createIndex('email_tags_account_name_value')
    .on('email_tags')
    .columns(['account_id', 'name', 'value', 'created_at', 'email_id'])
    .execute();
  await db.schema
    .createIndex('email_tags_account_name')
    .on('email_tags')
    .columns(['account_id', 'name', 'created_at', 'email_id'])
    .execute();
}
