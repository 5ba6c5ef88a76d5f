import { type Kysely, sql } from 'kysely';

/**
 * Webhooks (issue 20): an account's endpoints, the outbox of domain events, and one delivery
 * per event and endpoint.
 *
 * - `webhook_endpoints.secret_enc`: the signing secret sealed with `SECRET_KEY`, as DKIM private
 *   keys are (`dkim/secret-box.ts`): signing needs the secret itself, so it cannot be hashed.
 * - `webhook_events`: written in the transaction of the change that causes the event, with a
 *   JSON snapshot of the domain as it was then, so a crash loses nothing and the body describes
 *   the state at the event, not at delivery.
 * - `webhook_deliveries`: written in the same transaction, one per subscribed endpoint. They
 *   carry the event's stream (its domain or message) and order (`seq`), so the claim can keep
 *   the order per stream with one index, and a lease (`claimed_until`) so several processes deliver each once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    /** Comma-separated event types. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    /** Since when every attempt to this endpoint has failed; `null` after any success. */
    .addColumn('failing_since', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_account')
    .on('webhook_endpoints')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    /** What the event is about, its order kept per endpoint: a domain's id, or a message's. */
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** `{domain: StoredDomain, previous}` as JSON: the state the event describes. */
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('stream', 'text', (c) => c.notNull())
    /** The event's order within its stream: its time in ms × 16 + its place in its transaction. */
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Both indexes hold open deliveries only (partial), so they stay the size of the backlog
  // however many deliveries are kept settled. The claim: open deliveries by due time. The order:
  // the head of each endpoint's and domain's queue, `(seq, id)` first.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('delivered_at'), 'is', null)
    .where(sql.ref('failed_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_order')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'stream', 'seq', 'id'])
    .where(sql.ref('delivered_at'), 'is', null)
    .where(sql.ref('failed_at'), 'is', null)
    .execute();
  // Retention: old events by time; their deliveries by event (and for the cascade).
  await db.schema.createIndex('webhook_events_created').on('webhook_events').column('created_at').execute();
  await db.schema
    .createIndex('webhook_deliveries_event')
    .on('webhook_deliveries')
    .column('event_id')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute();
}
