/**
 * Migration 0016 over an existing suppression list (issue 34), on SQLite and on PostgreSQL: an
 * unsubscribe keeps Marketing mail away only, a bounce that never meant the address was gone
 * (a blocklist, a full mailbox) is lifted, and a reason keeps its code once.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrationDatabases } from '../test-support/migration-database.js';
import { migrationProvider } from './migrations/index.js';

const databases = migrationDatabases('migration-0016-');
after(() => databases.stop());

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`migration 0016 on ${backend}`, () => {
    test('suppressions get a scope; wrong ones are lifted; codes appear once', async () => {
      const db = await databases.open(backend);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0015-key-turns')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
        await sql`insert into suppressions (account_id, address, reason, email_id, created_at) values
          ('acc', 'gone@x.test', '550 550 5.1.1 <gone@x.test>: Recipient address rejected: User unknown', null, 1),
          ('acc', 'listed@x.test', '554 554 5.7.1 Service unavailable; blocked using zen.spamhaus.org', null, 1),
          ('acc', 'full@x.test', '552 552 5.2.2 mailbox full', null, 1),
          ('acc', 'left@x.test', 'unsubscribed', null, 1),
          ('acc', 'nodomain@x.test', 'x.test does not exist in DNS', null, 1)`.execute(db);
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        const rows = await sql<{ address: string; reason: string; scope: string }>`
          select address, reason, scope from suppressions order by address`.execute(db);
        assert.deepEqual(rows.rows, [
          {
            address: 'gone@x.test',
            reason: '550 5.1.1 <gone@x.test>: Recipient address rejected: User unknown',
            scope: 'all',
          },
          { address: 'left@x.test', reason: 'unsubscribed', scope: 'Marketing' },
          // a domain that does not exist is gone for every address at it
          { address: 'nodomain@x.test', reason: 'x.test does not exist in DNS', scope: 'all' },
        ]);
      } finally {
        await db.destroy();
      }
    });
  });
}
