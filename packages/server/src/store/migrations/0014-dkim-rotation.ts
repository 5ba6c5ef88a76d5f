import { type Kysely, sql } from 'kysely';

/**
 * Automatic DKIM rotation (issue 23). A domain's three selectors take turns: one `active`
 * (signing), one `next` (its key published, waiting), one `retired` (its key still published
 * for mail in flight). The role lives with the selector, on its `domain_records` row, beside
 * the time its key was made, so a status read finds them with the records it already loads.
 *
 * - `domain_records.key_state`: `active`, `next`, `retired`, or `null` (no key yet);
 * - `domain_records.key_state_since`: when the selector took that role; for `next`, when its
 *   key was seen served everywhere we serve (`null` until then);
 * - `domain_records.key_created_at`: when its current key was made;
 * - `domains.dkim_rotate_at`: when the rotation worker looks at the domain next (indexed: the
 *   worker claims due domains by it); `null`: nothing to do until a key exists;
 * - `domains.dkim_rotated_at`: the last switch of the active selector;
 * - `domains.dkim_next_rotation_at`: when the next switch is planned (shown to the customer);
 * - `domains.dkim_rotation_requested_at`: a rotation asked for through the API, not yet done.
 *
 * Existing keys: the first selector is active, the others next (published since they were
 * made), a revoked key retired; every domain with keys is due, so the worker plans each once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['key_state_since', 'key_created_at'])
    await db.schema.alterTable('domain_records').addColumn(column, 'bigint').execute();
  await db.schema.alterTable('domain_records').addColumn('key_state', 'text').execute();
  for (const column of [
    'dkim_rotate_at',
    'dkim_rotated_at',
    'dkim_next_rotation_at',
    'dkim_rotation_requested_at',
  ])
    await db.schema.alterTable('domains').addColumn(column, 'bigint').execute();
  // Partial: a registration inserts its row with no rotation time yet, so it adds no entry to
  // this index (no cost on the request path); the key generator sets it in the background.
  // `dkim_rotate_at <= ?` implies NOT NULL, so both databases use it for the claim.
  await db.schema
    .createIndex('domains_dkim_rotate_at')
    .on('domains')
    .column('dkim_rotate_at')
    .where(sql.ref('dkim_rotate_at'), 'is not', null)
    .execute();

  // One join, not a subquery per column and row: at a million domains (3M keys, PostgreSQL)
  // 17 s instead of 90 s.
  await sql`
    update domain_records as r set
      key_created_at = k.created_at,
      key_state_since = k.created_at,
      key_state = case when k.revoked_at is not null then 'retired'
                       when r.position = 0 then 'active'
                       else 'next' end
    from dkim_keys as k
    where r.kind = 'dkim' and k.token = r.token`.execute(db);
  await sql`
    update domains set dkim_rotate_at = 0
    where exists (
      select 1 from domain_records r where r.domain_id = domains.id and r.key_state is not null)`.execute(db);
}
