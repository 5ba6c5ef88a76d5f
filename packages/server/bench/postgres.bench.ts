/**
 * Issue 5: status polling and registration throughput on PostgreSQL with one and with two
 * server processes, side by side with SQLite, in the same run. PostgreSQL keeps its
 * production durability settings (fsync, synchronous commit), as SQLite does.
 */
import { startPostgres } from '../src/test-support/postgres.js';
import {
  eachBody,
  type LoadResult,
  load,
  newDomainBody,
  type Proc,
  row,
  startService,
  statusBodyOf,
} from './support.js';

type Service = Proc & { key: string };

/** Split the load over the processes (one autocannon each) and add the results up. */
async function loadAll(services: Service[], route: string, body: (n: number) => string): Promise<LoadResult> {
  // one counter for all processes, so no two registrations share a name
  const bodies = eachBody(body);
  const results = await Promise.all(
    services.map((s) =>
      load({
        url: `${s.url}${route}`,
        method: 'POST',
        connections: Math.ceil(10 / services.length),
        headers: { authorization: s.key, 'content-type': 'application/json' },
        requests: bodies,
      }),
    ),
  );
  return {
    requests: results.reduce((a, r) => a + r.requests, 0),
    rps: results.reduce((a, r) => a + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((a, r) => a + r.non2xx, 0),
    errors: results.reduce((a, r) => a + r.errors, 0),
  };
}

async function measure(label: string, services: Service[], results: [string, LoadResult][]): Promise<void> {
  const [first] = services;
  // Every process uses the first one's key: they share the database.
  for (const s of services) s.key = first!.key;
  const names = Array.from({ length: 20 }, (_, i) => `poll${i}.bench.example`);
  await fetch(`${first!.url}/api/public/domain`, {
    method: 'POST',
    headers: { authorization: first!.key, 'content-type': 'application/json' },
    body: JSON.stringify({ domains: names.map((domain) => ({ domain, domainType: 'Marketing' })) }),
  });
  const statusBody = statusBodyOf(names);
  await loadAll(services, '/api/public/domain/status', statusBody); // warm-up
  results.push([
    `${label}: status polling`,
    await loadAll(services, '/api/public/domain/status', statusBody),
  ]);
  const registerBody = newDomainBody(`r${Date.now()}-`);
  results.push([`${label}: registration`, await loadAll(services, '/api/public/domain', registerBody)]);
}

export async function runPostgresBench(): Promise<void> {
  console.log(
    '\n## SQLite vs PostgreSQL 15 (durable), 1 and 2 processes; autocannon, 10 connections in all, 5 s each',
  );
  const results: [string, LoadResult][] = [];
  // DNS checks are not what is measured here: none run (the last check stays fresh).
  const quiet = { STATUS_CHECK_MAX_AGE_MS: '3600000', SCHEDULER_ENABLED: 'false' };

  const sqlite = await startService(quiet);
  try {
    await measure('SQLite, 1 process', [sqlite], results);
  } finally {
    await sqlite.stop();
  }

  const postgres = await startPostgres({ durable: true });
  try {
    const one = await startService({ ...quiet, DATABASE_URL: await postgres.createDatabase() });
    try {
      await measure('PostgreSQL, 1 process', [one], results);
    } finally {
      await one.stop();
    }
    const databaseUrl = await postgres.createDatabase();
    const two = [
      await startService({ ...quiet, DATABASE_URL: databaseUrl }),
      await startService({ ...quiet, DATABASE_URL: databaseUrl }),
    ];
    try {
      await measure('PostgreSQL, 2 processes', two, results);
    } finally {
      await Promise.all(two.map((s) => s.stop()));
    }
  } finally {
    await postgres.stop();
  }
  for (const [label, result] of results) console.log(row(label, result));
  const base = Object.fromEntries(results.map(([label, r]) => [label, r.rps]));
  for (const kind of ['status polling', 'registration']) {
    const sqliteRps = base[`SQLite, 1 process: ${kind}`]!;
    const ratio = (label: string) => (base[`${label}: ${kind}`]! / sqliteRps).toFixed(2);
    console.log(
      `${kind}: PostgreSQL 1 process ${ratio('PostgreSQL, 1 process')}× SQLite, 2 processes ${ratio('PostgreSQL, 2 processes')}× SQLite`,
    );
  }
}
