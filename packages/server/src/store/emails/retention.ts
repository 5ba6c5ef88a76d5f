/**
 * Retention (`EMAIL_RETENTION_DAYS`, issue 37): message bodies dropped after a while, messages
 * and their events later.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../tables.js';

/**
 * Retention, up to `limit` messages per statement: the bodies of settled messages created
 * before `bodiesBefore` are emptied, and settled messages created before `messagesBefore` are
 * deleted with their recipients, events and tags (by cascade). A message still waiting
 * (scheduled, queued, deferred) keeps everything whatever its age. Returns the larger count,
 * so the caller goes on while a statement had a full batch.
 */
export async function prune(
  db: Kysely<Database>,
  bodiesBefore: number,
  messagesBefore: number,
  at: number,
  limit: number,
): Promise<number> {
  const settled = ['sent', 'bounced', 'failed', 'canceled'];
  const bodies = await db
    .updateTable('emails')
    .set({ message: '', content_deleted_at: at })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('emails')
        .select('id')
        .where('created_at', '<', bodiesBefore)
        .where('content_deleted_at', 'is', null)
        .where('status', 'in', settled)
        .limit(limit),
    )
    .executeTakeFirst();
  const messages = await db
    .deleteFrom('emails')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('emails')
        .select('id')
        .where('created_at', '<', messagesBefore)
        .where('status', 'in', settled)
        .limit(limit),
    )
    .executeTakeFirst();
  return Math.max(Number(bodies.numUpdatedRows), Number(messages.numDeletedRows));
}
