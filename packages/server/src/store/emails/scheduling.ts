/**
 * Scheduled messages (issue 37): cancelled, or moved, while still scheduled.
 */
import type { Kysely } from 'kysely';
import { withDate } from '../../email/message-content.js';
import { newId } from '../ids.js';
import type { Database } from '../tables.js';
import { refreshStatus } from './message-status.js';

/**
 * Cancel a scheduled message: its recipients still waiting become `canceled` (with an event
 * each) and are never claimed. Each recipient changes only from `scheduled`, in one statement
 * the sender's claim cannot interleave with: a recipient is either claimed or canceled.
 * `not_scheduled` when none was still waiting (sending began, or it was sent at once).
 */
export async function cancel(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  accountId: string,
  id: string,
  at: number,
): Promise<'canceled' | 'not_found' | 'not_scheduled'> {
  return db.transaction().execute(async (trx) => {
    const email = await scheduledRow(kind, trx, accountId, id);
    if (email === undefined) return 'not_found';
    const canceled = await trx
      .updateTable('email_recipients')
      .set({ status: 'canceled', next_attempt_at: null, updated_at: at })
      .where('email_id', '=', id)
      .where('status', '=', 'scheduled')
      .returning(['id', 'address'])
      .execute();
    if (canceled.length === 0) return 'not_scheduled';
    await trx
      .insertInto('email_events')
      .values(
        canceled.map((r) => ({
          id: newId('eev'),
          email_id: id,
          recipient_id: r.id,
          address: r.address,
          type: 'canceled',
          smtp_code: null,
          smtp_text: 'the scheduled message was canceled before it was sent',
          mx_host: null,
          bounce_type: null,
          at,
        })),
      )
      .execute();
    await refreshStatus(trx, id, kind);
    return 'canceled';
  });
}

/**
 * Move a scheduled message to `scheduledAt`, if none of its recipients was taken for sending
 * yet (the same single-statement guard as {@link cancel}).
 */
export async function reschedule(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  accountId: string,
  id: string,
  scheduledAt: number,
  at: number,
): Promise<'rescheduled' | 'not_found' | 'not_scheduled'> {
  return db.transaction().execute(async (trx) => {
    const email = await scheduledRow(kind, trx, accountId, id);
    if (email === undefined) return 'not_found';
    const moved = await trx
      .updateTable('email_recipients')
      .set({ next_attempt_at: scheduledAt, updated_at: at })
      .where('email_id', '=', id)
      .where('status', '=', 'scheduled')
      .returning('id')
      .execute();
    if (moved.length === 0) return 'not_scheduled';
    const { message } = await trx
      .selectFrom('emails')
      .select('message')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('emails')
      .set({ scheduled_at: scheduledAt, message: withDate(message, scheduledAt) })
      .where('id', '=', id)
      .execute();
    return 'rescheduled';
  });
}

/**
 * The account's message, its row locked on PostgreSQL as {@link refreshStatus} locks it, so a
 * cancel and a move of one message take turns.
 */
async function scheduledRow(
  kind: 'sqlite' | 'postgres',
  trx: Kysely<Database>,
  accountId: string,
  id: string,
) {
  let query = trx.selectFrom('emails').select('id').where('id', '=', id).where('account_id', '=', accountId);
  if (kind === 'postgres') query = query.forNoKeyUpdate();
  return query.executeTakeFirst();
}
