import type { Kysely } from 'kysely';

/**
 * The development sandbox's capture inbox (issue 40): each message "sent" to a `sandbox.test`
 * address outside production mode, as it would have left (signed), with mailauth's verdicts.
 * One row per envelope recipient (its id is the recipient's); rows go with their message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    /** The message as it would have left: signed, with its per-recipient headers. */
    .addColumn('message', 'text', (c) => c.notNull())
    /** mailauth's SPF, DKIM and DMARC verdicts (JSON). */
    .addColumn('authentication', 'text', (c) => c.notNull())
    .addColumn('captured_at', 'bigint', (c) => c.notNull())
    .execute();
  // The inbox newest first, a page at a time (the id breaks ties within a millisecond).
  await db.schema
    .createIndex('sandbox_messages_account')
    .on('sandbox_messages')
    .columns(['account_id', 'captured_at', 'id'])
    .execute();
}
