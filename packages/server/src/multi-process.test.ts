/**
 * Several server processes on one PostgreSQL database, as behind a load balancer: they
 * migrate safely when started at once, register a domain once however many race to, never
 * check a domain twice, and pick up the work of a process killed mid-check.
 *
 * Always on PostgreSQL (a private cluster), whatever TEST_BACKEND says: SQLite is one process.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, test } from 'node:test';
import pg from 'pg';
import sharp from 'sharp';
import { migrationProvider } from './store/migrations/index.js';
import { type BindServer, startBind } from './test-support/bind.js';
import { type PostgresServer, startPostgres } from './test-support/postgres.js';
import { runCli, serverFleet } from './test-support/processes.js';
import { startTestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

let postgres: PostgresServer;
let bind: BindServer;
const fleet = serverFleet('multi-');
const start = fleet.start;

before(async () => {
  [postgres, bind] = await Promise.all([startPostgres(), startBind({ zones: ['multi.test'] })]);
});
after(async () => {
  await fleet.stop();
  await Promise.all([postgres.stop(), bind.close()]);
});

async function post(url: string, key: string, route: string, body: unknown) {
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as any[];
}

test('three processes share one database: one registration per name, one check per due domain', async () => {
  const databaseUrl = await postgres.createDatabase();
  const env = {
    DATABASE_URL: databaseUrl,
    DNS_RESOLVERS: bind.address,
    SCHEDULER_INTERVAL_MS: '50',
    SCHEDULER_BATCH: '20',
    IMAGE_QUOTA_COUNT: '2',
  };
  // Started at once: the migrations run under an advisory lock, exactly once.
  const servers = await Promise.all([start(env), start(env), start(env)]);
  const key = (await runCli(['keys', 'create', '--name', 'multi'], env)).stdout.trim().split('\n').at(-1)!;

  // 30 requests race to register the same name, spread over the three processes.
  const racing = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      post(servers[i % 3]!.url, key, '/api/public/domain', {
        domains: [{ domain: 'same.multi.test', domainType: 'Marketing' }],
      }),
    ),
  );
  const tokens = new Set(
    racing.map((r) => r[0].data.records.map((x: { record: string }) => x.record).join()),
  );
  assert.equal(tokens.size, 1, 'every request got the same registration');

  // 150 domains registered through the three processes, each name twice.
  const names = Array.from({ length: 150 }, (_, i) => `n${i}.multi.test`);
  await Promise.all(
    [0, 1, 2, 3, 4, 5].map((part) =>
      post(servers[part % 3]!.url, key, '/api/public/domain', {
        domains: names
          .filter((_, i) => i % 3 === part % 3)
          .map((domain) => ({ domain, domainType: 'Transactional' })),
      }),
    ),
  );

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const count = await db.query(
      `select name, count(*)::int as n from domains group by name having count(*) > 1`,
    );
    assert.deepEqual(count.rows, [], 'no name registered twice');
    const total = await db.query(`select count(*)::int as n from domains`);
    assert.equal(total.rows[0].n, 151);
    // Every migration, once, whichever process ran it.
    const applied = await db.query(`select name from kysely_migration order by name`);
    assert.deepEqual(
      applied.rows.map((r) => r.name),
      Object.keys(await migrationProvider.getMigrations()).sort(),
    );

    await waitUntil('every domain is checked', async () => {
      const { rows } = await db.query(`select count(*)::int as n from domains where last_checked_at is null`);
      return rows[0].n === 0;
    });
    // The next scheduled check is a minute away, so any count above one is a duplicate.
    const checks = await db.query(`select check_count, count(*)::int as n from domains group by check_count`);
    assert.deepEqual(checks.rows, [{ check_count: 1, n: 151 }]);
  } finally {
    await db.end();
  }

  // 30 different images uploaded at once through the three processes, at a quota of two:
  // two are kept, whichever processes took them (issue 33).
  const images = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: { r: i, g: 0, b: 0 } } })
        .png()
        .toBuffer(),
    ),
  );
  const uploads = await Promise.all(
    images.map(async (png, i) => {
      const form = new FormData();
      form.append('file', new Blob([png]), `${i}.png`);
      const res = await fetch(`${servers[i % 3]!.url}/api/public/images`, {
        method: 'POST',
        body: form,
        headers: { authorization: key },
      });
      return { status: res.status, body: (await res.json()) as any };
    }),
  );
  assert.deepEqual(
    [200, 409].map((status) => uploads.filter((u) => u.status === status).length),
    [2, 28],
    JSON.stringify(uploads.map((u) => u.status)),
  );
  const listed = await fetch(`${servers[0]!.url}/api/public/images`, { headers: { authorization: key } });
  assert.equal(((await listed.json()) as any).data.usage.count, 2);
});

test('a process killed mid-check loses nothing: another picks its claims up after the lease', async () => {
  const databaseUrl = await postgres.createDatabase();
  // A DNS server that never answers: the victim's checks hang while it holds their claims.
  const blackhole = createSocket('udp4');
  await new Promise<void>((resolve) => blackhole.bind(0, '127.0.0.1', resolve));
  const silent = `127.0.0.1:${blackhole.address().port}`;
  try {
    const common = { DATABASE_URL: databaseUrl, SCHEDULER_INTERVAL_MS: '50', CHECK_LEASE_MS: '2000' };
    const victim = await start({ ...common, DNS_RESOLVERS: silent, DNS_TIMEOUT_MS: '30000', DNS_TRIES: '1' });
    const key = (await runCli(['keys', 'create', '--name', 'victim'], common)).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const names = Array.from({ length: 40 }, (_, i) => `k${i}.multi.test`);
    const registered = await post(victim.url, key, '/api/public/domain', {
      domains: names.map((domain) => ({ domain, domainType: 'Marketing' })),
    });
    assert.ok(registered.every((e) => e.status === 200));

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await waitUntil('the victim holds claims', async () => {
        const { rows } = await db.query(
          `select count(*)::int as n from domains where claimed_until is not null`,
        );
        return rows[0].n > 0;
      });
      victim.child.kill('SIGKILL');
      await victim.exited;

      const rescuer = await start({ ...common, DNS_RESOLVERS: bind.address });
      await waitUntil('every domain is checked', async () => {
        const { rows } = await db.query(
          `select count(*)::int as n from domains where last_checked_at is null`,
        );
        return rows[0].n === 0;
      });
      const { rows } = await db.query(`select name, check_count from domains order by name`);
      assert.equal(rows.length, 40, 'every acknowledged registration is there');
      assert.ok(rows.every((r) => r.check_count === 1));
      const listed = await fetch(`${rescuer.url}/api/public/domain?limit=100`, {
        headers: { authorization: key },
      });
      assert.equal(((await listed.json()) as any).data.domains.length, 40);
    } finally {
      await db.end();
    }
  } finally {
    blackhole.close();
  }
});

test('a status poll in one process waits for the check another process is running', async (t) => {
  const databaseUrl = await postgres.createDatabase();
  // The checking process's DNS never answers, so its check holds the domain through several
  // 800 ms timeouts in turn (~3 s).
  const blackhole = createSocket('udp4');
  await new Promise<void>((resolve) => blackhole.bind(0, '127.0.0.1', resolve));
  t.after(() => blackhole.close());
  const checker = await startTestServer({
    DATABASE_URL: databaseUrl,
    DNS_RESOLVERS: `127.0.0.1:${blackhole.address().port}`,
    DNS_TIMEOUT_MS: '800',
    DNS_TRIES: '1',
    SCHEDULER_INTERVAL_MS: '10',
  });
  t.after(() => checker.close());
  const poller = await startTestServer({
    DATABASE_URL: databaseUrl,
    SCHEDULER_ENABLED: 'false',
    // Long enough for the other process's whole check however slow: on a loaded run (5 files on
    // 2 cores) its ~3 s of timeouts can outlast a 5 s wait, and the poll answers unchecked. The
    // poll still answers only once that check has landed: the meaning is unchanged.
    STATUS_CHECK_WAIT_MS: '30000',
  });
  t.after(() => poller.close());
  const { key, accountId } = await poller.createKey();
  await checker.createKey({ accountId });
  await poller.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain: 'held.multi.test', domainType: 'Marketing' }] },
  });
  // Let the checker's scheduler claim the new domain.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await waitUntil('the checker claims the domain', async () => {
      const { rows } = await db.query(`select claimed_until from domains where name = 'held.multi.test'`);
      return rows.length === 1 && rows[0].claimed_until !== null;
    });
  } finally {
    await db.end();
  }
  const polled = await poller.request('POST', '/api/public/domain/status', {
    key,
    body: { domains: ['held.multi.test'] },
  });
  const data = polled.body[0].data;
  assert.notEqual(data.lastCheckedAt, null, "the poll answered after the other process's check");
  assert.deepEqual(
    data.records.map((r: { reason: string }) => r.reason),
    ['dns_error', 'dns_error', 'dns_error', 'dns_error'],
  );
});
