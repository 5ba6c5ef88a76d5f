/**
 * Migration 0014 over a database that already holds keys: once its backfill has run (after
 * start-up, `key-state-backfill.ts`), each selector has its role and its key's time, and every
 * domain with keys is due for the rotation worker, on SQLite and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type Kysely, Migrator, sql } from 'kysely';
import { migrationDatabases } from '../test-support/migration-database.js';
import { KeyStateBackfill } from './key-state-backfill.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './tables.js';

const databases = migrationDatabases('migration-0014-');
after(() => databases.stop());

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`migration 0014 on ${backend}`, () => {
    test('existing keys: the first selector active, the others next, a revoked one retired; their domains due', async () => {
      const db = await databases.open(backend);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0013-domain-connect')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
        await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at)
          values ('keyed', 'acc', 'keyed.test', 'Marketing', 'pending', 10, 10),
                 ('waiting', 'acc', 'waiting.test', 'Marketing', 'pending', 20, 20)`.execute(db);
        await sql`insert into domain_records (domain_id, position, kind, token, status)
          values ('keyed', 0, 'dkim', 'k0', 'pending'), ('keyed', 1, 'dkim', 'k1', 'pending'),
                 ('keyed', 2, 'dkim', 'k2', 'pending'), ('keyed', 3, 'dmarc', null, 'pending'),
                 ('waiting', 0, 'dkim', 'w0', 'pending'), ('waiting', 3, 'dmarc', null, 'pending')`.execute(
          db,
        );
        await sql`insert into dkim_keys (token, public_key, private_key_enc, created_at, revoked_at)
          values ('k0', 'p', 'e', 100, null), ('k1', 'p', 'e', 101, null), ('k2', 'p', 'e', 102, 500)`.execute(
          db,
        );
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        await new KeyStateBackfill(db as Kysely<Database>).start().done();

        const records = await sql<{
          token: string | null;
          key_state: string | null;
          key_created_at: number | string | null;
          key_state_since: number | string | null;
        }>`select token, key_state, key_created_at, key_state_since from domain_records
           order by domain_id, position`.execute(db);
        assert.deepEqual(
          records.rows.map((r) => [
            r.token,
            r.key_state,
            r.key_created_at === null ? null : Number(r.key_created_at),
            r.key_state_since === null ? null : Number(r.key_state_since),
          ]),
          [
            ['k0', 'active', 100, 100],
            ['k1', 'next', 101, 101],
            ['k2', 'retired', 102, 102],
            [null, null, null, null],
            ['w0', null, null, null],
            [null, null, null, null],
          ],
        );
        const domains = await sql<{ id: string; dkim_rotate_at: number | string | null }>`
          select id, dkim_rotate_at from domains order by id`.execute(db);
        assert.deepEqual(
          domains.rows.map((d) => [d.id, d.dkim_rotate_at === null ? null : Number(d.dkim_rotate_at)]),
          [
            ['keyed', 0],
            ['waiting', null],
          ],
        );
      } finally {
        await db.destroy();
      }
    });
  });
}
