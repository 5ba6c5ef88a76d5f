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
 * made), a key revoked before this migration retired; every domain with keys is due, so the
 * worker plans each once. Filled after start-up, in batches (`key-state-backfill.ts`).
 *
 * Until a domain's batch is filled, its readers wait for that domain alone rather than derive
 * the roles on the fly: the status read loads `domain_records` without `dkim_keys`, and the
 * rotation worker writes by `key_state` (`where key_state = 'next'`), so a derivation would
 * have to be repeated, joined, in every read and every write, for good. Instead each read of
 * domains' records (`withRecords`, `dkimSelectorRows`) fills those domains first when the
 * backfill is not done (one indexed select when they are filled already), with the very
 * statements the batches run: readers see exactly what the old migration wrote. Once this
 * process has seen the backfill done, that check costs nothing. A domain the batches have not
 * reached and nobody read is not yet due for rotation: it becomes due (at 0, as before) when
 * filled; its plan depends only on its keys' times, so planning it minutes later changes no
 * answer.
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

  // The roles of keys made before this migration are filled in the background after start-up
  // (`key-state-backfill.ts`), in short batches by domain id: as two UPDATEs here they took
  // 17 s at a million domains on PostgreSQL (3M keys), minutes at ten million, in one
  // transaction, before the server could listen (issue 39). A database with no key yet (every
  // new install) records nothing and never pays for it.
  // (This migration was changed after it shipped, against the rule of `index.ts`, because a
  // database that ran the first version has its roles filled already: 0027 only gives it the
  // table, with no row, that is, nothing to fill.)
  await createMigrationBackfills(db);
  const keyed = await sql`
    select 1 from domain_records r join dkim_keys k on k.token = r.token
    where r.kind = 'dkim' limit 1`.execute(db);
  if (keyed.rows.length > 0)
    await sql`insert into migration_backfills (name, cutoff) values ('0014-key-states', ${Date.now()})`.execute(
      db,
    );
}

/**
 * `migration_backfills`: the data a migration leaves to fill after start-up, one row per
 * backfill (absent: nothing to fill). `after_id` is the last domain id filled (batches go in
 * id order, so a process killed mid-way resumes there); `cutoff` is the migration's time, for
 * rules that must see the data as it was then; a process works on it while it holds the lease
 * (`lease_owner` until `lease_until`), so two processes never fill the same batch at once;
 * `done_at` is set when the last batch is filled. Also created by 0027 for databases that ran
 * this migration before it left its backfill to the background.
 */
export async function createMigrationBackfills(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('migration_backfills')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('cutoff', 'bigint', (c) => c.notNull())
    .addColumn('after_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rows_filled', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('done_at', 'bigint')
    .execute();
}
