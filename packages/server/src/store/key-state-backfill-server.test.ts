/**
 * A server started on a database upgraded from migration 0013 (issue 39) listens before the
 * key roles are filled, and its status answers show each selector's role as migration 0014
 * once wrote it in place: while another process holds the backfill, and after it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { startTestServer, TEST_BACKEND } from '../test-support/test-server.js';
import { KEY_STATE_BACKFILL, KeyStateBackfill } from './key-state-backfill.js';
import { migrationProvider } from './migrations/index.js';
import { sqliteFile } from './open.js';
import type { Database } from './tables.js';

const openDb = (file: string) => {
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
};

test('the server answers with the old roles before the backfill has run, and the same after', {
  skip: TEST_BACKEND !== 'sqlite' && 'seeds a SQLite file',
}, async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'key-state-server-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const db = openDb(sqliteFile(dataDir));
  t.after(() => db.destroy());
  const migrator = new Migrator({ db, provider: migrationProvider });
  assert.equal((await migrator.migrateTo('0013-domain-connect')).error, undefined);
  await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
  for (const id of ['keyed', 'other'])
    await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at)
      values (${id}, 'acc', ${`${id}.test`}, 'Marketing', 'pending', 10, 10)`.execute(db);
  for (const id of ['keyed', 'other'])
    for (const position of [0, 1, 2]) {
      await sql`insert into domain_records (domain_id, position, kind, token, status)
        values (${id}, ${position}, 'dkim', ${`${id}${position}`}, 'pending')`.execute(db);
      await sql`insert into dkim_keys (token, public_key, private_key_enc, created_at, revoked_at)
        values (${`${id}${position}`}, 'p', 'e', ${Date.UTC(2026, 0, 1 + position)},
                ${position === 2 ? Date.UTC(2026, 1, 1) : null})`.execute(db);
    }
  // upgraded, and another process holds the backfill for the next minute
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  await sql`update migration_backfills set lease_owner = 'another process', lease_until = ${Date.now() + 60_000}
    where name = ${KEY_STATE_BACKFILL}`.execute(db);

  const server = await startTestServer({ DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' });
  t.after(() => server.close());
  const { key } = await server.createKey({ accountId: 'acc' });
  const roles = async () => {
    const answer = await server.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: ['keyed.test'] },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body[0].data.dkim.selectors;
  };
  const expected = [
    {
      selector: 'keyed0',
      state: 'active',
      keyCreatedAt: '2026-01-01T00:00:00.000Z',
      since: '2026-01-01T00:00:00.000Z',
    },
    {
      selector: 'keyed1',
      state: 'next',
      keyCreatedAt: '2026-01-02T00:00:00.000Z',
      since: '2026-01-02T00:00:00.000Z',
    },
    {
      selector: 'keyed2',
      state: 'retired',
      keyCreatedAt: '2026-01-03T00:00:00.000Z',
      since: '2026-01-03T00:00:00.000Z',
    },
  ];
  assert.deepEqual(await roles(), expected);
  // listening, and the backfill not done: the domain nobody read is still to fill
  const unfilled = await sql<{ domain_id: string }>`
    select distinct domain_id from domain_records where key_state is null`.execute(db);
  assert.deepEqual(
    unfilled.rows.map((r) => r.domain_id),
    ['other'],
  );

  // the other process lets go; the backfill runs to its end
  await sql`update migration_backfills set lease_until = 0 where name = ${KEY_STATE_BACKFILL}`.execute(db);
  await new KeyStateBackfill(db).start().done();
  const left = await sql`select 1 from domain_records where key_state is null`.execute(db);
  assert.equal(left.rows.length, 0);
  assert.deepEqual(await roles(), expected);
});
