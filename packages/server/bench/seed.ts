/**
 * Registered domains written straight in SQL on PostgreSQL (generate_series, a million rows a
 * statement), for the benches that need millions of them: the scale bench (issue 19, issue 39 at
 * 10,000,000 domains) and the zone bench. Writing them through Node, as `loadDomains` in
 * `scale.bench.ts` does (and still does on SQLite), takes hours at ten million.
 *
 * The rows are those `loadDomains` writes: each domain with its three DKIM records and DMARC
 * record, and its three keys; a tenth due for a check (and the first 1,000); keys made 1 to 89
 * days ago, scattered over the ids by the same multiplicative hash, so each domain's switch
 * (`dkim_rotate_at`) falls in the coming 90 days. Keys are copies of the key given.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import pg from 'pg';

/** `loadDomains` and {@link seedDomains} name domain i so (sorting as the numbers do, up to 10^8). */
export const nameOf = (i: number) => `d${String(i).padStart(8, '0')}.scale.example`;

/**
 * The token of domain i's DKIM record at `position` (0–2): 32 characters, the id first (so the
 * token index fills in order), then 23 of an MD5 that scatters them, as {@link seedDomains}
 * writes it in SQL.
 */
export const tokenSql = `lpad(i::text, 8, '0') || p || left(md5(i || ':' || p), 23)`;

/** {@link tokenSql} in JavaScript: the token of domain `i`'s DKIM record at `position`. */
export const tokenOf = (i: number, position: number) =>
  `${String(i).padStart(8, '0')}${position}${createHash('md5').update(`${i}:${position}`).digest('hex').slice(0, 23)}`;

/** What {@link seedDomains} writes besides the defaults. */
export interface SeedOptions {
  /** The public key every key row holds (base64 SubjectPublicKeyInfo, as stored). */
  publicKey: string;
  /** The sealed private key every key row holds. */
  privateKeyEnc: string;
  /** Every domain and record verified by a check an hour ago, instead of pending. */
  verified?: boolean;
  /**
   * Key k (domain k / 3, position k % 3) made `k × spreadMs` ms ago, instead of 1 to 89 days
   * ago: the newest keys changed in the last seconds, as a running zone sees keys made over time.
   */
  keySpreadMs?: number;
}

/**
 * `size` domains of `accountId` (ids `dom_0` …, names {@link nameOf}), their four records and
 * three keys, in batches of 250,000 domains; then the account's `domain_count`, `VACUUM ANALYZE`
 * and a checkpoint, as after any bulk import (the visibility map set, so index-only reads stay
 * so, and no write-back of the load left to share the disk with what is measured next).
 *
 * While it writes, the cluster's durability is off (fsync, full-page writes; ALTER SYSTEM,
 * undone at the end, a setting on the server's command line wins over it): a restore of an
 * import, not what is measured. The files are flushed (`sync`) before it returns.
 */
export async function seedDomains(
  databaseUrl: string,
  accountId: string,
  size: number,
  options: SeedOptions,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const DAY_MS = 86_400_000;
  const now = Date.now();
  const status = options.verified ? 'verified' : 'pending';
  // A domain's keys made between 89 and 1 days ago (loadDomains' keyMadeAt, exact in int8).
  const domainMade = `$1::int8 - ${DAY_MS} - floor(((i * 2654435761) % 4294967296)::float8 / 4294967296 * ${88 * DAY_MS})::int8`;
  const keyMade =
    options.keySpreadMs === undefined ? 'made' : `$1::int8 - (3 * i + p) * ${Number(options.keySpreadMs)}`;
  const settings = ['fsync', 'full_page_writes', 'max_wal_size'];
  try {
    await client.query('alter system set fsync = off');
    await client.query('alter system set full_page_writes = off');
    await client.query(`alter system set max_wal_size = '4GB'`);
    await client.query('select pg_reload_conf()');
    await client.query('set synchronous_commit = off');
    const batch = 250_000;
    for (let from = 0; from < size; from += batch) {
      const range = [from, Math.min(size, from + batch) - 1];
      // $1 now, $2 first id, $3 last id
      const ids = `generate_series($2::int8, $3::int8) as i, lateral (select ${domainMade} as made) m`;
      await client.query(
        `insert into domains (id, account_id, name, type, status, created_at, updated_at, next_check_at,
           last_checked_at, check_count, dkim_rotate_at, dkim_next_rotation_at)
         select 'dom_' || i, $4, 'd' || lpad(i::text, 8, '0') || '.scale.example',
                case when i % 2 = 1 then 'Marketing' else 'Transactional' end, $5, $1::int8 - $6::int8 + i, $1,
                case when i % 10 = 0 or i < 1000 then $1::int8 - 1000 else $1::int8 + 3600000 + i end,
                $1::int8 - 3600000, 1, made + ${90 * DAY_MS},
                case when $5 = 'verified' then made + ${90 * DAY_MS} end
         from ${ids}`,
        [now, ...range, accountId, status, size],
      );
      await client.query(
        `insert into domain_records (domain_id, position, kind, token, status, checked_at, verified_at,
           key_state, key_state_since, key_created_at)
         select 'dom_' || i, p, case when p < 3 then 'dkim' else 'dmarc' end,
                case when p < 3 then ${tokenSql} end, $4,
                case when $4 = 'verified' then $1::int8 - 3600000 end,
                case when $4 = 'verified' then $1::int8 - 3600000 end,
                case p when 0 then 'active' when 3 then null else 'next' end,
                case when p < 3 then ${keyMade} end, case when p < 3 then ${keyMade} end
         from ${ids}, generate_series(0, 3) as p
         order by i, p`,
        [now, ...range, status],
      );
      await client.query(
        `insert into dkim_keys (token, public_key, private_key_enc, created_at, revoked_at, changed_at)
         select ${tokenSql}, $4, $5, ${keyMade}, null, ${keyMade}
         from ${ids}, generate_series(0, 2) as p
         order by i, p`,
        [now, ...range, options.publicKey, options.privateKeyEnc],
      );
    }
    await client.query('update accounts set domain_count = $1 where id = $2', [size, accountId]);
    await client.query('vacuum analyze');
  } finally {
    for (const name of settings) await client.query(`alter system reset ${name}`);
    await client.query('select pg_reload_conf()');
    await client.query('checkpoint').catch(() => {});
    await client.end();
    execFileSync('sync');
  }
}
