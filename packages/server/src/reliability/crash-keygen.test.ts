/**
 * A SIGKILL while DKIM keys are being generated leaves no domain without keys: the
 * generator looks for tokens without a key when it starts, so the restarted server
 * finishes the work. Runs on both backends (TEST_BACKEND).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { sqliteFile } from '../store/open.js';
import type { Database } from '../store/tables.js';
import { testPool } from '../test-support/postgres.js';
import { runCli, startServerProcess } from '../test-support/processes.js';
import { TEST_BACKEND, testDatabaseUrl } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'crash-keygen-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test(`a kill during key generation leaves no domain without keys after restart (${TEST_BACKEND})`, async (t) => {
  const databaseUrl = await testDatabaseUrl();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SCHEDULER_ENABLED: 'false',
    DKIM_KEYGEN_CONCURRENCY: '1',
    // normal priority: at nice 19 a machine busy with other work (the rest of the suite, a
    // second job) starves key generation, and the wait below would measure that load
    DKIM_KEYGEN_NICE: '0',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
  };
  const key = (await runCli(['keys', 'create', '--name', 'keygen'], env)).stdout.trim().split('\n').at(-1)!;
  // Read-only observer of the database the server writes.
  const db = new Kysely<Database>({
    dialect: databaseUrl
      ? new PostgresDialect({ pool: testPool(databaseUrl, 1) })
      : new SqliteDialect({
          database: new SQLite(sqliteFile(dataDir), { readonly: true, fileMustExist: true }),
        }),
  });
  const counts = async () => {
    const tokens = await db
      .selectFrom('domain_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'dkim')
      .executeTakeFirstOrThrow();
    const keys = await db
      .selectFrom('dkim_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { tokens: Number(tokens.n), keys: Number(keys.n) };
  };
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    server = await startServerProcess(env);
    const res = await fetch(`${server.url}/api/public/domain`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({
        domains: Array.from({ length: 12 }, (_, i) => ({
          domain: `k${i}.keygen.test`,
          domainType: 'Marketing',
        })),
      }),
    });
    assert.equal(res.status, 200);
    await waitUntil('some keys exist', async () => (await counts()).keys > 0, 120_000);
    server.child.kill('SIGKILL');
    await server.exited;
    const atKill = await counts();
    t.diagnostic(`killed with ${atKill.keys} of ${atKill.tokens} keys generated`);
    assert.ok(atKill.keys < atKill.tokens, 'the kill came mid-generation');

    server = await startServerProcess(env);
    await waitUntil(
      'every token has its key',
      async () => {
        const now = await counts();
        return now.keys === now.tokens;
      },
      120_000,
    );
    const done = await counts();
    assert.equal(done.tokens, 36);
    assert.equal(done.keys, 36);
  } finally {
    // also when an assertion failed: a server left running keeps this test process alive
    server?.child.kill('SIGTERM');
    await server?.exited;
    await db.destroy();
  }
});
