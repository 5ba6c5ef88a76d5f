import type { Kysely } from 'kysely';

/**
 * Verification state: when each domain is next checked (and by whom), what each record's
 * last check saw, and the history of every status change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('next_check_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('domains').addColumn('last_checked_at', 'bigint').execute();
  await db.schema
    .alterTable('domains')
    .addColumn('check_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  /** A check in progress holds the domain until then, so no other worker or process checks it too. */
  await db.schema.alterTable('domains').addColumn('claimed_until', 'bigint').execute();
  await db.schema.createIndex('domains_next_check').on('domains').column('next_check_at').execute();

  for (const [column, type] of [
    ['reason', 'text'],
    ['found', 'text'],
    ['detail', 'text'],
    ['checked_at', 'bigint'],
    ['missing_since', 'bigint'],
    ['verified_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('domain_records').addColumn(column, type).execute();
  }

  await db.schema
    .createTable('status_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('domain_id', 'text', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    /** The record's position, or null for the domain's own status. */
    .addColumn('position', 'integer')
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('found', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('status_history_domain_at')
    .on('status_history')
    .columns(['domain_id', 'at'])
    .execute();
}
