/**
 * Migration 0022 over existing messages (issue 37), on SQLite and on PostgreSQL: each message's
 * tags (JSON in `emails.tags`) become `email_tags` rows, once each, with the message's account
 * and time, so listing by tag finds mail sent before the migration.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrationDatabases } from '../test-support/migration-database.js';
import { migrationProvider } from './migrations/index.js';

const databases = migrationDatabases('migration-0022-');
after(() => databases.stop());

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`migration 0022 on ${backend}`, () => {
    test('each message’s tags become rows, a repeated tag once', async () => {
      const db = await databases.open(backend);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0021-scheduled-emails')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
        const messages: [string, number, unknown[]][] = [
          ['eml_none', 10, []],
          [
            'eml_two',
            20,
            [
              { name: 'campaign', value: 'black-friday' },
              { name: 'wave', value: 'one' },
              { name: 'campaign', value: 'black-friday' },
            ],
          ],
          ['eml_quoted', 30, [{ name: 'note', value: 'it\'s "quoted" — ü' }]],
        ];
        for (const [id, at, tags] of messages) {
          await sql`insert into emails (id, account_id, domain_id, from_address, subject, message, tags, created_at)
            values (${id}, 'acc', 'dom', 'a@x.test', 's', 'm', ${JSON.stringify(tags)}, ${at})`.execute(db);
        }
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        const rows = await sql<{
          email_id: string;
          account_id: string;
          name: string;
          value: string;
          created_at: unknown;
        }>`
          select email_id, account_id, name, value, created_at from email_tags order by email_id, name`.execute(
          db,
        );
        assert.deepEqual(
          rows.rows.map((r) => [r.email_id, r.account_id, r.name, r.value, Number(r.created_at)]),
          [
            ['eml_quoted', 'acc', 'note', 'it\'s "quoted" — ü', 30],
            ['eml_two', 'acc', 'campaign', 'black-friday', 20],
            ['eml_two', 'acc', 'wave', 'one', 20],
          ],
        );
      } finally {
        await db.destroy();
      }
    });
  });
}
