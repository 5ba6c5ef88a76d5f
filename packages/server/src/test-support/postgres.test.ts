import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { childImport } from './child-import.js';
import { type PostgresServer, startPostgres } from './postgres.js';

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A pid that is gone or a zombie no longer runs (its new parent may not have reaped it yet). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The live processes whose parent is `pid`: the postmaster's backends and auxiliary processes. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(ppid) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe('a private cluster', () => {
  let postgres: PostgresServer;
  let startMs = 0;
  before(async () => {
    const t0 = performance.now();
    postgres = await startPostgres({ env: {} });
    startMs = performance.now() - t0;
  });
  after(() => postgres?.stop());

  test('starts on loopback with relaxed durability, as the postgres user when run as root', async (t) => {
    t.diagnostic(`initdb + start took ${startMs.toFixed(0)} ms`);
    assert.match(postgres.url, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const [settings] = await query<{ listen: string; fsync: string; version: string }>(
      postgres.url,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync, current_setting('server_version_num') AS version",
    );
    assert.deepEqual(
      { listen: settings!.listen, fsync: settings!.fsync },
      { listen: '127.0.0.1', fsync: 'off' },
    );
    assert.ok(Number(settings!.version) >= 150000);
    if (process.getuid?.() === 0) {
      const uid = readFileSync(`/proc/${postgres.pid}/status`, 'utf8').match(/^Uid:\s+(\d+)/m)![1];
      assert.equal(uid, execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    }
  });

  test('createDatabase gives each test its own empty database', async (t) => {
    const t0 = performance.now();
    const first = await postgres.createDatabase();
    t.diagnostic(`createDatabase took ${(performance.now() - t0).toFixed(0)} ms`);
    const second = await postgres.createDatabase();
    assert.notEqual(first, second);

    for (const url of [first, second]) {
      const [row] = await query<{ db: string; tables: string }>(
        url,
        "SELECT current_database() AS db, (SELECT count(*) FROM pg_tables WHERE schemaname = 'public') AS tables",
      );
      assert.equal(row!.db, new URL(url).pathname.slice(1));
      assert.equal(Number(row!.tables), 0);
    }
    await query(first, 'CREATE TABLE marker (id int)');
    await query(first, 'INSERT INTO marker VALUES (1), (2)');
    assert.deepEqual(await query(first, 'SELECT count(*)::int AS n FROM marker'), [{ n: 2 }]);
    assert.deepEqual(await query(second, "SELECT to_regclass('marker') AS t"), [{ t: null }]);
  });

  test('TEST_DATABASE_URL selects that server, whose databases are dropped on stop', async () => {
    const external = await startPostgres({ env: { TEST_DATABASE_URL: postgres.url } });
    assert.equal(external.pid, undefined);
    assert.equal(external.url, postgres.url);
    const url = await external.createDatabase();
    const name = new URL(url).pathname.slice(1);
    assert.deepEqual(await query(url, 'SELECT current_database() AS db'), [{ db: name }]);
    await external.stop();
    assert.deepEqual(
      await query(postgres.url, 'SELECT datname FROM pg_database WHERE datname = $1', [name]),
      [],
    );
    assert.deepEqual(await query(postgres.url, 'SELECT 1 AS up'), [{ up: 1 }]);
    await assert.rejects(startPostgres({ env: { TEST_DATABASE_URL: 'mysql://x' } }), RangeError);
  });
});

describe('stopping', () => {
  test('stop ends the postmaster and every backend, and deletes the directory', async () => {
    const postgres = await startPostgres({ env: {} });
    const { pid, dir, url } = postgres;
    assert.ok(pid !== undefined && dir !== undefined && isRunning(pid));
    const client = new pg.Client({ connectionString: url });
    await client.connect(); // a client still connected must not hold up a fast shutdown
    client.on('error', () => {});
    const backends = childrenOf(pid);
    assert.ok(backends.length >= 3, `expected checkpointer, walwriter, … got ${backends.length}`);

    await postgres.stop();
    assert.equal(isRunning(pid), false);
    assert.deepEqual(backends.filter(isRunning), []);
    assert.equal(existsSync(dir), false);
    await assert.rejects(query(url, 'SELECT 1'), { code: 'ECONNREFUSED' });
    await client.end().catch(() => {});
  });

  for (const ending of ['crashes', 'is killed'] as const) {
    test(`a test process that ${ending} leaves no postgres behind`, async () => {
      const subject = childImport(import.meta.url, './postgres.ts');
      const script = `
        import { startPostgres } from ${JSON.stringify(subject.href)};
        const postgres = await startPostgres({ env: {} });
        console.log(JSON.stringify({ pid: postgres.pid, dir: postgres.dir }));
        // it crashes when told, once the test has seen its postgres running (a 50 ms timer raced
        // that check: on a loaded run the crash handler could stop postgres before it)
        if (process.env.ENDING === 'crashes') process.stdin.once('data', () => { throw new Error('boom'); });
        else setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, [...subject.nodeArgs, '--input-type=module', '-e', script], {
        env: { ...process.env, ENDING: ending },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // 90 s, not 30: a node start, initdb and postgres's start each take seconds on a loaded
      // run (5 files on 2 cores), and the child reports a failure to start itself
      await eventually(() => stdout.includes('\n') || child.exitCode !== null, 90_000);
      assert.ok(stdout.includes('\n'), `the child did not start postgres: ${stderr}`);
      const { pid, dir } = JSON.parse(stdout) as { pid: number; dir: string };
      assert.ok(isRunning(pid));
      const backends = childrenOf(pid);
      if (ending === 'is killed') child.kill('SIGKILL');
      else child.stdin.write('crash\n');
      assert.notEqual(await exited, 0);
      // 30 s, not 5: postgres's shutdown takes seconds on a loaded run (5 files on 2 cores); a
      // postmaster or backend left behind still fails.
      assert.ok(await eventually(() => !isRunning(pid), 30_000), `postmaster ${pid} survived`);
      // Backends notice their postmaster is gone and exit on their own.
      assert.ok(await eventually(() => !backends.some(isRunning), 30_000), 'a backend survived');
      // An exit handler can remove the directory; after SIGKILL only the kernel acts, and the
      // directory is left for whoever killed the process.
      if (ending === 'crashes') assert.equal(existsSync(dir), false);
      else rmSync(dir, { recursive: true, force: true });
    });
  }
});
