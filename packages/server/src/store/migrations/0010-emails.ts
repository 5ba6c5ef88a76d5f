import { type Kysely, sql } from 'kysely';

/**
 * Sending (issue 21): accepted messages, one queue entry per recipient, what happened to each
 * attempt, and the addresses an account may no longer send to.
 *
 * - `emails`: the message as accepted, its MIME text built once (Message-ID and Date fixed at
 *   acceptance) and DKIM-signed at each attempt (the active selector may change between
 *   attempts). `idempotency_key` is unique per account; `request_hash` tells a retry of the
 *   same request from a different request reusing the key.
 * - `email_recipients`: the queue. One row per envelope recipient with its own status, back-off
 *   and lease, claimed as webhook deliveries are (`SKIP LOCKED` on PostgreSQL).
 * - `email_events`: each attempt's outcome per recipient (SMTP code and text, MX host).
 * - `suppressions`: hard-bounced addresses per account; later sends to them are refused per
 *   recipient.
 * - `email_rate`: each account's messages in the current minute (`MAX_EMAILS_PER_MINUTE`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain_id', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    /** The MIME message without its DKIM signature. */
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The per-account sending rate: an account's recent messages.
  await db.schema
    .createIndex('emails_account_created')
    .on('emails')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('emails_idempotency')
    .on('emails')
    .columns(['account_id', 'idempotency_key'])
    .unique()
    .where(sql.ref('idempotency_key'), 'is not', null)
    .execute();

  await db.schema
    .createTable('email_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    /** The address's place in the request (to, then cc, then bcc). */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    /** `to`, `cc` or `bcc`. */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** `queued`, `sending`, `sent`, `deferred`, `bounced`, `failed`, `suppressed`. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claimed_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_recipients_email').on('email_recipients').column('email_id').execute();
  // The queue: only rows still to attempt (partial), by due time.
  await db.schema
    .createIndex('email_recipients_due')
    .on('email_recipients')
    .column('next_attempt_at')
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('email_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email_id', 'text', (c) => c.notNull().references('emails.id').onDelete('cascade'))
    .addColumn('recipient_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    /** `sent`, `delivered`, `deferred`, `bounced`, `failed`, `suppressed`. */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('smtp_code', 'integer')
    .addColumn('smtp_text', 'text')
    .addColumn('mx_host', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_events_email').on('email_events').columns(['email_id', 'at']).execute();

  // The per-account sending rate: one row per account, its current minute and its count.
  await db.schema
    .createTable('email_rate')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('suppressions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('suppressions_pk', ['account_id', 'address'])
    .execute();
}
