import { type Kysely, sql } from 'kysely';

/**
 * Listing sent mail (issue 37, `GET /api/public/emails`): each message keeps its status
 * (`email/status.ts`, from its recipients'), so a page filtered by status is an index range
 * and not a computation over every message of the account. Existing messages get theirs from
 * their recipients here, by the same rules.
 *
 * Indexes, each led by the account, newest first within it: by status, and by sending domain;
 * a recipient's messages are found from the recipient rows by address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('emails')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .execute();
  const live = (statuses: string) =>
    sql.raw(
      `exists (select 1 from email_recipients r where r.email_id = emails.id and r.status in (${statuses}))`,
    );
  await sql`
    update emails set status = case
      when not ${live("'queued','sending','sent','deferred','bounced','failed'")} then 'failed'
      when not ${live("'sending','sent','deferred','bounced','failed'")} then 'queued'
      when ${live("'queued','sending'")} then 'sending'
      when ${live("'deferred'")} then 'deferred'
      when ${live("'sent'")} then 'sent'
      when ${live("'bounced'")} then 'bounced'
      else 'failed' end`.execute(db);
  await db.schema
    .createIndex('emails_account_status_created')
    .on('emails')
    .columns(['account_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('emails_account_domain_created')
    .on('emails')
    .columns(['account_id', 'domain_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('email_recipients_address')
    .on('email_recipients')
    .columns(['address', 'email_id'])
    .execute();
}
