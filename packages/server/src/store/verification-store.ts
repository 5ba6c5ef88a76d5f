/**
 * Verification state in the database: claiming due checks (so each runs once, across
 * workers and processes), saving a check's results with the history of every status
 * change, and reading that history.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type {
  DomainConnectSetup,
  RecordCheckState,
  StoredDomain,
  VerificationStatus,
} from '../domain/model.js';
import { checkEvents } from '../webhook/events.js';
import type { DomainCache } from './domain-cache.js';
import { loadDomainsById, withRecords } from './domain-rows.js';
import { GroupCommit } from './group-commit.js';
import { newId } from './ids.js';
import type { Database, DomainsTable } from './tables.js';
import { executeUnanswered } from './threaded-sqlite-dialect.js';
import { appendDomainEvents } from './webhook-outbox.js';

/** One status change of a domain (position `null`) or of one of its records. */
export interface StatusEvent {
  position: number | null;
  from: VerificationStatus;
  to: VerificationStatus;
  reason: string | null;
  found: string | null;
  at: number;
}

/** The outcome of one check, ready to store. */
export interface CheckResult {
  /** Record states by position. */
  records: Map<number, RecordCheckState>;
  status: VerificationStatus;
  events: StatusEvent[];
  checkedAt: number;
  nextCheckAt: number;
  /** The zone found in DNS; `undefined` keeps the one stored. */
  zone?: string;
  /** With `zone`: the providers its NS names show, most names first (empty: none we know). */
  dnsProviders?: string[];
  /** Domain Connect for the domain as found; `undefined` keeps the one stored. */
  domainConnect?: DomainConnectSetup;
}

/** At most this many check results in one transaction (see {@link GroupCommit}). */
const CHECKS_PER_COMMIT = 200;

export class VerificationStore {
  private readonly checks: GroupCommit<{ domain: StoredDomain; result: CheckResult }>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
    private readonly cache: DomainCache,
  ) {
    this.checks = new GroupCommit({
      writeOne: ({ domain, result }) =>
        this.cache.writing(domain.accountId, [domain.name], () =>
          this.transactionWithoutSync((trx) => writeCheck(trx, domain, result)),
        ),
      writeAll: (items) =>
        this.writingAll(
          items.map(({ domain }) => domain),
          () =>
            this.transactionWithoutSync(async (trx) => {
              // one order for every writer: two transactions never wait on each other in a cycle
              const ordered = [...items].sort((a, b) => (a.domain.id < b.domain.id ? -1 : 1));
              for (const { domain, result } of ordered) await writeCheck(trx, domain, result);
            }),
        ),
      maxItems: CHECKS_PER_COMMIT,
    });
  }

  /**
   * Claim up to `limit` domains whose check is due and that nobody holds, until
   * `now + leaseMs`. On PostgreSQL the candidate rows are locked with SKIP LOCKED, so
   * processes claiming at once get disjoint sets; SQLite has one writer at a time.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<StoredDomain[]> {
    const claimedUntil = now + leaseMs;
    if (this.kind === 'postgres') {
      // Due rows are locked (SKIP LOCKED: several processes claim at once) and updated where
      // they lie, by ctid: matching them again by id cost 1,000 primary-key probes, most of
      // the claim at a million domains. A locked row cannot move until this statement's
      // transaction ends, so its ctid stays right. The update returns the rows whole, so only
      // their records are read after it.
      const { rows } = await sql<Selectable<DomainsTable>>`
        with due as (
          select ctid from domains
          where next_check_at <= ${now} and (claimed_until is null or claimed_until <= ${now})
          order by next_check_at
          limit ${limit}
          for update skip locked
        )
        update domains set claimed_until = ${claimedUntil}
        from due where domains.ctid = due.ctid
        returning domains.*`.execute(this.db);
      return withRecords(this.db, rows);
    }
    const due = this.db
      .selectFrom('domains')
      .select('id')
      .where('next_check_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .orderBy('next_check_at')
      .limit(limit);
    const claimed = await this.db
      .updateTable('domains')
      .set({ claimed_until: claimedUntil })
      .where('id', 'in', due)
      .returningAll()
      .execute();
    return withRecords(this.db, claimed);
  }

  /**
   * Claim one domain for an on-demand check, only if nobody holds it and its last check is
   * older than `staleBefore`; returns its current state, or `undefined` when not claimed
   * (a check is running elsewhere, or one just finished).
   *
   * On SQLite one server process owns the file, and the caller already shares checks within
   * the process, so the claim is a read: writing it would cost a synchronous commit (an
   * fsync) on every status poll that checks.
   */
  async claimStale(
    domainId: string,
    now: number,
    leaseMs: number,
    staleBefore: number,
  ): Promise<StoredDomain | undefined> {
    if (this.kind === 'sqlite') {
      const row = await this.db
        .selectFrom('domains')
        .select(['claimed_until', 'last_checked_at'])
        .where('id', '=', domainId)
        .executeTakeFirst();
      const held = row?.claimed_until != null && Number(row.claimed_until) > now;
      const fresh = row?.last_checked_at != null && Number(row.last_checked_at) >= staleBefore;
      return row === undefined || held || fresh ? undefined : this.load(domainId);
    }
    const claimed = await this.db
      .updateTable('domains')
      .set({ claimed_until: now + leaseMs })
      .where('id', '=', domainId)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .where((eb) => eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', staleBefore)]))
      .returning('id')
      .executeTakeFirst();
    if (claimed === undefined) return undefined;
    const [domain] = await loadDomainsById(this.db, [domainId]);
    return domain;
  }

  /** A domain's current state from the database. */
  async load(domainId: string): Promise<StoredDomain | undefined> {
    const [domain] = await loadDomainsById(this.db, [domainId]);
    return domain;
  }

  /** Give a claim back without a result (the check could not run). */
  async release(domainId: string): Promise<void> {
    await this.db.updateTable('domains').set({ claimed_until: null }).where('id', '=', domainId).execute();
  }

  /**
   * Store a check's results, its status changes, the next check time, and release the claim.
   * Results finishing together are committed together ({@link GroupCommit}); the promise
   * settles once this one is committed. A domain deleted during its check is left deleted:
   * nothing is written.
   */
  saveCheck(domain: StoredDomain, result: CheckResult): Promise<void> {
    return this.checks.write({ domain, result });
  }

  /**
   * A transaction whose commit does not wait for the disk. Check results need no fsync: a
   * power cut that loses the last ones (never a process crash) leaves the database consistent,
   * the domain as before its check, and the next check writes them again, events included.
   * Registrations and every other write keep waiting for theirs. On SQLite the setting is the
   * connection's, so it is set and reset on the one connection, which no other write can use
   * meanwhile; PostgreSQL sets it for the transaction alone.
   */
  private transactionWithoutSync(write: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    if (this.kind === 'postgres')
      return this.db.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = off`.execute(trx);
        await write(trx);
      });
    return this.db.connection().execute(async (connection) => {
      await sql`pragma synchronous = normal`.execute(connection);
      try {
        await connection.transaction().execute(write);
      } finally {
        await sql`pragma synchronous = full`.execute(connection);
      }
    });
  }

  /** `DomainCache.writing` for domains of any accounts. */
  private async writingAll<T>(domains: StoredDomain[], write: () => Promise<T>): Promise<T> {
    const names = new Map<string, string[]>();
    for (const domain of domains)
      names.set(domain.accountId, [...(names.get(domain.accountId) ?? []), domain.name]);
    for (const [account, held] of names) this.cache.forget(account, held);
    try {
      return await write();
    } finally {
      for (const [account, held] of names) this.cache.forget(account, held);
    }
  }

  /** The domain's status changes, newest first. */
  async history(domainId: string, limit: number): Promise<StatusEvent[]> {
    const rows = await this.db
      .selectFrom('status_history')
      .selectAll()
      .where('domain_id', '=', domainId)
      .orderBy('at', 'desc')
      // Within one check: the domain's own change first, then its records in order.
      .orderBy(sql`coalesce(position, -1)`)
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      position: row.position === null ? null : Number(row.position),
      from: row.from_status as VerificationStatus,
      to: row.to_status as VerificationStatus,
      reason: row.reason,
      found: row.found,
      at: Number(row.at),
    }));
  }
}

/**
 * One check's writes in `trx`. The domain row is written first, as a deletion (domain, then
 * records by cascade) locks them, so the two can never deadlock on PostgreSQL.
 */
async function writeCheck(
  trx: Transaction<Database>,
  domain: StoredDomain,
  result: CheckResult,
): Promise<void> {
  const updated = await trx
    .updateTable('domains')
    .set((eb) => ({
      status: result.status,
      last_checked_at: result.checkedAt,
      next_check_at: result.nextCheckAt,
      check_count: eb('check_count', '+', 1),
      claimed_until: null,
      updated_at: result.checkedAt,
      ...(result.zone !== undefined && { zone: result.zone }),
      ...(result.dnsProviders !== undefined && {
        dns_providers: result.dnsProviders.length > 0 ? result.dnsProviders.join(',') : null,
      }),
      ...(result.domainConnect !== undefined && {
        domain_connect: JSON.stringify(result.domainConnect),
      }),
      // A record's status changed: rotation may now switch (or must wait), so it looks
      // again now (a domain without keys yet has nothing to plan).
      ...(result.events.length > 0 && {
        dkim_rotate_at: sql<number>`case when dkim_rotate_at is null then null else cast(${result.checkedAt} as bigint) end`,
      }),
    }))
    .where('id', '=', domain.id)
    .returning('id')
    .executeTakeFirst();
  if (updated === undefined) return;
  // The records' and history's writes travel with the commit on SQLite's writer thread.
  for (const [position, state] of result.records) {
    await executeUnanswered(
      trx,
      trx
        .updateTable('domain_records')
        .set({
          status: state.status,
          reason: state.reason,
          found: state.found,
          detail: state.detail,
          checked_at: state.checkedAt,
          missing_since: state.missingSince,
          error_since: state.errorSince,
          verified_at: state.verifiedAt,
        })
        .where('domain_id', '=', domain.id)
        .where('position', '=', position),
    );
  }
  if (result.events.length > 0) {
    await executeUnanswered(
      trx,
      trx.insertInto('status_history').values(
        result.events.map((e) => ({
          id: newId('evt'),
          domain_id: domain.id,
          position: e.position,
          from_status: e.from,
          to_status: e.to,
          reason: e.reason,
          found: e.found,
          at: e.at,
        })),
      ),
    );
    await appendDomainEvents(
      trx,
      domain.accountId,
      () => checkEvents(domain, afterCheck(domain, result)),
      result.checkedAt,
    );
  }
}

/** The domain as `saveCheck` leaves it: what its webhook events describe. */
function afterCheck(domain: StoredDomain, result: CheckResult): StoredDomain {
  return {
    ...domain,
    status: result.status,
    lastCheckedAt: result.checkedAt,
    nextCheckAt: result.nextCheckAt,
    checkCount: domain.checkCount + 1,
    zone: result.zone ?? domain.zone,
    dnsProviders: result.dnsProviders ?? domain.dnsProviders,
    domainConnect: result.domainConnect ?? domain.domainConnect,
    records: domain.records.map((r) => {
      const state = result.records.get(r.position);
      return state ? { ...r, ...state } : r;
    }),
  };
}
