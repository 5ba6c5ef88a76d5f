/**
 * Issue 39: migration 0014's key roles at scale, on PostgreSQL. Seeds a database at migration
 * 0013 with BENCH_BACKFILL_DOMAINS domains (default 1,000,000), three DKIM records and keys
 * each, straight in SQL; copies it twice (a template), then measures:
 * - before: migrating to latest and running the two UPDATEs 0014 ran before issue 39 (what
 *   start-up waited for);
 * - after: migrating to latest (what start-up waits for now), then the background backfill to
 *   its end, in its default batches.
 *
 * Run: `node --import tsx bench/key-state-backfill.bench.ts` in packages/server.
 */
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { KeyStateBackfill } from '../src/store/key-state-backfill.js';
import { migrationProvider } from '../src/store/migrations/index.js';
import type { Database } from '../src/store/tables.js';
import { startPostgres } from '../src/test-support/postgres.js';

const domains = Number(process.env.BENCH_BACKFILL_DOMAINS ?? 1_000_000);

const open = (url: string) =>
  new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
  });

async function timed(what: string, run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  console.log(`${what}: ${seconds.toFixed(2)} s`);
  return seconds;
}

const postgres = await startPostgres();
try {
  const template = await postgres.createDatabase();
  const seedDb = open(template);
  await timed(`seed ${domains} domains at 0013`, async () => {
    const migrator = new Migrator({ db: seedDb, provider: migrationProvider });
    const result = await migrator.migrateTo('0013-domain-connect');
    if (result.error) throw result.error;
    await sql`insert into accounts (id, name, created_at) values ('acc', 'a', 1)`.execute(seedDb);
    const step = 250_000;
    for (let from = 0; from < domains; from += step) {
      const to = Math.min(domains, from + step) - 1;
      await sql`insert into domains (id, account_id, name, type, status, created_at, updated_at)
        select 'dom' || lpad(i::text, 9, '0'), 'acc', 'd' || i || '.bench', 'Marketing', 'verified', 1, 1
        from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(seedDb);
      await sql`insert into domain_records (domain_id, position, kind, token, status)
        select 'dom' || lpad((i / 3)::text, 9, '0'), i % 3, 'dkim', 'k' || i, 'verified'
        from generate_series(${from * 3}::bigint, ${to * 3 + 2}::bigint) as i`.execute(seedDb);
      await sql`insert into dkim_keys (token, public_key, private_key_enc, created_at, revoked_at)
        select 'k' || i, 'p', 'e', 1000 + i, case when i % 97 = 0 then 2000 + i else null end
        from generate_series(${from * 3}::bigint, ${to * 3 + 2}::bigint) as i`.execute(seedDb);
    }
    await sql`analyze`.execute(seedDb);
  });
  await seedDb.destroy();

  const before = open(await postgres.createDatabase({ template }));
  await timed('before: migrate to latest', async () => {
    const result = await new Migrator({ db: before, provider: migrationProvider }).migrateToLatest();
    if (result.error) throw result.error;
  });
  await timed("before: 0014's two UPDATEs in the migration (start-up waited for them)", async () => {
    await sql`
      update domain_records as r set key_created_at = k.created_at, key_state_since = k.created_at,
        key_state = case when k.revoked_at is not null then 'retired' when r.position = 0 then 'active' else 'next' end
      from dkim_keys as k where r.kind = 'dkim' and k.token = r.token`.execute(before);
    await sql`update domains set dkim_rotate_at = 0 where exists (
      select 1 from domain_records r where r.domain_id = domains.id and r.key_state is not null)`.execute(
      before,
    );
  });
  await before.destroy();

  const after = open(await postgres.createDatabase({ template }));
  await timed('after: migrate to latest (start-up waits for this)', async () => {
    const result = await new Migrator({ db: after, provider: migrationProvider }).migrateToLatest();
    if (result.error) throw result.error;
  });
  await timed('after: background backfill to its end', () =>
    new KeyStateBackfill(after, {
      log: { info: (fields, message) => console.log(message, JSON.stringify(fields)), error: console.error },
    })
      .start()
      .done(),
  );
  const left = await sql<{
    n: string;
  }>`select count(*) as n from domain_records where key_state is null`.execute(after);
  console.log(`records left unfilled: ${left.rows[0]?.n}`);
  await after.destroy();
} finally {
  await postgres.stop();
}
