import type { Kysely } from 'kysely';

/**
 * Scheduled sending (issue 37, `scheduledAt`): the time a message was asked to go, shown by
 * `GET /api/public/emails/{id}` and moved by `PATCH`. The sending queue needs nothing new: a
 * scheduled message's recipients wait with `status = 'scheduled'` and `next_attempt_at` at that
 * time, so the sender's claim (by `next_attempt_at`) takes them when they are due, once, in
 * whichever process, after any restart. `null` for a message sent at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('scheduled_at', 'bigint').execute();
}
