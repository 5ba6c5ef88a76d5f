/**
 * Webhook endpoints and deliveries in the database (issue 20): an account's endpoints, the
 * claim of due deliveries (each once across processes, in order per stream — a domain or a
 * message — and endpoint),
 * and the record of each attempt. Events are written by `webhook-outbox.ts`, inside the
 * transactions of the changes that cause them.
 */
import type { Kysely, Selectable } from 'kysely';
import type { EventSnapshot, WebhookEventType } from '../webhook/events.js';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from './tables.js';

/** An endpoint as the store keeps it (the secret sealed). */
export interface StoredEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  secretEnc: string;
  createdAt: number;
  disabledAt: number | null;
  failingSince: number | null;
}

/** One delivery with its event's type, as the listing shows it. */
export interface StoredDelivery {
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  deliveredAt: number | null;
  failedAt: number | null;
  createdAt: number;
}

/** A claimed delivery with all an attempt needs. */
export interface ClaimedDelivery {
  id: string;
  /** The lease this claim holds: an attempt is recorded only while it still does. */
  claimedUntil: number;
  attempts: number;
  createdAt: number;
  event: { id: string; type: WebhookEventType; createdAt: number; snapshot: EventSnapshot };
  endpoint: { id: string; url: string; secretEnc: string };
}

/** What became of one attempt. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; nextAttemptAt: number }
  | { kind: 'failed' };

export interface AttemptRecord {
  at: number;
  status: number | null;
  durationMs: number;
  error: string | null;
  outcome: AttemptOutcome;
}

export class WebhookStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  /**
   * Add an endpoint unless the account already holds `max`; returns `undefined` then. The
   * account's row is locked on PostgreSQL so two concurrent creations cannot both pass.
   */
  async createEndpoint(
    endpoint: Omit<StoredEndpoint, 'disabledAt' | 'failingSince'>,
    max: number,
  ): Promise<StoredEndpoint | undefined> {
    return this.db.transaction().execute(async (trx) => {
      if (this.kind === 'postgres') {
        await trx
          .selectFrom('accounts')
          .select('id')
          .where('id', '=', endpoint.accountId)
          .forUpdate()
          .execute();
      }
      const { count } = await trx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('account_id', '=', endpoint.accountId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return undefined;
      await trx
        .insertInto('webhook_endpoints')
        .values({
          id: endpoint.id,
          account_id: endpoint.accountId,
          url: endpoint.url,
          events: endpoint.events.join(','),
          secret_enc: endpoint.secretEnc,
          created_at: endpoint.createdAt,
        })
        .execute();
      return { ...endpoint, disabledAt: null, failingSince: null };
    });
  }

  /** The account's endpoints, oldest first. */
  async listEndpoints(accountId: string): Promise<StoredEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toEndpoint);
  }

  async findEndpoint(accountId: string, id: string): Promise<StoredEndpoint | undefined> {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toEndpoint(row);
  }

  /** Remove an endpoint with its deliveries; `false` when the account has no such endpoint. */
  async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .deleteFrom('webhook_endpoints')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** Enable a disabled endpoint again, its failure streak forgotten. */
  async enableEndpoint(accountId: string, id: string): Promise<StoredEndpoint | undefined> {
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: null, failing_since: null })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toEndpoint(row);
  }

  /** The endpoint's most recent deliveries, newest first. */
  async listDeliveries(endpointId: string, limit: number): Promise<StoredDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select('e.type as event_type')
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => toDelivery(row, row.event_type));
  }

  /**
   * Make a delivery of the endpoint due now, whatever became of it (delivered, failed, waiting);
   * `undefined` when the endpoint has no such delivery. Retries still count from the delivery's
   * creation, so a delivery past the retry window gets this one attempt.
   */
  async retryDelivery(
    endpointId: string,
    deliveryId: string,
    now: number,
  ): Promise<StoredDelivery | undefined> {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now, delivered_at: null, failed_at: null, claimed_until: null })
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', deliveryId)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const event = await this.db
      .selectFrom('webhook_events')
      .select('type')
      .where('id', '=', row.event_id)
      .executeTakeFirstOrThrow();
    return toDelivery(row, event.type);
  }

  /**
   * Claim up to `limit` due deliveries of enabled endpoints until `now + leaseMs`. A delivery
   * is claimable only at the head of its endpoint's and stream's queue (the open delivery with
   * the lowest `(seq, id)`), so each endpoint sees a domain's (or a message's) events in order. The head is a
   * correlated lookup in the partial order index, one per candidate in due order, so a claim
   * costs the same whatever the backlog and whatever the planner's statistics say (an
   * anti-join here was planned as a nested loop over the whole backlog on a fresh table:
   * 4.5 s for 5,000 open deliveries). On PostgreSQL the candidates are locked with SKIP
   * LOCKED, so processes claiming at once get disjoint sets.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    let due = this.db
      .selectFrom('webhook_deliveries as d')
      .select('d.id')
      .where('d.delivered_at', 'is', null)
      .where('d.failed_at', 'is', null)
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<=', now)]))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('webhook_endpoints as w')
            .select('w.id')
            .whereRef('w.id', '=', 'd.endpoint_id')
            .where('w.disabled_at', 'is', null),
        ),
      )
      .where('d.id', '=', (eb) =>
        eb
          .selectFrom('webhook_deliveries as o')
          .select('o.id')
          .whereRef('o.endpoint_id', '=', 'd.endpoint_id')
          .whereRef('o.stream', '=', 'd.stream')
          .where('o.delivered_at', 'is', null)
          .where('o.failed_at', 'is', null)
          .orderBy('o.seq')
          .orderBy('o.id')
          .limit(1),
      )
      .orderBy('d.next_attempt_at')
      .limit(limit);
    if (this.kind === 'postgres') due = due.forUpdate().skipLocked();
    const claimedUntil = now + leaseMs;
    const ids = await this.db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: claimedUntil })
      .where('id', 'in', due)
      .returning('id')
      .execute();
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.attempts',
        'd.created_at',
        'e.id as event_id',
        'e.type',
        'e.created_at as event_created_at',
        'e.snapshot',
        'w.id as endpoint_id',
        'w.url',
        'w.secret_enc',
      ])
      .where(
        'd.id',
        'in',
        ids.map((r) => r.id),
      )
      .orderBy('d.seq')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      claimedUntil,
      attempts: Number(row.attempts),
      createdAt: Number(row.created_at),
      event: {
        id: row.event_id,
        type: row.type as WebhookEventType,
        createdAt: Number(row.event_created_at),
        snapshot: JSON.parse(row.snapshot) as EventSnapshot,
      },
      endpoint: { id: row.endpoint_id, url: row.url, secretEnc: row.secret_enc },
    }));
  }

  /**
   * Retention: delete up to `limit` settled deliveries (delivered or failed) of events older
   * than `before`, then up to `limit` such events left without any delivery (every endpoint's
   * settled and deleted, or the endpoint removed). A delivery still open keeps its event.
   * Returns how many rows went, so a caller can repeat until fewer than `limit`.
   */
  async prune(before: number, limit: number): Promise<number> {
    const settled = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select('d.id')
      .where('e.created_at', '<', before)
      .where((eb) => eb.or([eb('d.delivered_at', 'is not', null), eb('d.failed_at', 'is not', null)]))
      .limit(limit);
    const deliveries = await this.db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', settled)
      .executeTakeFirst();
    const orphans = this.db
      .selectFrom('webhook_events as e')
      .select('e.id')
      .where('e.created_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
      )
      .limit(limit);
    const events = await this.db.deleteFrom('webhook_events').where('id', 'in', orphans).executeTakeFirst();
    return Math.max(Number(deliveries.numDeletedRows), Number(events.numDeletedRows));
  }

  /**
   * Record one attempt of a claimed delivery and release it, and keep the endpoint's failure
   * streak: a success ends it; an endpoint whose streak is `disableAfterMs` old is disabled.
   * Nothing is written if the claim was lost (its lease ran out and another process took it).
   */
  async recordAttempt(claim: ClaimedDelivery, attempt: AttemptRecord, disableAfterMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const { outcome } = attempt;
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          last_attempt_at: attempt.at,
          last_status: attempt.status,
          last_duration_ms: attempt.durationMs,
          last_error: attempt.error,
          claimed_until: null,
          ...(outcome.kind === 'delivered' && { delivered_at: attempt.at }),
          ...(outcome.kind === 'failed' && { failed_at: attempt.at }),
          ...(outcome.kind === 'retry' && { next_attempt_at: outcome.nextAttemptAt }),
        }))
        .where('id', '=', claim.id)
        .where('claimed_until', '=', claim.claimedUntil)
        .returning('id')
        .executeTakeFirst();
      if (updated === undefined) return;
      const endpoint = trx.updateTable('webhook_endpoints').where('id', '=', claim.endpoint.id);
      if (outcome.kind === 'delivered') {
        await endpoint.set({ failing_since: null }).execute();
        return;
      }
      await endpoint
        .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(attempt.at)) }))
        .execute();
      await trx
        .updateTable('webhook_endpoints')
        .set({ disabled_at: attempt.at })
        .where('id', '=', claim.endpoint.id)
        .where('disabled_at', 'is', null)
        .where('failing_since', '<=', attempt.at - disableAfterMs)
        .execute();
    });
  }
}

/** Deliveries listed per endpoint, at most. */
export const DELIVERY_LISTING_LIMIT = 100;

function toEndpoint(row: Selectable<WebhookEndpointsTable>): StoredEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: row.events.split(',') as WebhookEventType[],
    secretEnc: row.secret_enc,
    createdAt: Number(row.created_at),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
    failingSince: row.failing_since === null ? null : Number(row.failing_since),
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>, type: string): StoredDelivery {
  const open = row.delivered_at === null && row.failed_at === null;
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: type as WebhookEventType,
    attempts: Number(row.attempts),
    nextAttemptAt: open ? Number(row.next_attempt_at) : null,
    lastAttemptAt: row.last_attempt_at === null ? null : Number(row.last_attempt_at),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastDurationMs: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    lastError: row.last_error,
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    failedAt: row.failed_at === null ? null : Number(row.failed_at),
    createdAt: Number(row.created_at),
  };
}
