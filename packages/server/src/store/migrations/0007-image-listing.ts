import type { Kysely } from 'kysely';

/**
 * Images can be listed and deleted (issue 15): an account's images newest first, and whether
 * any account still holds a file's content before the file is removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('images_account_created')
    .on('images')
    .columns(['account_id', 'created_at', 'hash'])
    .execute();
  await db.schema.createIndex('images_hash').on('images').column('hash').execute();
}
