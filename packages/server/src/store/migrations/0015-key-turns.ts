import { type Kysely, sql } from 'kysely';

/**
 * Accounts take turns at the key generator (issue 33), however long one account's queue is.
 *
 * - `accounts.key_turn_at`: the account's key clock. Each domain it registers takes the next
 *   turn, `KEY_TURN_MS` after the one before (or now, when the clock is behind), and moves it on;
 * - `dkim_key_queue.turn_at`: the domain's turn, shared by its three tokens. The generator makes
 *   keys in turn order, so a burst of a hundred thousand registrations has turns days ahead and
 *   another account's next registration (its turn now) is made before almost all of them.
 *   `queued_at` stays the real time of queueing.
 *
 * Queued tokens keep their order: their turn is their queueing time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('key_turn_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('dkim_key_queue')
    .addColumn('turn_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update dkim_key_queue set turn_at = queued_at`.execute(db);
  await db.schema.dropIndex('dkim_key_queue_order').execute();
  await db.schema
    .createIndex('dkim_key_queue_turn')
    .on('dkim_key_queue')
    .columns(['turn_at', 'token'])
    .execute();
}
