/**
 * A registration read with its records in one statement (`selectDomains`, the records as one
 * JSON array per domain) gives what the two-statement read (`withRecords`) gives, on SQLite and
 * on PostgreSQL: every column, awkward text, large times and nulls, in position order. On
 * PostgreSQL that statement is a named (prepared) one, unless turned off.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { newToken } from '../domain/token.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { withRecords } from './domain-rows.js';
import type { KyselyStore } from './kysely-store.js';
import { openStore } from './open.js';

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

/** Text a DNS answer or a check's detail can hold: quotes, a backslash, a line break, non-ASCII, JSON-looking text. */
const AWKWARD = 'v=DKIM1; k=rsa; p="MIIB\\Ag=="\nnext line\ttab — ünïcödé ✉️ {"a":[1,2]}';
/** The largest epoch milliseconds a JSON number still holds exactly. */
const LATEST = Number.MAX_SAFE_INTEGER;

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`a registration read in one statement on ${backend}`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'domain-rows-'));
    let store: KyselyStore;
    let accountId: string;
    before(async () => {
      const databaseUrl = backend === 'postgres' ? await postgres.createDatabase() : undefined;
      store = await openStore({ dataDir, databaseUrl });
      accountId = (
        await store.createApiKey({ name: 't', keyHash: newToken(), keyPrefix: 'p', scopes: ['*'] })
      ).accountId;
      const outcomes = await store.registerDomains(
        accountId,
        ['a.rows.test', 'b.rows.test', 'c.rows.test'].map((name) => ({ name, type: 'Marketing' as const })),
        { maxDomains: 10, now: Date.now(), newToken: () => newToken() },
      );
      assert.ok(outcomes.every((o) => o.ok));
      const [a] = [...(await store.findDomains(accountId, ['a.rows.test'])).values()];
      // every column of one record set to what a round trip through JSON could change
      await store.db
        .updateTable('domain_records')
        .set({
          status: 'failed',
          reason: 'wrong_value',
          found: AWKWARD,
          detail: `found ${AWKWARD}`,
          checked_at: LATEST,
          missing_since: 0,
          error_since: 1,
          verified_at: null,
          key_state: 'retired',
          key_state_since: LATEST - 1,
          key_created_at: 1_795_931_787_095,
        })
        .where('domain_id', '=', a!.id)
        .where('position', '=', 1)
        .execute();
      // a domain whose records are gone reads with none
      const [c] = [...(await store.findDomains(accountId, ['c.rows.test'])).values()];
      await store.db.deleteFrom('domain_records').where('domain_id', '=', c!.id).execute();
    });
    after(async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** The same registrations read the two-statement way, for comparison. */
    const readInTwo = async (names: string[]) =>
      withRecords(
        store.db,
        await store.db
          .selectFrom('domains')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('name', 'in', names)
          .orderBy('name')
          .execute(),
      );

    test('gives every column of every record as the two-statement read does', async () => {
      // a cache in front of the store would hide the read: the listing reads the database each time
      const { domains } = await store.listDomains(accountId, { limit: 10 });
      assert.deepEqual(domains, await readInTwo(['a.rows.test', 'b.rows.test', 'c.rows.test']));
      const a = domains[0]!;
      assert.deepEqual(
        a.records.map((r) => r.position),
        [0, 1, 2, 3],
      );
      const changed = a.records[1]!;
      assert.equal(changed.found, AWKWARD);
      assert.equal(changed.detail, `found ${AWKWARD}`);
      assert.equal(changed.checkedAt, LATEST);
      assert.deepEqual([changed.missingSince, changed.errorSince, changed.verifiedAt], [0, 1, null]);
      assert.deepEqual(changed.key, { state: 'retired', since: LATEST - 1, createdAt: 1_795_931_787_095 });
      assert.equal(typeof a.records[0]!.token, 'string');
      assert.equal(a.records[3]!.token, null);
      assert.deepEqual(domains[2]!.records, []);
    });

    test('finds by name and pages the listing as before', async () => {
      const found = await store.findDomains(accountId, ['b.rows.test', 'a.rows.test', 'none.rows.test']);
      assert.deepEqual([...found.keys()].sort(), ['a.rows.test', 'b.rows.test']);
      assert.deepEqual(found.get('b.rows.test'), (await readInTwo(['b.rows.test']))[0]);
      const first = await store.listDomains(accountId, { limit: 2 });
      assert.deepEqual(
        [first.domains.map((d) => d.name), first.next],
        [['a.rows.test', 'b.rows.test'], 'b.rows.test'],
      );
      const last = await store.listDomains(accountId, { after: first.next!, limit: 2 });
      assert.deepEqual([last.domains.map((d) => d.name), last.next], [['c.rows.test'], null]);
    });

    test('each lookup by name reads its own account and names (the statement compiled once on PostgreSQL)', async () => {
      // another account with a registration of the same name, looked up after the first account's
      const other = (
        await store.createApiKey({ name: 'o', keyHash: newToken(), keyPrefix: 'p', scopes: ['*'] })
      ).accountId;
      await store.registerDomains(other, [{ name: 'a.rows.test', type: 'Transactional' }], {
        maxDomains: 10,
        now: Date.now(),
        newToken: () => newToken(),
      });
      const mine = (await store.findDomains(accountId, ['a.rows.test'])).get('a.rows.test')!;
      const theirs = (await store.findDomains(other, ['a.rows.test'])).get('a.rows.test')!;
      assert.deepEqual(
        [mine.accountId, mine.type, theirs.accountId, theirs.type],
        [accountId, 'Marketing', other, 'Transactional'],
      );
      assert.notEqual(mine.id, theirs.id);
      // one name, then three (one unknown), then none of the other account's
      assert.deepEqual([...(await store.findDomains(other, ['b.rows.test'])).keys()], []);
      const three = await store.findDomains(accountId, ['c.rows.test', 'b.rows.test', 'x.rows.test']);
      assert.deepEqual([...three.keys()].sort(), ['b.rows.test', 'c.rows.test']);
      assert.deepEqual(three.get('b.rows.test'), (await readInTwo(['b.rows.test']))[0]);
    });
  });
}

describe('the one-statement read as a named statement on postgres', () => {
  for (const preparedStatements of [true, false])
    test(`is prepared on the connection ${preparedStatements ? 'once, and outlives a column a newer version adds' : 'never when turned off'}`, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'domain-rows-'));
      // one connection, so the statements it holds are the ones the reads used
      const store = await openStore({
        dataDir,
        databaseUrl: await postgres.createDatabase(),
        poolSize: 1,
        preparedStatements,
      });
      try {
        const { accountId } = await store.createApiKey({
          name: 't',
          keyHash: newToken(),
          keyPrefix: 'p',
          scopes: ['*'],
        });
        await store.registerDomains(accountId, [{ name: 'a.rows.test', type: 'Marketing' }], {
          maxDomains: 10,
          now: Date.now(),
          newToken: () => newToken(),
        });
        const first = await store.listDomains(accountId, { limit: 10 });
        await store.listDomains(accountId, { limit: 10 });
        const held = async () =>
          (
            await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db)
          ).rows.map((r) => r.statement);
        const reads = (await held()).filter((text) => text.includes('json_agg'));
        // the registration's lookup by name and the listing, each once however often it ran
        assert.equal(reads.length, preparedStatements ? 2 : 0);
        // a newer version's migration, run by another process while this one serves
        await sql`alter table domains add column added_later text not null default 'x'`.execute(store.db);
        assert.deepEqual(await store.listDomains(accountId, { limit: 10 }), first);
        assert.equal((await held()).filter((text) => text.includes('json_agg')).length, reads.length);
      } finally {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
});
