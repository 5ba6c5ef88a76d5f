/**
 * Accepting messages (issue 21): a message, or a batch of them, and their recipients in one
 * transaction, so an answer of `queued` means nothing can be lost; Idempotency-Keys; the
 * account's per-minute submission count.
 */
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import { emailStatus } from '../../email/status.js';
import { newId } from '../ids.js';
import type { Database } from '../tables.js';
import type { IdempotentEmail, NewEmail } from './types.js';

/** The reused key's first request differs from this one. */
export class IdempotencyConflict extends Error {}

/**
 * Count one submission in the account's current minute (`windowStart`) and return the count
 * so far: one upsert on one row per account, atomic across processes, whatever the volume.
 */
export async function countSubmission(
  db: Kysely<Database>,
  accountId: string,
  windowStart: number,
  messages = 1,
): Promise<number> {
  const row = await db
    .insertInto('email_rate')
    .values({ account_id: accountId, window_start: windowStart, count: messages })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet({
        count: sql`case when email_rate.window_start = excluded.window_start then email_rate.count + excluded.count else excluded.count end`,
        window_start: sql`excluded.window_start`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The message accepted earlier under this idempotency key, if any. */
export async function findByIdempotencyKey(
  db: Kysely<Database>,
  accountId: string,
  key: string,
): Promise<IdempotentEmail | undefined> {
  return (await findByIdempotencyKeys(db, accountId, [key]))[0];
}

/** The messages stored under any of `keys` (a batch's entries), in no particular order. */
export async function findByIdempotencyKeys(
  db: Kysely<Database>,
  accountId: string,
  keys: string[],
): Promise<IdempotentEmail[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('emails')
    .select(['id', 'request_hash', 'scheduled_at'])
    .where('account_id', '=', accountId)
    .where('idempotency_key', 'in', keys)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    requestHash: row.request_hash,
    scheduledAt: row.scheduled_at === null ? null : Number(row.scheduled_at),
  }));
}

/**
 * Store the message, its recipients (suppressed ones settled at once, with their event) in
 * one transaction. With an idempotency key already used, answers the earlier message's id
 * (same request) or throws {@link IdempotencyConflict} (another request).
 */
export async function accept(
  db: Kysely<Database>,
  email: NewEmail,
): Promise<{ id: string; created: boolean }> {
  try {
    await db.transaction().execute((trx) => insertEmails(trx, [email]));
    return { id: email.id, created: true };
  } catch (error) {
    // Two requests with one key at once: the unique index let one in; answer as it answered.
    if (email.idempotencyKey === null) throw error;
    const earlier = await findByIdempotencyKey(db, email.accountId, email.idempotencyKey);
    if (earlier === undefined) throw error;
    if (earlier.requestHash !== email.requestHash) throw new IdempotencyConflict();
    return { id: earlier.id, created: false };
  }
}

/**
 * Several messages in one transaction (a batch): one durable write for all. When it fails
 * (an Idempotency-Key taken meanwhile by another request), each is stored on its own, so one
 * entry's conflict is that entry's ({@link IdempotencyConflict} in its place).
 */
export async function acceptMany(
  db: Kysely<Database>,
  emails: NewEmail[],
): Promise<({ id: string; created: boolean } | IdempotencyConflict)[]> {
  try {
    await db.transaction().execute((trx) => insertEmails(trx, emails));
    return emails.map((e) => ({ id: e.id, created: true }));
  } catch (error) {
    if (emails.every((e) => e.idempotencyKey === null)) throw error;
    const outcomes: ({ id: string; created: boolean } | IdempotencyConflict)[] = [];
    for (const email of emails)
      outcomes.push(
        await accept(db, email).catch((e: unknown) =>
          e instanceof IdempotencyConflict ? e : Promise.reject(e),
        ),
      );
    return outcomes;
  }
}

/**
 * Messages' rows: each message, its recipients, its tags, and a `suppressed` event for each
 * recipient suppressed. A few multi-row statements for all of them (a batch of 100 was 400
 * statements, each a pass through the query builder, run back to back on SQLite's one thread).
 */
async function insertEmails(trx: Transaction<Database>, emails: readonly NewEmail[]): Promise<void> {
  const messages: Insertable<Database['emails']>[] = [];
  const recipients: Insertable<Database['email_recipients']>[] = [];
  const tags: Insertable<Database['email_tags']>[] = [];
  const events: Insertable<Database['email_events']>[] = [];
  for (const email of emails) {
    const waiting = email.scheduledAt === null ? 'queued' : 'scheduled';
    messages.push({
      id: email.id,
      account_id: email.accountId,
      domain_id: email.domainId,
      from_address: email.fromAddress,
      subject: email.subject,
      message: email.message,
      tags: JSON.stringify(email.tags),
      idempotency_key: email.idempotencyKey,
      request_hash: email.requestHash,
      created_at: email.createdAt,
      scheduled_at: email.scheduledAt,
      tracking: email.tracking ?? null,
      status: emailStatus(email.recipients.map((r) => (r.suppressed ? 'suppressed' : waiting))),
    });
    email.recipients.forEach((r, position) => {
      const id = newId('rcp');
      recipients.push({
        id,
        email_id: email.id,
        position,
        address: r.address,
        kind: r.kind,
        status: r.suppressed ? 'suppressed' : waiting,
        next_attempt_at: r.suppressed ? null : (email.scheduledAt ?? email.createdAt),
        updated_at: email.createdAt,
      });
      if (r.suppressed)
        events.push({
          id: newId('eev'),
          email_id: email.id,
          recipient_id: id,
          address: r.address,
          type: 'suppressed',
          smtp_code: null,
          smtp_text: 'the address is on the account’s suppression list',
          mx_host: null,
          bounce_type: null,
          at: email.createdAt,
        });
    });
    for (const t of new Map(email.tags.map((t) => [JSON.stringify([t.name, t.value]), t])).values())
      tags.push({
        email_id: email.id,
        account_id: email.accountId,
        name: t.name,
        value: t.value,
        created_at: email.createdAt,
      });
  }
  await insertRows(trx, 'emails', messages);
  await insertRows(trx, 'email_recipients', recipients);
  await insertRows(trx, 'email_tags', tags);
  await insertRows(trx, 'email_events', events);
}

/** Rows per statement: within SQLite's 32,766 bound parameters (and PostgreSQL's 65,535) at 14 columns. */
const ROWS_PER_INSERT = 1_000;

async function insertRows<T extends 'emails' | 'email_recipients' | 'email_tags' | 'email_events'>(
  trx: Transaction<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
      .execute();
}
