/**
 * The account's domain limit from the count kept on its row (issue 19), on SQLite and on
 * PostgreSQL with two stores (two connection pools, as two processes have) registering at once;
 * and the migration that introduced the count and the key queue, run over a database that
 * already holds domains.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { newToken } from '../domain/token.js';
import { type PostgresServer, startPostgres, testPool } from '../test-support/postgres.js';
import { DkimKeyStore } from './dkim-key-store.js';
import type { KyselyStore } from './kysely-store.js';
import { migrationProvider } from './migrations/index.js';
import { openStore } from './open.js';

const register = (store: KyselyStore, accountId: string, names: string[], maxDomains: number) =>
  store.registerDomains(
    accountId,
    names.map((name) => ({ name, type: 'Marketing' as const })),
    { maxDomains, now: Date.now(), newToken: () => newToken() },
  );

const accepted = (outcomes: { ok: boolean }[]) => outcomes.filter((o) => o.ok).length;

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
  await postgres?.stop();
});

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`the domain limit on ${backend}`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'domain-count-'));
    const stores: KyselyStore[] = [];
    let accountId: string;
    before(async () => {
      const databaseUrl = backend === 'postgres' ? await postgres.createDatabase() : undefined;
      stores.push(await openStore({ dataDir, databaseUrl }));
      if (databaseUrl) stores.push(await openStore({ dataDir, databaseUrl }));
      accountId = (
        await stores[0]!.createApiKey({ name: 't', keyHash: newToken(), keyPrefix: 'p', scopes: ['*'] })
      ).accountId;
    });
    after(async () => {
      for (const store of stores) await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('holds across registrations, counts a name once, and frees a slot on deletion', async () => {
      const [store] = stores;
      assert.equal(accepted(await register(store!, accountId, ['a.test', 'b.test', 'a.test'], 3)), 3);
      const [c, d] = await register(store!, accountId, ['c.test', 'd.test'], 3);
      assert.deepEqual([c!.ok, d], [true, { ok: false, reason: 'account_limit' }]);
      // names held already are no new domains: still accepted at the limit
      assert.equal(accepted(await register(store!, accountId, ['a.test', 'c.test'], 3)), 2);
      assert.deepEqual([...(await store!.deleteDomains(accountId, ['b.test', 'nothere.test']))], ['b.test']);
      assert.equal(accepted(await register(store!, accountId, ['d.test', 'e.test'], 3)), 1);
    });

    test('holds when stores register for the same account at the same moment', async () => {
      const other = (
        await stores[0]!.createApiKey({ name: 'u', keyHash: newToken(), keyPrefix: 'q', scopes: ['*'] })
      ).accountId;
      // 40 concurrent single-name registrations, spread over the stores, for a limit of 25
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => register(stores[i % stores.length]!, other, [`n${i}.test`], 25)),
      );
      assert.equal(accepted(outcomes.flat()), 25);
      const listed = await stores[0]!.listDomains(other, { limit: 100 });
      assert.equal(listed.domains.length, 25);
    });
  });
}

describe('the migration to kept counts and a key queue', () => {
  test('counts the domains already held and queues the tokens without keys', async () => {
    const databaseUrl = await postgres.createDatabase();
    const pool = testPool(databaseUrl, 2);
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      assert.equal((await migrator.migrateTo('0007-image-listing')).error, undefined);
      await sql`insert into accounts (id, name, created_at) values ('acc_a', 'a', 1), ('acc_b', 'b', 1)`.execute(
        db,
      );
      await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at)
        values ('dom_1', 'acc_a', 'one.test', 'Marketing', 'pending', 10, 10),
               ('dom_2', 'acc_a', 'two.test', 'Marketing', 'pending', 20, 20)`.execute(db);
      await sql`insert into domain_records (domain_id, position, kind, token, status)
        values ('dom_1', 0, 'dkim', 'tok1', 'pending'), ('dom_1', 3, 'dmarc', null, 'pending'),
               ('dom_2', 0, 'dkim', 'tok2', 'pending')`.execute(db);
      await sql`insert into dkim_keys (token, public_key, private_key_enc, created_at)
        values ('tok1', 'p', 'e', 1)`.execute(db);
      assert.equal((await migrator.migrateToLatest()).error, undefined);
    } finally {
      await db.destroy();
    }
    const store = await openStore({ dataDir: tmpdir(), databaseUrl });
    try {
      assert.equal(
        (
          await store.db
            .selectFrom('accounts')
            .select('domain_count')
            .where('id', '=', 'acc_a')
            .executeTakeFirst()
        )?.domain_count,
        2,
      );
      assert.equal(
        (
          await store.db
            .selectFrom('accounts')
            .select('domain_count')
            .where('id', '=', 'acc_b')
            .executeTakeFirst()
        )?.domain_count,
        0,
      );
      assert.deepEqual(await new DkimKeyStore(store.db).tokensWithoutKeys(10), ['tok2']);
      assert.equal(accepted(await register(store, 'acc_a', ['three.test'], 3)), 1);
      assert.deepEqual(await register(store, 'acc_a', ['four.test'], 3), [
        { ok: false, reason: 'account_limit' },
      ]);
    } finally {
      await store.close();
    }
  });
});
