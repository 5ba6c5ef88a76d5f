/**
 * The DKIM key roles that migration 0014 leaves to fill after start-up (issue 39): for each
 * selector whose key was made before the migration, `key_state` (the first selector `active`,
 * the others `next`, a key revoked before the migration `retired`), `key_state_since` and
 * `key_created_at` (the key's time), and its domain due for rotation (`dkim_rotate_at = 0`).
 *
 * Every statement fills only what is still empty (`key_state is null` beside a key,
 * `dkim_rotate_at is null`), so running it twice, or in two processes at once, or for a domain
 * a reader already filled, changes nothing more: a batch killed half-way is simply run again.
 * Keys made after the migration get their roles when they are made, never through here.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Db } from './domain-rows.js';
import type { Database } from './tables.js';

/** The name of this backfill in `migration_backfills`. */
export const KEY_STATE_BACKFILL = '0014-key-states';

type Domains = { ids: readonly string[] } | { after: string; upTo: string };

/**
 * Fill the roles of the keys of these domains (a list, or the id range `after` < id ≤ `upTo`),
 * as migration 0014 did for them: the domain row first, as every write that spans a domain and
 * its records takes them, so none of them can deadlock on PostgreSQL. Returns the records filled.
 */
async function fill(db: Db, domains: Domains, cutoff: number): Promise<number> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const byId = (column: string) =>
    'ids' in domains
      ? postgres
        ? sql`${sql.ref(column)} = any(${domains.ids}::text[])`
        : sql`${sql.ref(column)} in (${sql.join(domains.ids)})`
      : sql`${sql.ref(column)} > ${domains.after} and ${sql.ref(column)} <= ${domains.upTo}`;
  await sql`
    update domains set dkim_rotate_at = 0
    where ${byId('id')} and dkim_rotate_at is null and exists (
      select 1 from domain_records r join dkim_keys k on k.token = r.token
      where r.domain_id = domains.id and r.kind = 'dkim' and r.key_state is null)`.execute(db);
  // One join, not a subquery per column and row (17 s against 90 s for the whole table at a
  // million domains on PostgreSQL). Revoked after the migration: still the role it had then;
  // the revocation woke the rotation worker, which hands its role on.
  const result = await sql`
    update domain_records as r set
      key_created_at = k.created_at,
      key_state_since = k.created_at,
      key_state = case when k.revoked_at is not null and k.revoked_at <= ${cutoff} then 'retired'
                       when r.position = 0 then 'active'
                       else 'next' end
    from dkim_keys as k
    where ${byId('r.domain_id')} and r.kind = 'dkim' and k.token = r.token and r.key_state is null`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

interface Progress {
  /** The migration's time. */
  cutoff: number;
  /** Last checked at (this process's clock), while not done. */
  checkedAt: number;
  done: boolean;
}

/**
 * What this process last saw of the backfill, per database (keyed by its adapter, which a
 * transaction shares with its database). Once done, readers pay nothing.
 */
const seen = new WeakMap<object, Progress>();
/** How long a process trusts "not done" before it looks again. */
const RECHECK_MS = 2_000;

async function progressOf(db: Db): Promise<Progress> {
  const key = db.getExecutor().adapter;
  const known = seen.get(key);
  if (known && (known.done || Date.now() - known.checkedAt < RECHECK_MS)) return known;
  const row = await readRow(db);
  const progress = {
    cutoff: row ? Number(row.cutoff) : 0,
    checkedAt: Date.now(),
    done: row === undefined || row.done_at !== null,
  };
  seen.set(key, progress);
  return progress;
}

interface BackfillRow {
  cutoff: number | string;
  after_id: string;
  rows_filled: number | string;
  done_at: number | string | null;
}

async function readRow(db: Db): Promise<BackfillRow | undefined> {
  const result = await sql<BackfillRow>`
    select cutoff, after_id, rows_filled, done_at from migration_backfills
    where name = ${KEY_STATE_BACKFILL}`.execute(db);
  return result.rows[0];
}

/** Whether every key role is filled (free once it is; until then one read, re-read every few seconds). */
export async function keyStatesAllFilled(db: Db): Promise<boolean> {
  return (await progressOf(db)).done;
}

/**
 * Make sure the key roles of these domains are filled before they are read: free once the
 * backfill is done; until then one select, and a fill of those that are not.
 */
export async function keyStatesFilled(db: Db, domainIds: readonly string[]): Promise<void> {
  if (domainIds.length === 0) return;
  const progress = await progressOf(db);
  if (progress.done) return;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const pending = await sql<{ domain_id: string }>`
    select distinct r.domain_id from domain_records r join dkim_keys k on k.token = r.token
    where ${postgres ? sql`r.domain_id = any(${domainIds}::text[])` : sql`r.domain_id in (${sql.join(domainIds)})`}
      and r.kind = 'dkim' and r.key_state is null`.execute(db);
  if (pending.rows.length === 0) return;
  const ids = pending.rows.map((r) => r.domain_id);
  if (db.isTransaction) await fill(db, { ids }, progress.cutoff);
  else await db.transaction().execute((trx) => fill(trx, { ids }, progress.cutoff));
}

/** Where the backfill's progress is told. */
export interface BackfillLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface KeyStateBackfillOptions {
  /** Domains per batch, each batch one short transaction (~4 records per domain). */
  batchDomains?: number;
  /** How long a process holds the work without renewing; another takes over after. */
  leaseMs?: number;
  /** Pause between batches (0: none), so the backfill leaves the database room to serve. */
  pauseMs?: number;
  /** How often a process that does not hold the lease looks again. */
  retryMs?: number;
  log?: BackfillLog;
  now?: () => number;
}

/**
 * The background worker that fills the key roles batch after batch, from the last domain id
 * filled. Every process runs one; the lease in `migration_backfills` lets one work at a time,
 * and another take over (from the recorded id) when it stops renewing, for instance killed.
 */
export class KeyStateBackfill {
  private readonly owner = randomUUID();
  private stopped = false;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private readonly batchDomains: number;
  private readonly leaseMs: number;
  private readonly pauseMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: KeyStateBackfillOptions = {},
  ) {
    this.batchDomains = options.batchDomains ?? 2_500;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pauseMs = options.pauseMs ?? 0;
    this.retryMs = options.retryMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Start in the background; resolves at once. `done()` tells when it finished. */
  start(): this {
    this.running ??= this.run().catch((error: unknown) =>
      this.options.log?.error({ err: error }, 'DKIM key role backfill stopped on an error'),
    );
    return this;
  }

  /** Resolves when this worker has finished (the backfill done, or the worker stopped). */
  async done(): Promise<void> {
    await this.running;
  }

  /** Stop after the batch under way (its lease is left to expire, as after a kill). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
    await this.running;
  }

  /**
   * Fill one batch if this process holds (or can take) the work. Returns `'done'`, `'busy'`
   * (another process holds it) or `'more'`.
   */
  async batch(): Promise<'done' | 'busy' | 'more'> {
    const now = this.now();
    const result = await this.db.transaction().execute(async (trx) => {
      // The lease first: on SQLite it takes the write lock before anything is read, on
      // PostgreSQL it locks the row, so two processes' batches queue up instead of overlapping.
      const taken = await sql`
        update migration_backfills set lease_owner = ${this.owner}, lease_until = ${now + this.leaseMs}
        where name = ${KEY_STATE_BACKFILL} and done_at is null
          and (lease_owner = ${this.owner} or lease_until < ${now})`.execute(trx);
      if (Number(taken.numAffectedRows ?? 0) === 0) {
        const row = await readRow(trx);
        return { outcome: row === undefined || row.done_at !== null ? ('done' as const) : ('busy' as const) };
      }
      const row = (await readRow(trx))!;
      const cutoff = Number(row.cutoff);
      const ids = await sql<{ id: string }>`
        select id from domains where id > ${row.after_id} order by id limit ${this.batchDomains}`.execute(
        trx,
      );
      if (ids.rows.length === 0) {
        await sql`update migration_backfills set done_at = ${now}, lease_owner = null, lease_until = 0
          where name = ${KEY_STATE_BACKFILL}`.execute(trx);
        return { outcome: 'done' as const, finished: true, rowsFilled: Number(row.rows_filled) };
      }
      const upTo = ids.rows[ids.rows.length - 1]!.id;
      const filled = await fill(trx, { after: row.after_id, upTo }, cutoff);
      await sql`update migration_backfills set after_id = ${upTo}, rows_filled = rows_filled + ${filled}
        where name = ${KEY_STATE_BACKFILL}`.execute(trx);
      return {
        outcome: 'more' as const,
        first: row.after_id === '',
        upTo,
        rowsFilled: Number(row.rows_filled) + filled,
      };
    });
    const log = this.options.log;
    if (result.outcome === 'more' && result.first)
      log?.info({}, 'DKIM key role backfill (migration 0014) started');
    if (result.outcome === 'more' && log) this.logProgress(result.rowsFilled, result.upTo);
    if (result.outcome === 'done' && 'finished' in result) {
      log?.info({ rowsFilled: result.rowsFilled }, 'DKIM key role backfill (migration 0014) done');
    }
    // this process's readers stop checking
    if (result.outcome === 'done')
      seen.set(this.db.getExecutor().adapter, { cutoff: 0, checkedAt: Date.now(), done: true });
    return result.outcome;
  }

  private lastLogAt = 0;

  /** At most one line every 10 s: how many records are filled and where the batches are. */
  private logProgress(rowsFilled: number, afterId: string): void {
    const now = Date.now();
    if (now - this.lastLogAt < 10_000) return;
    this.lastLogAt = now;
    this.options.log?.info({ rowsFilled, afterId }, 'DKIM key role backfill progress');
  }

  private async run(): Promise<void> {
    // nothing to fill (a new install, or done before): one select, and this worker ends
    const row = await readRow(this.db);
    if (row === undefined || row.done_at !== null) return;
    while (!this.stopped) {
      const outcome = await this.batch();
      if (outcome === 'done') return;
      const wait = outcome === 'busy' ? this.retryMs : this.pauseMs;
      if (wait > 0 || outcome === 'busy') await this.sleep(wait);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}
