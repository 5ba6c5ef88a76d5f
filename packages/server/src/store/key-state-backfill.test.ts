/**
 * Migration 0014's key roles filled after start-up (issue 39), on a real SQLite file and a real
 * PostgreSQL: a database at 0013 with keys, migrated to latest, reads the same during and after
 * the backfill as a twin on which 0014's old UPDATEs ran; a backfill killed half-way resumes;
 * two processes backfilling at once fill each record once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery as Compiled,
  CompiledQuery,
  Kysely,
  type LogConfig,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import { type PostgresServer, startPostgres, testPool } from '../test-support/postgres.js';
import { DkimKeyStore } from './dkim-key-store.js';
import { DkimRotationStore } from './dkim-rotation-store.js';
import { loadDomainsById } from './domain-rows.js';
import { KEY_STATE_BACKFILL, KeyStateBackfill } from './key-state-backfill.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './tables.js';

let postgres: PostgresServer | undefined;
const dirs: string[] = [];
after(async () => {
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh database; `connect()` opens another connection to it, as another process would. */
async function freshDatabase(
  backend: 'sqlite' | 'postgres',
  log?: LogConfig,
): Promise<() => Kysely<Database>> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'key-state-backfill-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    return () => {
      const connection = new SQLite(file);
      connection.pragma('journal_mode = WAL');
      connection.pragma('busy_timeout = 5000');
      return new Kysely<Database>({
        dialect: new SqliteDialect({ database: connection }),
        ...(log && { log }),
      });
    };
  }
  postgres ??= await startPostgres();
  const url = await postgres.createDatabase();
  return () =>
    new Kysely<Database>({ dialect: new PostgresDialect({ pool: testPool(url, 2) }), ...(log && { log }) });
}

const DOMAINS = 40;

/** At 0013: domains with three keyed selectors (some revoked), one half-keyed, one keyless. */
async function seedAt0013(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  assert.equal((await migrator.migrateTo('0013-domain-connect')).error, undefined);
  await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(db);
  for (let i = 0; i < DOMAINS; i++) {
    const id = `d${String(i).padStart(3, '0')}`;
    await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at)
      values (${id}, 'acc', ${`${id}.test`}, 'Marketing', 'verified', ${i}, ${i})`.execute(db);
    for (const position of [0, 1, 2])
      await sql`insert into domain_records (domain_id, position, kind, token, status)
        values (${id}, ${position}, 'dkim', ${`${id}-${position}`}, 'verified')`.execute(db);
    await sql`insert into domain_records (domain_id, position, kind, token, status)
      values (${id}, 3, 'dmarc', null, 'verified')`.execute(db);
    const keyed = i % 10 === 9 ? 0 : i % 10 === 8 ? 1 : 3;
    for (let position = 0; position < keyed; position++)
      await sql`insert into dkim_keys (token, public_key, private_key_enc, created_at, revoked_at)
        values (${`${id}-${position}`}, ${`p${i}`}, 'e', ${1000 + i * 3 + position},
                ${i % 7 === 3 && position === 2 ? 5000 : null})`.execute(db);
  }
}

/** What 0014 did before issue 39, in the migration. */
async function oldBackfill(db: Kysely<Database>): Promise<void> {
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
  await sql`delete from migration_backfills`.execute(db);
}

async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  assert.equal((await new Migrator({ db, provider: migrationProvider }).migrateToLatest()).error, undefined);
}

/** Every column 0014 fills, as numbers. */
async function snapshot(db: Kysely<Database>) {
  const records = await sql<Record<string, unknown>>`
    select domain_id, position, key_state, key_state_since, key_created_at from domain_records
    order by domain_id, position`.execute(db);
  const domains = await sql<Record<string, unknown>>`
    select id, dkim_rotate_at from domains order by id`.execute(db);
  const num = (v: unknown) => (v === null ? null : Number(v));
  return {
    records: records.rows.map((r) => [
      r.domain_id,
      Number(r.position),
      r.key_state,
      num(r.key_state_since),
      num(r.key_created_at),
    ]),
    domains: domains.rows.map((d) => [d.id, num(d.dkim_rotate_at)]),
  };
}

async function progress(db: Kysely<Database>) {
  const row = (
    await sql<{ after_id: string; rows_filled: number | string; done_at: unknown }>`
      select after_id, rows_filled, done_at from migration_backfills where name = ${KEY_STATE_BACKFILL}`.execute(
      db,
    )
  ).rows[0];
  return row && { afterId: row.after_id, rowsFilled: Number(row.rows_filled), done: row.done_at !== null };
}

/** The records with a key, each filled once. */
async function keyedRecords(db: Kysely<Database>): Promise<number> {
  const result = await sql<{ n: number | string }>`
    select count(*) as n from domain_records r join dkim_keys k on k.token = r.token where r.kind = 'dkim'`.execute(
    db,
  );
  return Number(result.rows[0]!.n);
}

/** What a status read loads, by id. */
async function statuses(db: Kysely<Database>, ids: string[]) {
  return (await loadDomainsById(db, ids)).sort((a, b) => a.id.localeCompare(b.id));
}

/** An upgraded database and its twin on which the old migration ran. */
async function upgradedPair(backend: 'sqlite' | 'postgres') {
  const connectNew = await freshDatabase(backend);
  const connectOld = await freshDatabase(backend);
  const db = connectNew();
  const reference = connectOld();
  for (const d of [db, reference]) {
    await seedAt0013(d);
    await migrateToLatest(d);
  }
  await oldBackfill(reference);
  return { db, reference, connect: connectNew };
}

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`key state backfill on ${backend}`, () => {
    test('the migration leaves the fill to the background; a database without keys records none', async () => {
      const { db, reference } = await upgradedPair(backend);
      try {
        const filled = await sql`select 1 from domain_records where key_state is not null`.execute(db);
        assert.equal(filled.rows.length, 0, 'no record filled by the migration');
        assert.deepEqual(await progress(db), { afterId: '', rowsFilled: 0, done: false });
        assert.notDeepEqual(await snapshot(db), await snapshot(reference));
      } finally {
        await Promise.all([db.destroy(), reference.destroy()]);
      }
      const connect = await freshDatabase(backend);
      const empty = connect();
      try {
        await migrateToLatest(empty);
        assert.equal(await progress(empty), undefined);
        // the worker ends at once
        await new KeyStateBackfill(empty).start().done();
        assert.equal(await progress(empty), undefined);
      } finally {
        await empty.destroy();
      }
    });

    test('a database that ran 0014 when it filled the roles itself gets the table from 0027, with nothing to fill', async () => {
      const connect = await freshDatabase(backend);
      const db = connect();
      try {
        await seedAt0013(db);
        const migrator = new Migrator({ db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('0026-dns-providers')).error, undefined);
        // as the first 0014 left it: filled, and no table
        await oldBackfill(db);
        await sql`drop table migration_backfills`.execute(db);
        const filled = await snapshot(db);
        await migrateToLatest(db);
        assert.equal(await progress(db), undefined);
        assert.equal((await loadDomainsById(db, ['d000']))[0]?.records[0]?.key?.state, 'active');
        assert.deepEqual(await snapshot(db), filled);
      } finally {
        await db.destroy();
      }
    });

    test('reads before and during the backfill answer as after the old migration; after it, every column matches', async () => {
      const { db, reference } = await upgradedPair(backend);
      try {
        const worker = new KeyStateBackfill(db, { batchDomains: 7 });
        assert.equal(await worker.batch(), 'more');
        assert.equal((await progress(db))?.afterId, 'd006');
        // a status read, signing and rotation of domains the batches have not reached
        const ids = ['d013', 'd018', 'd019', 'd024', 'd031'];
        assert.deepEqual(await statuses(db, ids), await statuses(reference, ids));
        for (const name of ['d033.test', 'd038.test', 'd039.test'])
          assert.deepEqual(
            await new DkimKeyStore(db).signingDomains(name),
            await new DkimKeyStore(reference).signingDomains(name),
          );
        assert.deepEqual(
          await new DkimRotationStore(db, backend).load('d035'),
          await new DkimRotationStore(reference, backend).load('d035'),
        );
        // the responder's keys come from dkim_keys, which the backfill never writes
        const zone = (d: Kysely<Database>) =>
          sql`select token, public_key, revoked_at from dkim_keys order by token`.execute(d);
        assert.deepEqual((await zone(db)).rows, (await zone(reference)).rows);

        await worker.start().done();
        assert.deepEqual(await snapshot(db), await snapshot(reference));
        const done = await progress(db);
        assert.equal(done?.done, true);
        // each keyed record filled once: by a batch, or by the read that touched it first
        assert.ok((done?.rowsFilled ?? 0) <= (await keyedRecords(db)));
        const all = Array.from({ length: DOMAINS }, (_, i) => `d${String(i).padStart(3, '0')}`);
        assert.deepEqual(await statuses(db, all), await statuses(reference, all));
        // the rotation worker claims the same domains, with the same selectors
        const claim = async (d: Kysely<Database>) =>
          (await new DkimRotationStore(d, backend).claimDue(10_000, 100, 60_000)).sort((a, b) =>
            a.id.localeCompare(b.id),
          );
        assert.deepEqual(await claim(db), await claim(reference));
      } finally {
        await Promise.all([db.destroy(), reference.destroy()]);
      }
    });

    test('a backfill killed half-way is taken over from where it stopped once its lease ends', async () => {
      const { db, reference, connect } = await upgradedPair(backend);
      const other = connect();
      try {
        const killed = new KeyStateBackfill(db, { batchDomains: 6, leaseMs: 60_000 });
        assert.equal(await killed.batch(), 'more');
        assert.equal(await killed.batch(), 'more');
        const stoppedAt = await progress(db);
        assert.equal(stoppedAt?.afterId, 'd011');
        // the killed process never comes back; its lease holds the others off until it ends
        let clock = Date.now();
        const next = new KeyStateBackfill(other, { batchDomains: 6, leaseMs: 60_000, now: () => clock });
        assert.equal(await next.batch(), 'busy');
        assert.equal((await progress(db))?.afterId, 'd011');
        clock += 60_001;
        assert.equal(await next.batch(), 'more');
        assert.equal((await progress(db))?.afterId, 'd017');
        while ((await next.batch()) !== 'done');
        assert.deepEqual(await snapshot(db), await snapshot(reference));
        assert.equal((await progress(db))?.rowsFilled, await keyedRecords(db));
      } finally {
        await Promise.all([db.destroy(), other.destroy(), reference.destroy()]);
      }
    });

    test('two processes backfilling at once fill every record once and finish together', async () => {
      const { db, reference, connect } = await upgradedPair(backend);
      const other = connect();
      try {
        const workers = [db, other].map((d) =>
          new KeyStateBackfill(d, { batchDomains: 3, retryMs: 5 }).start(),
        );
        await Promise.all(workers.map((w) => w.done()));
        assert.deepEqual(await snapshot(db), await snapshot(reference));
        const done = await progress(db);
        assert.equal(done?.done, true);
        assert.equal(done?.rowsFilled, await keyedRecords(db));
      } finally {
        await Promise.all([db.destroy(), other.destroy(), reference.destroy()]);
      }
    });

    test('dkim sign without --account finds the domain through the domains_name index', async () => {
      const queries: Compiled[] = [];
      const connect = await freshDatabase(backend, (event) => {
        if (event.level === 'query') queries.push(event.query);
      });
      const db = connect();
      try {
        await migrateToLatest(db);
        queries.length = 0;
        await new DkimKeyStore(db).signingDomains('x.test');
        // the query it ran, planned with its own parameters
        const query = queries.find((q) => /from "domains"/.test(q.sql));
        assert.ok(query, queries.map((q) => q.sql).join('\n'));
        let plan: string;
        if (backend === 'sqlite') {
          const rows = await db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
          );
          plan = rows.rows.map((r) => r.detail).join('\n');
        } else {
          // an empty table is read whole by choice; without that choice, the index it can use
          const rows = await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            return trx.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
            );
          });
          plan = rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        }
        console.log(`${backend} plan of dkim sign without --account:\n${plan}`);
        assert.match(plan, /domains_name/);
      } finally {
        await db.destroy();
      }
    });
  });
}
