/**
 * Migration 0026 over registrations already checked (issue 36), on SQLite and on PostgreSQL:
 * the one provider each stored becomes its list of providers, and a domain stored as Netlify
 * (NS1's names, before NS1 had an entry) reads as NS1 until its next check names it so.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type Kysely, Migrator, sql } from 'kysely';
import { domainView } from '../domain/records.js';
import { migrationDatabases } from '../test-support/migration-database.js';
import { loadDomainsById } from './domain-rows.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './tables.js';

const databases = migrationDatabases('migration-0026-');
after(() => databases.stop());

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`migration 0026 on ${backend}`, () => {
    test('each stored provider becomes a list of one; none stays none', async () => {
      const db = await databases.open(backend);
      try {
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0025-tracking')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
        await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at, dns_provider)
          values ('cf', 'acc', 'cf.test', 'Marketing', 'pending', 10, 10, 'cloudflare'),
                 ('nf', 'acc', 'nf.test', 'Marketing', 'pending', 10, 10, 'netlify'),
                 ('none', 'acc', 'none.test', 'Marketing', 'pending', 10, 10, null)`.execute(db);
        assert.equal((await migrator.migrateToLatest()).error, undefined);

        const rows = await sql<{ id: string; dns_providers: string | null }>`
          select id, dns_providers from domains order by id`.execute(db);
        assert.deepEqual(
          rows.rows.map((r) => [r.id, r.dns_providers]),
          [
            ['cf', 'cloudflare'],
            ['nf', 'netlify'],
            ['none', null],
          ],
        );
        const settings = { providerHost: 'provider.test', dmarcPolicy: 'v=DMARC1; p=none;' };
        const views = (await loadDomainsById(db as unknown as Kysely<Database>, ['cf', 'nf', 'none']))
          .sort((a, b) => a.id.localeCompare(b.id))
          .map((d) => domainView(d, settings).providers.map((p) => p.id));
        assert.deepEqual(views, [['cloudflare'], ['ns1'], []]);
      } finally {
        await db.destroy();
      }
    });
  });
}
