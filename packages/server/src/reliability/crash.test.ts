/**
 * Crash safety: SIGKILL the server in the middle of a storm of registrations and deletions,
 * restart it, and check that every acknowledged write is there, every acknowledged deletion
 * is gone, and nothing unacknowledged is half-written. On SQLite the file also passes
 * `PRAGMA integrity_check` after every kill. Runs on both backends (TEST_BACKEND).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sqliteFile } from '../store/open.js';
import { runCli, type ServerProcess, startServerProcess } from '../test-support/processes.js';
import { TEST_BACKEND, testDatabaseUrl } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';

const CYCLES = 20;
const WORKERS = 6;
const NAMES_PER_WORKER = 25;

const dataDir = mkdtempSync(path.join(tmpdir(), 'crash-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** What a worker knows of one name: the last acknowledged state, and whether a write is in flight. */
interface Known {
  registered: boolean;
  tokens: string | null;
  inFlight: boolean;
}

const tokensOf = (data: { records: { record: string }[] }) => data.records.map((r) => r.record).join(',');

test(`${CYCLES} SIGKILLs during a write storm lose no acknowledged write and leave nothing half-written (${TEST_BACKEND})`, async (t) => {
  const databaseUrl = await testDatabaseUrl();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    RATE_LIMIT_MAX: '100000000',
    SCHEDULER_ENABLED: 'false',
    STATUS_CHECK_MAX_AGE_MS: '86400000',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
  };
  const key = (await runCli(['keys', 'create', '--name', 'crash'], env)).stdout.trim().split('\n').at(-1)!;
  const known = new Map<string, Known>();
  const names = Array.from({ length: WORKERS * NAMES_PER_WORKER }, (_, i) => `c${i}.crash.test`);
  for (const name of names) known.set(name, { registered: false, tokens: null, inFlight: false });
  const call = (server: ServerProcess, method: string, route: string, body: unknown) =>
    fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any[] }));

  let acknowledged = 0;
  let unacknowledged = 0;
  let verified = 0;
  let server = await startServerProcess(env);
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    let killed = false;
    // Each worker owns its own names and writes them one request at a time, so the order of
    // its acknowledgements is the order of its commits.
    const workers = Array.from({ length: WORKERS }, async (_, w) => {
      const mine = names.filter((_, i) => i % WORKERS === w);
      while (!killed) {
        const batch = mine.filter(() => Math.random() < 0.2).slice(0, 5);
        if (batch.length === 0) continue;
        const register = Math.random() < 0.6;
        for (const name of batch) known.get(name)!.inFlight = true;
        let res: Awaited<ReturnType<typeof call>>;
        try {
          res = register
            ? await call(server, 'POST', '/api/public/domain', {
                domains: batch.map((domain) => ({ domain, domainType: 'Marketing' })),
              })
            : await call(server, 'DELETE', '/api/public/domain', { domains: batch });
        } catch {
          // The server died under this request: its names stay "in flight" (unknown outcome).
          unacknowledged += batch.length;
          return;
        }
        // An answer arrived, so the server was alive to give it: it must be a success.
        assert.equal(res.status, 200);
        batch.forEach((name, i) => {
          const envelope = res.body[i];
          const state = known.get(name)!;
          if (register) Object.assign(state, { registered: true, tokens: tokensOf(envelope.data) });
          else if (envelope.status === 200 || envelope.status === 404)
            Object.assign(state, { registered: false, tokens: null });
          state.inFlight = false;
        });
        acknowledged += batch.length;
      }
    });
    // The kill comes at a random point of a storm under way: after this cycle's first writes are
    // acknowledged, not after a fixed time, which on a loaded run (five files on two cores) left
    // cycles with hardly a write in them (131 acknowledged over 20 kills once).
    const before = acknowledged;
    await waitUntil('this cycle to acknowledge 5 writes', () => acknowledged - before >= 5);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 450));
    killed = true;
    server.child.kill('SIGKILL');
    await server.exited;
    await Promise.all(workers);

    if (TEST_BACKEND === 'sqlite') {
      const db = new SQLite(sqliteFile(dataDir));
      try {
        assert.equal(
          db.pragma('integrity_check', { simple: true }),
          'ok',
          `integrity after kill ${cycle + 1}`,
        );
      } finally {
        db.close();
      }
    }

    server = await startServerProcess(env);
    for (let i = 0; i < names.length; i += 100) {
      const slice = names.slice(i, i + 100);
      const res = await call(server, 'POST', '/api/public/domain/status', { domains: slice });
      slice.forEach((name, j) => {
        const envelope = res.body[j];
        const state = known.get(name)!;
        if (envelope.status === 200) {
          // Whatever is there is whole: four records, three tokens.
          assert.equal(envelope.data.records.length, 4, name);
          assert.ok(
            envelope.data.records
              .slice(0, 3)
              .every((r: { record: string }) => /^[a-z2-7]{32}$/.test(r.record)),
          );
        }
        if (state.inFlight) {
          // Unknown outcome: accept either, and learn it.
          Object.assign(state, {
            registered: envelope.status === 200,
            tokens: envelope.status === 200 ? tokensOf(envelope.data) : null,
            inFlight: false,
          });
          return;
        }
        if (state.registered) {
          assert.equal(
            envelope.status,
            200,
            `${name}: an acknowledged registration is lost after kill ${cycle + 1}`,
          );
          assert.equal(tokensOf(envelope.data), state.tokens, `${name}: tokens changed`);
        } else {
          assert.equal(
            envelope.status,
            404,
            `${name}: an acknowledged deletion came back after kill ${cycle + 1}`,
          );
        }
        verified += 1;
      });
    }
  }
  server.child.kill('SIGTERM');
  await server.exited;
  t.diagnostic(
    `crashes survived: ${CYCLES}; writes acknowledged: ${acknowledged}; in flight at a kill: ${unacknowledged}; name states verified after restarts: ${verified}`,
  );
  // every name's state was checked after every restart (a write in flight at a kill is learnt, not checked)
  assert.ok(verified > CYCLES * names.length * 0.5, 'the checks after the restarts covered the names');
});
