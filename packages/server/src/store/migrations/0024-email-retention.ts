import type { Kysely } from 'kysely';

/**
 * Retention of sent mail (issue 37, `EMAIL_RETENTION_DAYS`, `EMAIL_EVENT_RETENTION_DAYS`): a
 * settled message's body is emptied after the first (`content_deleted_at` says when, so its
 * content route can say it is gone rather than show nothing), and the message with its
 * recipients, events and tags is deleted after the second. The sender's hourly pass finds them
 * by creation time, across every account: an index on it alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('content_deleted_at', 'bigint').execute();
  await db.schema.createIndex('emails_created').on('emails').column('created_at').execute();
}
