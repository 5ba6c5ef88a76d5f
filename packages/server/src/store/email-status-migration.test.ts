/**
 * Migration 0020 over existing messages (issue 37), on SQLite and on PostgreSQL: each message
 * gets the status `GET /api/public/emails/{id}` computes from its recipients.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrationDatabases } from '../test-support/migration-database.js';
import { migrationProvider } from './migrations/index.js';

const databases = migrationDatabases('migration-0020-');
after(() => databases.stop());

/** A message per case: its recipients' statuses, and the status it must get. */
const CASES: [string, string[], string][] = [
  ['eml_queued', ['queued', 'queued'], 'queued'],
  ['eml_sending', ['sent', 'queued'], 'sending'],
  ['eml_deferred', ['sent', 'deferred'], 'deferred'],
  ['eml_sent', ['sent', 'bounced', 'suppressed'], 'sent'],
  ['eml_bounced', ['bounced', 'failed'], 'bounced'],
  ['eml_allsuppressed', ['suppressed'], 'failed'],
  ['eml_failed', ['failed'], 'failed'],
];

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`migration 0020 on ${backend}`, () => {
    test('every message gets its status from its recipients', async () => {
      const db = await databases.open(backend);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0019-account-keys')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
        for (const [id, statuses] of CASES) {
          await sql`insert into emails (id, account_id, domain_id, from_address, subject, message, tags, created_at)
            values (${id}, 'acc', 'dom', 'a@x.test', 's', 'm', '[]', 1)`.execute(db);
          for (const [i, status] of statuses.entries()) {
            await sql`insert into email_recipients (id, email_id, position, address, kind, status, updated_at)
              values (${`${id}_${i}`}, ${id}, ${i}, ${`r${i}@x.test`}, 'to', ${status}, 1)`.execute(db);
          }
        }
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        const rows = await sql<{ id: string; status: string }>`select id, status from emails`.execute(db);
        const got = new Map(rows.rows.map((r) => [r.id, r.status]));
        for (const [id, , status] of CASES) assert.equal(got.get(id), status, id);
      } finally {
        await db.destroy();
      }
    });
  });
}
