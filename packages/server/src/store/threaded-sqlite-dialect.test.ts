/**
 * SQLite with its writes on a thread of their own (issue 37): a write waiting for the disk or
 * the lock no longer holds the event loop, reads see every answered write, a transaction is
 * still all or nothing, errors keep better-sqlite3's codes, BLOBs come back as Buffers, and a
 * writer thread that dies fails writes with 503 instead of leaving them hanging.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { ApiError } from '../errors.js';
import { startTestServer, TEST_BACKEND } from '../test-support/test-server.js';
import type { KyselyStore } from './kysely-store.js';
import { openStore, sqliteFile } from './open.js';
import { executeUnanswered } from './threaded-sqlite-dialect.js';

const dirs: string[] = [];
const stores: KyselyStore[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => {});
});

async function threaded(onExit?: (error: Error) => void) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'threaded-sqlite-'));
  dirs.push(dataDir);
  const store = await openStore({ dataDir, writerThread: { ...(onExit && { onExit }) } });
  stores.push(store);
  return { store, dataDir };
}

const account = (id: string) => ({ id, name: id, created_at: 1 });

describe('SQLite writes on a thread of their own', () => {
  test('a write waiting for another connection’s lock does not hold the event loop: reads answer meanwhile', async () => {
    const { store, dataDir } = await threaded();
    await store.db.insertInto('accounts').values(account('acc_before')).execute();
    // another process's write transaction (the CLI, say) holds the lock
    const other = new SQLite(sqliteFile(dataDir));
    other.exec('begin immediate');
    const order: string[] = [];
    const write = store.db
      .insertInto('accounts')
      .values(account('acc_waiting'))
      .execute()
      .then(() => order.push('write'));
    // On the event loop, the write's busy wait (up to 5 s) would come first.
    const rows = await store.db.selectFrom('accounts').select('id').execute();
    order.push('read');
    assert.deepEqual(
      rows.map((r) => r.id),
      ['acc_before'],
    );
    other.exec('commit');
    other.close();
    await write;
    assert.deepEqual(order, ['read', 'write']);
    // an answered write is visible to the next read, on this thread's connection
    const after = await store.db.selectFrom('accounts').select('id').orderBy('id').execute();
    assert.deepEqual(
      after.map((r) => r.id),
      ['acc_before', 'acc_waiting'],
    );
  });

  test('a transaction is all or nothing, and reads outside it see it only once committed', async () => {
    const { store } = await threaded();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedOne = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const failing = store.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account('acc_1')).execute();
      // its own write, read inside it (on the writer)
      assert.equal((await trx.selectFrom('accounts').select('id').execute()).length, 1);
      inserted();
      await held;
      await trx.insertInto('accounts').values(account('acc_1')).execute(); // primary key: fails
    });
    await insertedOne;
    assert.deepEqual(await store.db.selectFrom('accounts').select('id').execute(), []);
    release();
    await assert.rejects(failing, (error: Error & { code?: string }) => {
      assert.ok(error instanceof SQLite.SqliteError, `a SqliteError, got ${error.name}`);
      assert.equal(error.code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
      return true;
    });
    assert.deepEqual(await store.db.selectFrom('accounts').select('id').execute(), []);
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account('acc_2')).execute();
      await trx.insertInto('accounts').values(account('acc_3')).execute();
    });
    const ids = (await store.db.selectFrom('accounts').select('id').orderBy('id').execute()).map((r) => r.id);
    assert.deepEqual(ids, ['acc_2', 'acc_3']);
  });

  test('writes from many requests at once are each committed once, in one connection at a time', async () => {
    const { store } = await threaded();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? store.db
              .insertInto('accounts')
              .values(account(`acc_${i}`))
              .execute()
          : store.db.transaction().execute(async (trx) => {
              await trx
                .insertInto('accounts')
                .values(account(`acc_${i}`))
                .execute();
              await trx
                .updateTable('accounts')
                .set({ name: `renamed ${i}` })
                .where('id', '=', `acc_${i}`)
                .execute();
            }),
      ),
    );
    const rows = await store.db.selectFrom('accounts').select(['id', 'name']).execute();
    assert.equal(rows.length, 50);
    assert.equal(rows.filter((r) => r.name.startsWith('renamed')).length, 25);
  });

  test('BLOBs and RETURNING rows come back as the single-connection driver gives them', async () => {
    const { store } = await threaded();
    const blob = Buffer.from([0, 1, 2, 250, 251]);
    const [row] = (await sql<{ b: Buffer; n: number }>`select ${blob} as b, 7 as n`.execute(store.db)).rows;
    assert.ok(Buffer.isBuffer(row!.b));
    // a RETURNING insert runs on the writer; its BLOB crosses back
    await sql`create table blobs (id integer primary key, b blob)`.execute(store.db);
    const returned = await sql<{
      id: number;
      b: Buffer;
    }>`insert into blobs (b) values (${blob}) returning id, b`.execute(store.db);
    assert.ok(Buffer.isBuffer(returned.rows[0]!.b), 'a Buffer, not a bare Uint8Array');
    assert.deepEqual(returned.rows[0]!.b, blob);
    const result = await sql`update blobs set b = ${Buffer.from('x')}`.execute(store.db);
    assert.equal(result.numAffectedRows, 1n);
  });

  test('a write whose answer nobody reads travels with the next statement: one round trip fewer, seen by that statement', async () => {
    const { store } = await threaded();
    let answers = 0;
    store.writerThread!.on('message', () => answers++);
    const read = await store.db.transaction().execute(async (trx) => {
      await executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_1')));
      await executeUnanswered(
        trx,
        trx.updateTable('accounts').set({ name: 'renamed' }).where('id', '=', 'acc_1'),
      );
      return trx.selectFrom('accounts').select(['id', 'name']).execute();
    });
    assert.deepEqual(read, [{ id: 'acc_1', name: 'renamed' }]);
    // BEGIN, both writes and the read in one message, then COMMIT
    assert.equal(answers, 2);
    // the writes left for the commit are committed by it
    await store.db
      .transaction()
      .execute((trx) => executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_2'))));
    assert.equal(answers, 3);
    const ids = (await store.db.selectFrom('accounts').select('id').orderBy('id').execute()).map((r) => r.id);
    assert.deepEqual(ids, ['acc_1', 'acc_2']);
  });

  test('an unanswered write that fails fails the statement or commit it travelled with, and the whole transaction', async () => {
    const { store } = await threaded();
    await store.db.insertInto('accounts').values(account('acc_1')).execute();
    const duplicate = (error: unknown) => {
      assert.ok(error instanceof SQLite.SqliteError);
      assert.equal(error.code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
      return true;
    };
    // failing at the commit
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values(account('acc_2')).execute();
        await executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_1')));
      }),
      duplicate,
    );
    // failing at the next statement, which did not run
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_3')));
        await executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_1')));
        await trx.insertInto('accounts').values(account('acc_4')).execute();
      }),
      duplicate,
    );
    // a rollback drops the writes still waiting to be sent
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await executeUnanswered(trx, trx.insertInto('accounts').values(account('acc_5')));
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    const ids = (await store.db.selectFrom('accounts').select('id').execute()).map((r) => r.id);
    assert.deepEqual(ids, ['acc_1']);
    // and the connection is usable after all three
    await store.db.insertInto('accounts').values(account('acc_6')).execute();
  });

  test('PRAGMA settings travel with the next statement, or after the last one unawaited, in order', async () => {
    const { store } = await threaded();
    let answers = 0;
    store.writerThread!.on('message', () => answers++);
    await store.db.connection().execute(async (connection) => {
      await sql`pragma synchronous = normal`.execute(connection);
      await connection
        .transaction()
        .execute((trx) => trx.insertInto('accounts').values(account('acc_1')).execute());
      await sql`pragma synchronous = full`.execute(connection);
    });
    // the setting, BEGIN and the insert; then COMMIT
    assert.equal(answers, 2);
    // the last setting was sent before this statement, on the same connection: FULL is 2
    const [row] = (await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db)).rows;
    assert.equal(row!.synchronous, 2);
    assert.equal(answers, 4);
  });

  test('a writer thread that dies fails every write after it with 503 (readiness too), says so once, and reads go on', async () => {
    const exits: Error[] = [];
    const { store } = await threaded((error) => exits.push(error));
    await store.db.insertInto('accounts').values(account('acc_1')).execute();
    const exited = new Promise((resolve) => store.writerThread!.once('exit', resolve));
    await store.writerThread!.terminate();
    await exited;
    const unavailable = (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(error.status, 503);
      return true;
    };
    await assert.rejects(store.db.insertInto('accounts').values(account('acc_2')).execute(), unavailable);
    await assert.rejects(
      store.db.transaction().execute((trx) => trx.insertInto('accounts').values(account('acc_3')).execute()),
      unavailable,
    );
    // readiness asks the writer too
    await assert.rejects(store.ping(), unavailable);
    assert.equal(exits.length, 1);
    assert.match(exits[0]!.message, /writer thread stopped/);
    assert.deepEqual(await store.db.selectFrom('accounts').select('id').execute(), [{ id: 'acc_1' }]);
  });

  test('close ends the thread after the writes already sent, once', async () => {
    const { store, dataDir } = await threaded();
    stores.pop();
    const exited = new Promise((resolve) => store.writerThread!.once('exit', resolve));
    const write = store.db.insertInto('accounts').values(account('acc_1')).execute();
    await write;
    await store.close();
    await exited;
    await store.close(); // a second close has nothing left to wait for
    const file = new SQLite(sqliteFile(dataDir), { readonly: true });
    assert.equal((file.prepare('select count(*) as n from accounts').get() as { n: number }).n, 1);
    file.close();
  });
});

test('the server answers a write 503 and logs it when its writer thread has died', {
  skip: TEST_BACKEND !== 'sqlite',
}, async () => {
  const t = await startTestServer();
  try {
    const { key } = await t.createKey();
    const store = t.server.store;
    const exited = new Promise((resolve) => store.writerThread!.once('exit', resolve));
    await store.writerThread!.terminate();
    await exited;
    const res = await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'after.example', domainType: 'Marketing' }] },
    });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'SERVICE_UNAVAILABLE');
    assert.ok(
      t.logLines().some((line) => line.includes('SQLite writer thread stopped')),
      t.logLines().join('\n'),
    );
    const ready = await fetch(`${t.url}/readyz`);
    assert.equal(ready.status, 503);
  } finally {
    await t.close();
  }
});
