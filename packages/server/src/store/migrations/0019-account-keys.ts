import type { Kysely } from 'kysely';

/** An account's API keys, listed through the API and the dashboard (issue 40). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('api_keys_account')
    .on('api_keys')
    .columns(['account_id', 'created_at'])
    .execute();
}
