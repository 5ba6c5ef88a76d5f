import type { Kysely } from 'kysely';

/**
 * Saved email templates and uploaded images, per account (issue 7). Numbers 0002 and 0003
 * belong to DNS verification and hosted DKIM keys, which land in parallel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Listing is newest first per account, paged by (updated_at, id).
  await db.schema
    .createIndex('templates_account_updated')
    .on('templates')
    .columns(['account_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('ext', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('images_pk', ['account_id', 'hash'])
    .execute();
}
