/**
 * Issue 19: on PostgreSQL a revoked key and a deleted domain are gone from every server
 * process at once, not after the caches' TTL: the change is announced with NOTIFY in its own
 * transaction and each process's listener drops its cached reads. A listener whose connection
 * dropped reconnects and clears its caches, since it may have missed notifications.
 *
 * The caches' TTLs are set to ten minutes, so only a notification explains a refusal within the
 * polling deadline (30 s); a change written with bare SQL (no notification) shows the caches at
 * work.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import pg from 'pg';
import { generateApiKey } from './domain/api-key.js';
import { LISTENER_NAME } from './store/cache-listener.js';
import type { KyselyStore } from './store/kysely-store.js';
import { openStore } from './store/open.js';
import { type PostgresServer, startPostgres } from './test-support/postgres.js';
import { runCli, type ServerProcess, startServerProcesses } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';

let postgres: PostgresServer;
const dataDir = mkdtempSync(path.join(tmpdir(), 'revocation-'));

before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Three {
  servers: ServerProcess[];
  env: Record<string, string>;
  /** The test's own connection to the database, for bare SQL. */
  sql: pg.Client;
  /** The test's own store (as the CLI opens it), without a listener. */
  store: KyselyStore;
  newKey(accountId?: string): Promise<{ secret: string; id: string; accountId: string }>;
}

/** Three server processes on a fresh database, with ten-minute caches; stopped when `t` ends. */
async function startThree(t: TestContext): Promise<Three> {
  const databaseUrl = await postgres.createDatabase();
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // Ten minutes, far above the 30 s polling deadline and a whole loaded run of a test: a
    // cached read that is dropped in time was dropped by a notification, never by its TTL.
    KEY_CACHE_TTL_MS: '600000',
    DOMAIN_CACHE_TTL_MS: '600000',
    SCHEDULER_ENABLED: 'false',
    // A status request checks a domain once (nothing answers on the discard port), then
    // answers from the cache for the rest of the test.
    DNS_RESOLVERS: '127.0.0.1:9',
    DNS_TIMEOUT_MS: '200',
    STATUS_CHECK_MAX_AGE_MS: '3600000',
  };
  const servers = await startServerProcesses(3, env);
  const store = await openStore({ dataDir, databaseUrl });
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  t.after(async () => {
    for (const server of servers) server.child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.exited));
    await sql.end();
    await store.close();
  });
  return {
    servers,
    env,
    sql,
    store,
    async newKey(accountId) {
      const key = generateApiKey();
      const record = await store.createApiKey({
        name: 'revocation',
        keyHash: key.hash,
        keyPrefix: key.prefix,
        scopes: ['*'],
        ...(accountId !== undefined && { accountId }),
      });
      return { secret: key.secret, id: record.id, accountId: record.accountId };
    },
  };
}

async function call(server: ServerProcess, key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const listStatus = async (server: ServerProcess, key: string) =>
  (await call(server, key, 'GET', '/api/public/domain?limit=1')).status;

/** A status poll's HTTP status: answered by the status fast path while the key is cached. */
const pollStatus = async (server: ServerProcess, key: string) =>
  (await call(server, key, 'POST', '/api/public/domain/status', { domains: ['any.example'] })).status;

/** Each server's status for `key`, all at once. */
const statuses = (servers: ServerProcess[], key: string) =>
  Promise.all(servers.map((server) => listStatus(server, key)));
const pollStatuses = (servers: ServerProcess[], key: string) =>
  Promise.all(servers.map((server) => pollStatus(server, key)));

/**
 * Milliseconds from now until `probe` holds for every server, polling each on its own; fails
 * after `deadlineMs`, far below the ten-minute TTLs. 30 s, not 5: on a loaded run (5 files on
 * 2 cores) three processes can each take seconds to be scheduled, take the notification and
 * answer; the TTLs still rule out anything but the notification.
 */
async function millisUntil(
  servers: ServerProcess[],
  probe: (server: ServerProcess) => Promise<boolean>,
  deadlineMs = 30_000,
): Promise<number> {
  const started = performance.now();
  const each = await Promise.all(
    servers.map(async (server) => {
      for (;;) {
        if (await probe(server)) return performance.now() - started;
        if (performance.now() - started > deadlineMs) throw new Error(`not within ${deadlineMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }),
  );
  return Math.max(...each);
}

test('a key revoked through one process or the CLI is refused by every process at once', async (t) => {
  const { servers, env, sql, store, newKey } = await startThree(t);
  const [unannounced, revoked, byCli] = [await newKey(), await newKey(), await newKey()];
  // Every process has looked each key up, so each holds it in its cache.
  for (const key of [unannounced, revoked, byCli]) {
    assert.deepEqual(await statuses(servers, key.secret), [200, 200, 200]);
    assert.deepEqual(await pollStatuses(servers, key.secret), [200, 200, 200]);
  }

  // Revoked behind the service's back (no notification): the cached key still works.
  await sql.query('update api_keys set revoked_at = $1 where id = $2', [Date.now(), unannounced.id]);
  assert.deepEqual(await statuses(servers, unannounced.secret), [200, 200, 200], 'the caches are in use');

  // Revoked as the service revokes (KyselyStore.revokeApiKey, which the CLI runs).
  await store.revokeApiKey(revoked.id);
  const delay = await millisUntil(
    servers,
    async (server) => (await listStatus(server, revoked.secret)) === 401,
  );
  t.diagnostic(`a revoked key was refused by all three processes ${delay.toFixed(1)} ms after the commit`);
  assert.deepEqual(await pollStatuses(servers, revoked.secret), [401, 401, 401], 'status polls too');

  const cli = await runCli(['keys', 'revoke', byCli.id], env);
  assert.equal(cli.code, 0, cli.stderr);
  const cliDelay = await millisUntil(
    servers,
    async (server) => (await listStatus(server, byCli.secret)) === 401,
  );
  t.diagnostic(`a key revoked by the CLI was refused by all three ${cliDelay.toFixed(1)} ms after it exited`);

  // Only the revoked keys were dropped: the unannounced revocation is still unseen.
  assert.deepEqual(await statuses(servers, unannounced.secret), [200, 200, 200]);
  // A key created meanwhile works everywhere at once: misses are never cached.
  assert.deepEqual(await statuses(servers, (await newKey()).secret), [200, 200, 200]);
});

test('a domain deleted through one process is gone from the others at once', async (t) => {
  const { servers, sql, newKey } = await startThree(t);
  const key = (await newKey()).secret;
  const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
  const names = ['gone.example.com', 'kept.example.com'];
  const registered = await call(a, key, 'POST', '/api/public/domain', {
    domains: names.map((domain) => ({ domain, domainType: 'Transactional' })),
  });
  assert.deepEqual(
    registered.body.map((e: { status: number }) => e.status),
    [200, 200],
  );
  const status = async (server: ServerProcess) =>
    (await call(server, key, 'POST', '/api/public/domain/status', { domains: names })).body as {
      status: number;
      data: { type: string; lastCheckedAt: string | null } | null;
    }[];
  // The first status request checks the domains; once they are checked, B and C cache them.
  await waitUntil('both domains checked', async () =>
    (await status(b)).every((entry) => entry.data?.lastCheckedAt !== null),
  );
  for (const server of [b, c]) await status(server);

  // Changed behind the service's back (no notification): B and C still answer from their caches.
  await sql.query(`update domains set type = 'Marketing' where name = 'kept.example.com'`);
  for (const server of [b, c]) assert.equal((await status(server))[1]!.data!.type, 'Transactional');

  const deleted = await call(a, key, 'DELETE', '/api/public/domain', { domains: ['gone.example.com'] });
  assert.deepEqual(deleted.body[0].data, { domain: 'gone.example.com', deleted: true });
  const delay = await millisUntil([b, c], async (server) => (await status(server))[0]!.status === 404);
  t.diagnostic(
    `a deleted domain was gone from the other two processes ${delay.toFixed(1)} ms after the answer`,
  );
  for (const server of [b, c]) {
    const [gone, kept] = await status(server);
    assert.equal(gone!.status, 404);
    assert.equal(kept!.data!.type, 'Transactional', 'only the deleted domain was dropped');
    const listed = await call(server, key, 'GET', '/api/public/domain?limit=10');
    assert.deepEqual(
      listed.body.data.domains.map((d: { domain: string }) => d.domain),
      ['kept.example.com'],
    );
  }
});

test('a listener whose connection dropped reconnects and clears the caches, as it may have missed changes', async (t) => {
  const { servers, sql, newKey } = await startThree(t);
  const key = await newKey();
  assert.deepEqual(await statuses(servers, key.secret), [200, 200, 200]);

  const { rows } = await sql.query(
    // this database's listeners only: the cluster may be the whole test run's
    'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1 and datname = current_database()',
    [LISTENER_NAME],
  );
  assert.equal(rows.length, 3, 'one listening connection per process');
  // Revoked with no notification, as if sent while nobody listened.
  await sql.query('update api_keys set revoked_at = $1 where id = $2', [Date.now(), key.id]);

  await waitUntil('every process listens again', () =>
    servers.every((server) => server.output().includes('"msg":"cache notifications resumed')),
  );
  assert.deepEqual(await statuses(servers, key.secret), [401, 401, 401]);
  for (const server of servers) {
    const lost = server.output().match(/"msg":"the PostgreSQL connection for cache notifications was lost/g);
    assert.equal(lost?.length, 1, 'one warning');
  }
  const { rows: listening } = await sql.query(
    'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
    [LISTENER_NAME],
  );
  assert.equal(listening[0].n, 3);
});
