/**
 * DKIM rotation in the database (issue 23): claiming the domains whose rotation is due (so
 * each is handled once, across processes), reading their selectors, and the three steps of
 * `dkim/rotation-plan.ts` (confirm a next key, switch signing, give a selector a new key),
 * each one transaction. A switch writes its `domain.dkim_rotated` event in the same
 * transaction (the webhook outbox).
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { KeyState, SelectorKey } from '../domain/model.js';
import { dkimSelectorRows } from './dkim-key-store.js';
import type { DomainCache } from './domain-cache.js';
import { withRecords } from './domain-rows.js';
import type { Database, DomainsTable } from './tables.js';
import { appendDomainEvents } from './webhook-outbox.js';

/** A domain claimed for rotation. */
export interface RotationDomain {
  id: string;
  accountId: string;
  name: string;
  requestedAt: number | null;
  /** Until when this worker holds it (its claim), `null` when only read. */
  leaseUntil: number | null;
  /** The DKIM selectors, by position. */
  selectors: RotationSelector[];
}

export interface RotationSelector {
  token: string;
  position: number;
  key: SelectorKey | null;
  /** The public half of its key (the `p=` served), `null` before the key exists. */
  publicKey: string | null;
  revoked: boolean;
  /** Its CNAME is verified and not seen missing since. */
  inCustomerDns: boolean;
}

/** A new key for a selector, sealed. */
export interface NewKey {
  publicKey: string;
  privateKeyEnc: string;
}

/** A switch found its target no longer a next key (another worker was first): roll back. */
class SwitchOutdated extends Error {}

export class DkimRotationStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
    private readonly cache?: DomainCache,
  ) {}

  /**
   * Claim up to `limit` domains whose rotation is due, until `now + leaseMs` (their
   * `dkim_rotate_at` moves there, so a crashed worker's domains come back after the lease).
   * On PostgreSQL the rows are locked with SKIP LOCKED: processes claiming at once get
   * disjoint sets.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<RotationDomain[]> {
    const until = now + leaseMs;
    let rows: Pick<Selectable<DomainsTable>, 'id' | 'account_id' | 'name' | 'dkim_rotation_requested_at'>[];
    if (this.kind === 'postgres') {
      ({ rows } = await sql<Selectable<DomainsTable>>`
        with due as (
          select ctid from domains where dkim_rotate_at <= ${now}
          order by dkim_rotate_at limit ${limit}
          for update skip locked
        )
        update domains set dkim_rotate_at = ${until}
        from due where domains.ctid = due.ctid
        returning domains.id, domains.account_id, domains.name, domains.dkim_rotation_requested_at`.execute(
        this.db,
      ));
    } else {
      const due = this.db
        .selectFrom('domains')
        .select('id')
        .where('dkim_rotate_at', '<=', now)
        .orderBy('dkim_rotate_at')
        .limit(limit);
      rows = await this.db
        .updateTable('domains')
        .set({ dkim_rotate_at: until })
        .where('id', 'in', due)
        .returning(['id', 'account_id', 'name', 'dkim_rotation_requested_at'])
        .execute();
    }
    return this.withSelectors(rows, until);
  }

  /** One domain's rotation state, as the worker and the API read it. */
  async load(domainId: string): Promise<RotationDomain | undefined> {
    const rows = await this.db
      .selectFrom('domains')
      .select(['id', 'account_id', 'name', 'dkim_rotation_requested_at'])
      .where('id', '=', domainId)
      .execute();
    return (await this.withSelectors(rows))[0];
  }

  /** Record when to plan the domain again (see {@link wakeUp}), and the switch it plans. */
  async schedule(
    domain: { id: string; leaseUntil: number | null },
    wakeAt: number,
    nextRotationAt: number | null,
  ): Promise<void> {
    await this.db
      .updateTable('domains')
      .set({ dkim_rotate_at: wakeUp(domain.leaseUntil, wakeAt), dkim_next_rotation_at: nextRotationAt })
      .where('id', '=', domain.id)
      .execute();
  }

  /** Ask for a rotation now; the first request stands until the switch it asks for is done. */
  async request(domain: { id: string; accountId: string; name: string }, now: number): Promise<void> {
    await this.writing(domain, () =>
      this.db
        .updateTable('domains')
        .set((eb) => ({
          dkim_rotation_requested_at: eb.fn.coalesce('dkim_rotation_requested_at', eb.val(now)),
          dkim_rotate_at: now,
        }))
        .where('id', '=', domain.id)
        .execute(),
    );
  }

  /** The next key of `token` is served everywhere since `now`. */
  async confirm(domain: RotationDomain, token: string, now: number): Promise<void> {
    await this.writing(domain, () =>
      this.db
        .updateTable('domain_records')
        .set({ key_state_since: now })
        .where('token', '=', token)
        .where('key_state', '=', 'next')
        .where('key_state_since', 'is', null)
        .execute(),
    );
  }

  /**
   * Sign with `to` from now on and retire `from`; the domain's `domain.dkim_rotated` event is
   * written in the same transaction. Nothing happens (`false`) when `to` is no longer a next key.
   */
  async switchActive(
    domain: RotationDomain,
    step: { from: string | null; to: string },
    now: number,
    /** The switch after this one, as planned from the roles this one leaves. */
    nextRotationAt: number | null,
    /**
     * When the plan after the switch has nothing to do until a time: that wake-up, written by
     * the switch as `schedule` would write it for the claim `lease` (one transaction, not two).
     */
    wake?: { lease: number | null; at: number },
  ): Promise<boolean> {
    return this.writing(domain, () =>
      this.db.transaction().execute(async (trx) => {
        // The domain row first, as checks and deletions take it (no deadlock on PostgreSQL).
        const domainRow = await trx
          .updateTable('domains')
          .set({
            dkim_rotated_at: now,
            dkim_next_rotation_at: nextRotationAt,
            dkim_rotation_requested_at: null,
            updated_at: now,
            ...(wake && { dkim_rotate_at: wakeUp(wake.lease, wake.at) }),
          })
          .where('id', '=', domain.id)
          .returning('id')
          .executeTakeFirst();
        if (domainRow === undefined) return false;
        const promoted = await trx
          .updateTable('domain_records')
          .set({ key_state: 'active', key_state_since: now })
          .where('token', '=', step.to)
          .where('key_state', '=', 'next')
          .executeTakeFirst();
        if (Number(promoted.numUpdatedRows) !== 1) throw new SwitchOutdated();
        // Any other active selector retires (there is one; two would be a bug left behind).
        await trx
          .updateTable('domain_records')
          .set({ key_state: 'retired', key_state_since: now })
          .where('domain_id', '=', domain.id)
          .where('key_state', '=', 'active')
          .where('token', '!=', step.to)
          .execute();
        await appendDomainEvents(
          trx,
          domain.accountId,
          async () => {
            const [after] = await withRecords(
              trx,
              await trx.selectFrom('domains').selectAll().where('id', '=', domain.id).execute(),
            );
            return after
              ? [{ type: 'domain.dkim_rotated', snapshot: { domain: after, previous: null } }]
              : [];
          },
          now,
        );
        return true;
      }),
    ).catch((error) => {
      // Another worker switched it first: the transaction rolled back, nothing changed.
      if (error instanceof SwitchOutdated) return false;
      throw error;
    });
  }

  /**
   * Give `token` a new key: it replaces the one served (the zone follows `changed_at`) and
   * the selector becomes `next`, not yet confirmed served. Never the active selector, unless its
   * key was revoked.
   */
  async replaceKey(domain: RotationDomain, token: string, key: NewKey, now: number): Promise<boolean> {
    return this.writing(domain, () =>
      this.db.transaction().execute(async (trx) => {
        // The domain row first, as checks and deletions take it (no deadlock on PostgreSQL).
        const domainRow = await trx
          .updateTable('domains')
          .set({ updated_at: now })
          .where('id', '=', domain.id)
          .returning('id')
          .executeTakeFirst();
        if (domainRow === undefined) return false;
        const moved = await trx
          .updateTable('domain_records')
          .set({ key_state: 'next', key_state_since: null, key_created_at: now })
          .where('token', '=', token)
          // never the key signing now, unless an operator revoked it
          .where((eb) =>
            eb.or([
              eb('key_state', '!=', 'active'),
              eb.exists(
                eb
                  .selectFrom('dkim_keys')
                  .select('token')
                  .where('token', '=', token)
                  .where('revoked_at', 'is not', null),
              ),
            ]),
          )
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('dkim_keys')
          .set({
            public_key: key.publicKey,
            private_key_enc: key.privateKeyEnc,
            created_at: now,
            revoked_at: null,
            changed_at: now,
          })
          .where('token', '=', token)
          .execute();
        return true;
      }),
    );
  }

  private writing<T>(domain: { accountId: string; name: string }, write: () => Promise<T>): Promise<T> {
    return this.cache ? this.cache.writing(domain.accountId, [domain.name], write) : write();
  }

  private async withSelectors(
    rows: Pick<Selectable<DomainsTable>, 'id' | 'account_id' | 'name' | 'dkim_rotation_requested_at'>[],
    leaseUntil: number | null = null,
  ): Promise<RotationDomain[]> {
    if (rows.length === 0) return [];
    const selectorRows = await dkimSelectorRows(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      requestedAt: row.dkim_rotation_requested_at === null ? null : Number(row.dkim_rotation_requested_at),
      leaseUntil,
      selectors: selectorRows
        .filter((s) => s.domain_id === row.id)
        .map((s) => ({
          token: s.token!,
          position: Number(s.position),
          key:
            s.key_state === null || s.key_created_at === null || s.public_key === null
              ? null
              : {
                  state: s.key_state as KeyState,
                  since: s.key_state_since === null ? null : Number(s.key_state_since),
                  createdAt: Number(s.key_created_at),
                },
          publicKey: s.public_key,
          revoked: s.revoked_at !== null,
          inCustomerDns: s.status === 'verified' && s.missing_since === null,
        })),
    }));
  }
}

/**
 * The `dkim_rotate_at` a worker holding the claim `lease` writes for `wakeAt`. A wake-up written
 * while it held the claim (a rotation asked for, a key stored, a record's status changed: each
 * sets `dkim_rotate_at` to now) is kept when it is earlier: the plan was made before it.
 */
function wakeUp(lease: number | null, wakeAt: number) {
  return lease === null
    ? sql<number>`cast(${wakeAt} as bigint)`
    : sql<number>`case when dkim_rotate_at is null or dkim_rotate_at = cast(${lease} as bigint) or dkim_rotate_at > cast(${wakeAt} as bigint) then cast(${wakeAt} as bigint) else dkim_rotate_at end`;
}
