/**
 * One message as its account reads it: its recipients and events, its content, its domain.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../tables.js';
import type { EmailEventType, RecipientKind, RecipientStatus, StoredEmail } from './types.js';

/** The stored MIME message of one of the account's messages, with its subject. */
export async function content(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<{ subject: string; message: string; domainId: string; deletedAt: number | null } | undefined> {
  const row = await db
    .selectFrom('emails')
    .select(['subject', 'message', 'domain_id', 'content_deleted_at'])
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return (
    row && {
      subject: row.subject,
      message: row.message,
      domainId: row.domain_id,
      deletedAt: row.content_deleted_at === null ? null : Number(row.content_deleted_at),
    }
  );
}

/** The sending registration's id of one of the account's messages, or `undefined`. */
export async function domainOf(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('emails')
    .select('domain_id')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.domain_id;
}

/**
 * Read as one snapshot (repeatable read on PostgreSQL; a read transaction on SQLite), so an
 * attempt committing between the reads never shows a recipient still `sending` beside its
 * `delivered` event.
 */
export async function get(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  accountId: string,
  id: string,
): Promise<StoredEmail | undefined> {
  const transaction = db.transaction();
  const snapshot = kind === 'postgres' ? transaction.setIsolationLevel('repeatable read') : transaction;
  return snapshot.execute(async (trx) => {
    const email = await trx
      .selectFrom('emails')
      .select([
        'id',
        'from_address',
        'subject',
        'tags',
        'created_at',
        'scheduled_at',
        'domain_id',
        'tracking',
      ])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (email === undefined) return undefined;
    const [recipients, events] = await Promise.all([
      trx
        .selectFrom('email_recipients')
        .select(['id', 'address', 'kind', 'status', 'attempts', 'next_attempt_at'])
        .where('email_id', '=', id)
        .orderBy('position')
        .execute(),
      trx
        .selectFrom('email_events')
        .select([
          'type',
          'address',
          'smtp_code',
          'smtp_text',
          'mx_host',
          'bounce_type',
          'url',
          'machine',
          'at',
        ])
        .where('email_id', '=', id)
        .orderBy('at')
        // One attempt's `sent` and `delivered` share their time: sent first.
        .orderBy(sql`case type when 'sent' then 0 when 'delivered' then 1 else 2 end`)
        .execute(),
    ]);
    return {
      id: email.id,
      fromAddress: email.from_address,
      subject: email.subject,
      tags: JSON.parse(email.tags),
      createdAt: Number(email.created_at),
      scheduledAt: email.scheduled_at === null ? null : Number(email.scheduled_at),
      tracking: (email.tracking?.split(',') ?? []) as StoredEmail['tracking'],
      domainId: email.domain_id,
      recipients: recipients.map((r) => ({
        id: r.id,
        address: r.address,
        kind: r.kind as RecipientKind,
        status: r.status as RecipientStatus,
        attempts: Number(r.attempts),
        nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
      })),
      events: events.map((e) => ({
        type: e.type as EmailEventType,
        address: e.address,
        smtpCode: e.smtp_code,
        smtpText: e.smtp_text,
        mxHost: e.mx_host,
        bounceType: e.bounce_type,
        url: e.url,
        machine: e.machine,
        at: Number(e.at),
      })),
    };
  });
}
