/**
 * Storage of the sending queue (issue 21): an accepted message and its recipients in one
 * transaction (so an answer of `queued` means nothing can be lost), the claim of due
 * recipients with a lease (`SKIP LOCKED` on PostgreSQL, as the webhook deliveries), each
 * attempt's outcome with its event, and the account's suppression list.
 */
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { BounceClass } from '../email/bounce.js';
import { withDate } from '../email/message-content.js';
import { SANDBOX_DOMAIN_ID, SANDBOX_STREAM } from '../email/sandbox.js';
import { type EmailStatus, emailStatus } from '../email/status.js';
import type { EmailEventData, WebhookEventType } from '../webhook/events.js';
import { GroupCommit } from './group-commit.js';
import { newId } from './ids.js';
import type { Database } from './tables.js';
import { appendEvents } from './webhook-outbox.js';

export type RecipientKind = 'to' | 'cc' | 'bcc';
export type RecipientStatus =
  | 'queued'
  | 'sending'
  | 'sent'
  | 'deferred'
  | 'bounced'
  | 'failed'
  | 'suppressed'
  | 'scheduled'
  | 'canceled';
export type EmailEventType =
  | 'sent'
  | 'delivered'
  | 'deferred'
  | 'bounced'
  | 'failed'
  | 'suppressed'
  | 'complained'
  | 'canceled'
  | 'opened'
  | 'clicked';

/**
 * What came back after a recipient's server took the message (issue 34, `email/feedback-report.ts`):
 * a bounce (a DSN), or a complaint (an ARF report).
 */
export type Feedback =
  | { kind: 'bounce'; bounce: BounceClass; diagnostic: string; mxHost: string | null }
  | { kind: 'complaint'; feedbackType: string };

export interface NewEmail {
  id: string;
  accountId: string;
  domainId: string;
  fromAddress: string;
  subject: string;
  message: string;
  tags: { name: string; value: string }[];
  idempotencyKey: string | null;
  requestHash: string | null;
  createdAt: number;
  /** Hold it until then (ms); `null` to send at once. */
  scheduledAt: number | null;
  recipients: { address: string; kind: RecipientKind; suppressed: boolean }[];
  /** What is tracked (`opens`, `clicks`, `opens,clicks`), `null`/absent for nothing (issue 37). */
  tracking?: string | null;
}

/** An open or a click (issue 37), as the tracking routes saw it. */
export interface Engagement {
  type: 'opened' | 'clicked';
  /** The link followed, for a click. */
  url: string | null;
  at: number;
  /** Why it was a machine's, given the time the recipient's copy left (`null`: not sent yet). */
  machine: (sentAt: number | null) => string | null;
}

/** The same open or click again this soon is one event (a reloaded pixel, a double click). */
const ENGAGEMENT_REPEAT_MS = 60_000;

/** A message found by its Idempotency-Key. */
export interface IdempotentEmail {
  id: string;
  requestHash: string | null;
  scheduledAt: number | null;
}

export interface StoredEvent {
  type: EmailEventType;
  address: string;
  smtpCode: number | null;
  smtpText: string | null;
  mxHost: string | null;
  /** For `bounced`: what the refusal says about the address. */
  bounceType: string | null;
  /** For `clicked`: the link followed. */
  url: string | null;
  /** For `opened` and `clicked`: why it was a machine's (`email/tracking.ts`), `null` when nothing says so. */
  machine: string | null;
  at: number;
}

/** Which of an account's streams a suppression stops: every one, or the one the address left. */
export type SuppressionScope = 'all' | 'Marketing' | 'Transactional';

export interface StoredRecipient {
  id: string;
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  attempts: number;
  nextAttemptAt: number | null;
}

export interface StoredEmail {
  id: string;
  fromAddress: string;
  subject: string;
  tags: { name: string; value: string }[];
  createdAt: number;
  scheduledAt: number | null;
  /** The sending domain's registration id (or the sandbox's). */
  domainId: string;
  /** What is tracked (`opens`, `clicks`), empty for nothing. */
  tracking: ('opens' | 'clicks')[];
  recipients: StoredRecipient[];
  events: StoredEvent[];
}

/** How many recipients a listed message names (the first, in request order). */
export const LISTED_RECIPIENTS = 10;

/** `GET /api/public/emails` filters; each optional. */
export interface EmailFilter {
  status?: EmailStatus;
  /** An envelope recipient's address, as stored (lower-case domain). */
  recipient?: string;
  /** The sending domain's registration id (or the sandbox's). */
  domainId?: string;
  /** Created at or after (ms). */
  since?: number;
  /** Created before (ms). */
  until?: number;
  /** Carrying a tag of this name, with this value when given. */
  tag?: { name: string; value?: string };
  /** Sent from one of these registrations only (a key limited to some domains). */
  domainIds?: string[];
}

/** A message as listed. */
export interface ListedEmail {
  id: string;
  fromAddress: string;
  subject: string;
  tags: { name: string; value: string }[];
  createdAt: number;
  scheduledAt: number | null;
  status: EmailStatus;
  /** Its first {@link LISTED_RECIPIENTS} envelope recipients. */
  to: string[];
}

/** A recipient claimed for one attempt, with what the attempt needs. */
export interface ClaimedRecipient {
  id: string;
  emailId: string;
  accountId: string;
  address: string;
  attempts: number;
  claimedUntil: number;
  createdAt: number;
  fromAddress: string;
  subject: string;
  tags: { name: string; value: string }[];
  message: string;
  /** The sending domain's type (`Marketing` adds List-Unsubscribe), `null` if it was deleted. */
  domainType: string | null;
  /** `bounces.<domain>` when the domain's return path is verified: the envelope sender's domain. */
  returnPathDomain: string | null;
  /** Whether its links and pixel are tracked: each copy gets its recipient's tokens. */
  tracked: boolean;
}

export type AttemptOutcome =
  | { kind: 'sent'; delivered: boolean; code: number | null; text: string | null; mxHost: string | null }
  | { kind: 'deferred'; nextAttemptAt: number; code: number | null; text: string; mxHost: string | null }
  | { kind: 'bounced'; bounce: BounceClass; code: number | null; text: string; mxHost: string | null }
  | { kind: 'failed'; code: number | null; text: string; mxHost: string | null }
  /**
   * Not attempted: the destination's pace (`SMTP_DESTINATION_RATES`) gives it a turn at
   * `nextAttemptAt`. No attempt is counted against the retry window, and no event is written.
   */
  | { kind: 'postponed'; nextAttemptAt: number; code: null; text: string; mxHost: string | null };

/** The reused key's first request differs from this one. */
export class IdempotencyConflict extends Error {}

/** At most this many attempts' outcomes in one transaction (see {@link GroupCommit}). */
const ATTEMPTS_PER_COMMIT = 200;

interface Attempt {
  claim: ClaimedRecipient;
  outcome: AttemptOutcome;
  at: number;
}

export class EmailStore {
  /**
   * Attempts' outcomes, committed in groups: each commit waits for the disk (a "sent" lost to a
   * power cut would send the message again), and one commit per delivery took 1.8 ms of the
   * main thread each, 18 of the 40 s that 10,000 deliveries took on SQLite.
   */
  private readonly attempts: GroupCommit<Attempt>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {
    this.attempts = new GroupCommit({
      writeOne: (attempt) => this.db.transaction().execute((trx) => writeAttempt(trx, this.kind, attempt)),
      writeAll: (attempts) =>
        this.db.transaction().execute(async (trx) => {
          // one order for every writer (a message's row is updated for each of its recipients)
          const ordered = [...attempts].sort((a, b) =>
            a.claim.emailId === b.claim.emailId
              ? a.claim.id < b.claim.id
                ? -1
                : 1
              : a.claim.emailId < b.claim.emailId
                ? -1
                : 1,
          );
          await writeAttemptsTogether(trx, this.kind, ordered);
        }),
      maxItems: ATTEMPTS_PER_COMMIT,
    });
  }

  /**
   * Which of `addresses` (suppression keys) the account may not send to in `stream` (the From
   * domain's type): those suppressed everywhere or in that stream. One query for the request.
   */
  async suppressed(accountId: string, addresses: string[], stream: string): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('suppressions')
      .select('address')
      .where('account_id', '=', accountId)
      .where('address', 'in', addresses)
      .where('scope', 'in', ['all', stream])
      .execute();
    return new Set(rows.map((r) => r.address));
  }

  /**
   * Count one submission in the account's current minute (`windowStart`) and return the count
   * so far: one upsert on one row per account, atomic across processes, whatever the volume.
   */
  async countSubmission(accountId: string, windowStart: number, messages = 1): Promise<number> {
    const row = await this.db
      .insertInto('email_rate')
      .values({ account_id: accountId, window_start: windowStart, count: messages })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({
          count: sql`case when email_rate.window_start = excluded.window_start then email_rate.count + excluded.count else excluded.count end`,
          window_start: sql`excluded.window_start`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The message accepted earlier under this idempotency key, if any. */
  async findByIdempotencyKey(accountId: string, key: string): Promise<IdempotentEmail | undefined> {
    return (await this.findByIdempotencyKeys(accountId, [key]))[0];
  }

  /** The messages stored under any of `keys` (a batch's entries), in no particular order. */
  async findByIdempotencyKeys(accountId: string, keys: string[]): Promise<IdempotentEmail[]> {
    if (keys.length === 0) return [];
    const rows = await this.db
      .selectFrom('emails')
      .select(['id', 'request_hash', 'scheduled_at'])
      .where('account_id', '=', accountId)
      .where('idempotency_key', 'in', keys)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      requestHash: row.request_hash,
      scheduledAt: row.scheduled_at === null ? null : Number(row.scheduled_at),
    }));
  }

  /**
   * Store the message, its recipients (suppressed ones settled at once, with their event) in
   * one transaction. With an idempotency key already used, answers the earlier message's id
   * (same request) or throws {@link IdempotencyConflict} (another request).
   */
  async accept(email: NewEmail): Promise<{ id: string; created: boolean }> {
    try {
      await this.db.transaction().execute((trx) => insertEmails(trx, [email]));
      return { id: email.id, created: true };
    } catch (error) {
      // Two requests with one key at once: the unique index let one in; answer as it answered.
      if (email.idempotencyKey === null) throw error;
      const earlier = await this.findByIdempotencyKey(email.accountId, email.idempotencyKey);
      if (earlier === undefined) throw error;
      if (earlier.requestHash !== email.requestHash) throw new IdempotencyConflict();
      return { id: earlier.id, created: false };
    }
  }

  /**
   * Several messages in one transaction (a batch): one durable write for all. When it fails
   * (an Idempotency-Key taken meanwhile by another request), each is stored on its own, so one
   * entry's conflict is that entry's ({@link IdempotencyConflict} in its place).
   */
  async acceptMany(emails: NewEmail[]): Promise<({ id: string; created: boolean } | IdempotencyConflict)[]> {
    try {
      await this.db.transaction().execute((trx) => insertEmails(trx, emails));
      return emails.map((e) => ({ id: e.id, created: true }));
    } catch (error) {
      if (emails.every((e) => e.idempotencyKey === null)) throw error;
      const outcomes: ({ id: string; created: boolean } | IdempotencyConflict)[] = [];
      for (const email of emails)
        outcomes.push(
          await this.accept(email).catch((e: unknown) =>
            e instanceof IdempotencyConflict ? e : Promise.reject(e),
          ),
        );
      return outcomes;
    }
  }

  /**
   * One page of the account's messages, newest first, after `position` (the last one of the
   * previous page): each with its status, and its first {@link LISTED_RECIPIENTS} recipients.
   * Every filter is an index range led by the account (migration 0020).
   */
  async list(
    accountId: string,
    filter: EmailFilter,
    limit: number,
    position?: { createdAt: number; id: string },
  ): Promise<ListedEmail[]> {
    // Filtered by tag, the page is read in the tag's index order (migration 0022) and each
    // message joined to it: as fast for a tag on every message as for a rare one.
    const { tag } = filter;
    const from =
      tag === undefined
        ? this.db.selectFrom('emails as e')
        : (this.db
            .selectFrom('email_tags as t')
            .innerJoin('emails as e', 'e.id', 't.email_id')
            .where('t.account_id', '=', accountId)
            .where('t.name', '=', tag.name)
            .$if(tag.value !== undefined, (q) =>
              q.where('t.value', '=', tag.value!),
            ) as unknown as ReturnType<typeof this.db.selectFrom<'emails as e'>>);
    const order =
      tag === undefined
        ? { at: sql.ref('e.created_at'), id: sql.ref('e.id') }
        : { at: sql.ref('t.created_at'), id: sql.ref('t.email_id') };
    let query = from
      .select(['e.id', 'e.from_address', 'e.subject', 'e.tags', 'e.created_at', 'e.scheduled_at', 'e.status'])
      .where('e.account_id', '=', accountId)
      .orderBy(order.at, 'desc')
      .orderBy(order.id, 'desc')
      .limit(limit);
    if (filter.status !== undefined) query = query.where('e.status', '=', filter.status);
    if (filter.domainId !== undefined) query = query.where('e.domain_id', '=', filter.domainId);
    if (filter.domainIds !== undefined)
      query =
        filter.domainIds.length === 0
          ? query.where(sql<boolean>`false`)
          : query.where('e.domain_id', 'in', filter.domainIds);
    if (filter.since !== undefined) query = query.where(order.at, '>=', filter.since);
    if (filter.until !== undefined) query = query.where(order.at, '<', filter.until);
    if (filter.recipient !== undefined) {
      const address = filter.recipient;
      query = query.where('e.id', 'in', (eb) =>
        eb.selectFrom('email_recipients').select('email_id').where('address', '=', address),
      );
    }
    if (position !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb(order.at, '<', position.createdAt),
          eb.and([eb(order.at, '=', position.createdAt), eb(order.id, '<', position.id)]),
        ]),
      );
    }
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const recipients = await this.db
      .selectFrom('email_recipients')
      .select(['email_id', 'address', 'position'])
      .where(
        'email_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('position', '<', LISTED_RECIPIENTS)
      .orderBy('position')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      fromAddress: r.from_address,
      subject: r.subject,
      tags: JSON.parse(r.tags),
      createdAt: Number(r.created_at),
      scheduledAt: r.scheduled_at === null ? null : Number(r.scheduled_at),
      status: r.status as EmailStatus,
      to: recipients.filter((x) => x.email_id === r.id).map((x) => x.address),
    }));
  }

  /** The stored MIME message of one of the account's messages, with its subject. */
  async content(
    accountId: string,
    id: string,
  ): Promise<{ subject: string; message: string; domainId: string; deletedAt: number | null } | undefined> {
    const row = await this.db
      .selectFrom('emails')
      .select(['subject', 'message', 'domain_id', 'content_deleted_at'])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return (
      row && {
        subject: row.subject,
        message: row.message,
        domainId: row.domain_id,
        deletedAt: row.content_deleted_at === null ? null : Number(row.content_deleted_at),
      }
    );
  }

  /**
   * Retention, up to `limit` messages per statement: the bodies of settled messages created
   * before `bodiesBefore` are emptied, and settled messages created before `messagesBefore` are
   * deleted with their recipients, events and tags (by cascade). A message still waiting
   * (scheduled, queued, deferred) keeps everything whatever its age. Returns the larger count,
   * so the caller goes on while a statement had a full batch.
   */
  async prune(bodiesBefore: number, messagesBefore: number, at: number, limit: number): Promise<number> {
    const settled = ['sent', 'bounced', 'failed', 'canceled'];
    const bodies = await this.db
      .updateTable('emails')
      .set({ message: '', content_deleted_at: at })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('emails')
          .select('id')
          .where('created_at', '<', bodiesBefore)
          .where('content_deleted_at', 'is', null)
          .where('status', 'in', settled)
          .limit(limit),
      )
      .executeTakeFirst();
    const messages = await this.db
      .deleteFrom('emails')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('emails')
          .select('id')
          .where('created_at', '<', messagesBefore)
          .where('status', 'in', settled)
          .limit(limit),
      )
      .executeTakeFirst();
    return Math.max(Number(bodies.numUpdatedRows), Number(messages.numDeletedRows));
  }

  /** The sending registration's id of one of the account's messages, or `undefined`. */
  async domainOf(accountId: string, id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('emails')
      .select('domain_id')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.domain_id;
  }

  /**
   * Read as one snapshot (repeatable read on PostgreSQL; a read transaction on SQLite), so an
   * attempt committing between the reads never shows a recipient still `sending` beside its
   * `delivered` event.
   */
  async get(accountId: string, id: string): Promise<StoredEmail | undefined> {
    const transaction = this.db.transaction();
    const snapshot =
      this.kind === 'postgres' ? transaction.setIsolationLevel('repeatable read') : transaction;
    return snapshot.execute(async (trx) => {
      const email = await trx
        .selectFrom('emails')
        .select([
          'id',
          'from_address',
          'subject',
          'tags',
          'created_at',
          'scheduled_at',
          'domain_id',
          'tracking',
        ])
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (email === undefined) return undefined;
      const [recipients, events] = await Promise.all([
        trx
          .selectFrom('email_recipients')
          .select(['id', 'address', 'kind', 'status', 'attempts', 'next_attempt_at'])
          .where('email_id', '=', id)
          .orderBy('position')
          .execute(),
        trx
          .selectFrom('email_events')
          .select([
            'type',
            'address',
            'smtp_code',
            'smtp_text',
            'mx_host',
            'bounce_type',
            'url',
            'machine',
            'at',
          ])
          .where('email_id', '=', id)
          .orderBy('at')
          // One attempt's `sent` and `delivered` share their time: sent first.
          .orderBy(sql`case type when 'sent' then 0 when 'delivered' then 1 else 2 end`)
          .execute(),
      ]);
      return {
        id: email.id,
        fromAddress: email.from_address,
        subject: email.subject,
        tags: JSON.parse(email.tags),
        createdAt: Number(email.created_at),
        scheduledAt: email.scheduled_at === null ? null : Number(email.scheduled_at),
        tracking: (email.tracking?.split(',') ?? []) as StoredEmail['tracking'],
        domainId: email.domain_id,
        recipients: recipients.map((r) => ({
          id: r.id,
          address: r.address,
          kind: r.kind as RecipientKind,
          status: r.status as RecipientStatus,
          attempts: Number(r.attempts),
          nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
        })),
        events: events.map((e) => ({
          type: e.type as EmailEventType,
          address: e.address,
          smtpCode: e.smtp_code,
          smtpText: e.smtp_text,
          mxHost: e.mx_host,
          bounceType: e.bounce_type,
          url: e.url,
          machine: e.machine,
          at: Number(e.at),
        })),
      };
    });
  }

  /**
   * Cancel a scheduled message: its recipients still waiting become `canceled` (with an event
   * each) and are never claimed. Each recipient changes only from `scheduled`, in one statement
   * the sender's claim cannot interleave with: a recipient is either claimed or canceled.
   * `not_scheduled` when none was still waiting (sending began, or it was sent at once).
   */
  async cancel(
    accountId: string,
    id: string,
    at: number,
  ): Promise<'canceled' | 'not_found' | 'not_scheduled'> {
    return this.db.transaction().execute(async (trx) => {
      const email = await this.scheduledRow(trx, accountId, id);
      if (email === undefined) return 'not_found';
      const canceled = await trx
        .updateTable('email_recipients')
        .set({ status: 'canceled', next_attempt_at: null, updated_at: at })
        .where('email_id', '=', id)
        .where('status', '=', 'scheduled')
        .returning(['id', 'address'])
        .execute();
      if (canceled.length === 0) return 'not_scheduled';
      await trx
        .insertInto('email_events')
        .values(
          canceled.map((r) => ({
            id: newId('eev'),
            email_id: id,
            recipient_id: r.id,
            address: r.address,
            type: 'canceled',
            smtp_code: null,
            smtp_text: 'the scheduled message was canceled before it was sent',
            mx_host: null,
            bounce_type: null,
            at,
          })),
        )
        .execute();
      await refreshStatus(trx, id, this.kind);
      return 'canceled';
    });
  }

  /**
   * Move a scheduled message to `scheduledAt`, if none of its recipients was taken for sending
   * yet (the same single-statement guard as {@link cancel}).
   */
  async reschedule(
    accountId: string,
    id: string,
    scheduledAt: number,
    at: number,
  ): Promise<'rescheduled' | 'not_found' | 'not_scheduled'> {
    return this.db.transaction().execute(async (trx) => {
      const email = await this.scheduledRow(trx, accountId, id);
      if (email === undefined) return 'not_found';
      const moved = await trx
        .updateTable('email_recipients')
        .set({ next_attempt_at: scheduledAt, updated_at: at })
        .where('email_id', '=', id)
        .where('status', '=', 'scheduled')
        .returning('id')
        .execute();
      if (moved.length === 0) return 'not_scheduled';
      const { message } = await trx
        .selectFrom('emails')
        .select('message')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('emails')
        .set({ scheduled_at: scheduledAt, message: withDate(message, scheduledAt) })
        .where('id', '=', id)
        .execute();
      return 'rescheduled';
    });
  }

  /**
   * The account's message, its row locked on PostgreSQL as {@link refreshStatus} locks it, so a
   * cancel and a move of one message take turns.
   */
  private async scheduledRow(trx: Kysely<Database>, accountId: string, id: string) {
    let query = trx
      .selectFrom('emails')
      .select('id')
      .where('id', '=', id)
      .where('account_id', '=', accountId);
    if (this.kind === 'postgres') query = query.forNoKeyUpdate();
    return query.executeTakeFirst();
  }

  /** Claim up to `limit` due recipients until `now + leaseMs`, each by one process. */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedRecipient[]> {
    let due = this.db
      .selectFrom('email_recipients')
      .select('id')
      .where('next_attempt_at', 'is not', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    if (this.kind === 'postgres') due = due.forUpdate().skipLocked();
    const claimedUntil = now + leaseMs;
    const ids = await this.db
      .updateTable('email_recipients')
      .set({ claimed_until: claimedUntil, status: 'sending', updated_at: now })
      .where('id', 'in', due)
      .returning('id')
      .execute();
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('email_recipients as r')
      .innerJoin('emails as e', 'e.id', 'r.email_id')
      .leftJoin('domains as d', 'd.id', 'e.domain_id')
      // the domain's return path, once its CNAME is verified (issue 34)
      .leftJoin('domain_records as rp', (join) =>
        join
          .onRef('rp.domain_id', '=', 'd.id')
          .on('rp.kind', '=', 'return_path')
          .on('rp.status', '=', 'verified'),
      )
      .select([
        'r.id',
        'r.email_id',
        'r.address',
        'r.attempts',
        'e.account_id',
        'e.from_address',
        'e.subject',
        'e.tags',
        'e.message',
        'e.tracking',
        'e.created_at',
        'e.domain_id',
        'd.type as domain_type',
        'd.name as domain_name',
        'rp.label as return_path_label',
      ])
      .where(
        'r.id',
        'in',
        ids.map((r) => r.id),
      )
      .execute();
    return rows.map((r) => ({
      id: r.id,
      emailId: r.email_id,
      accountId: r.account_id,
      address: r.address,
      attempts: Number(r.attempts),
      claimedUntil,
      createdAt: Number(r.created_at),
      fromAddress: r.from_address,
      subject: r.subject,
      tags: JSON.parse(r.tags),
      message: r.message,
      domainType: streamOfMessage(r.domain_id, r.domain_type),
      returnPathDomain:
        r.return_path_label && r.domain_name ? `${r.return_path_label}.${r.domain_name}` : null,
      tracked: r.tracking !== null,
    }));
  }

  /**
   * Record one attempt's outcome and release the recipient; a hard bounce puts the address on
   * the account's suppression list, for every stream. Nothing is written if the lease was
   * lost (another process has the recipient now).
   */
  recordAttempt(claim: ClaimedRecipient, outcome: AttemptOutcome, at: number): Promise<void> {
    return this.attempts.write({ claim, outcome, at });
  }

  /**
   * Suppress the address of this recipient for its account (one-click unsubscribe): in the
   * message's stream (the From domain's type; `Marketing` when the domain is gone, as only
   * Marketing mail carries our link), or in every stream when the person asked for `all`.
   */
  async unsubscribe(recipientId: string, at: number, everything = false): Promise<boolean> {
    const row = await this.db
      .selectFrom('email_recipients as r')
      .innerJoin('emails as e', 'e.id', 'r.email_id')
      .leftJoin('domains as d', 'd.id', 'e.domain_id')
      .select(['r.address', 'e.account_id', 'e.id as email_id', 'd.type as domain_type'])
      .where('r.id', '=', recipientId)
      .executeTakeFirst();
    if (row === undefined) return false;
    await suppress(this.db, {
      account_id: row.account_id,
      address: row.address.toLowerCase(),
      reason: 'unsubscribed',
      scope: everything ? 'all' : streamOf(row.domain_type),
      email_id: row.email_id,
      created_at: at,
    });
    return true;
  }

  /**
   * Whether `fqdn` is a verified return-path domain (`bounces.<registered domain>`), of any
   * account. Accounts are probed one by one through the (account, name) index, as signing
   * does: there is no index on the name alone, and accounts are few.
   */
  async isReturnPathDomain(fqdn: string): Promise<boolean> {
    const dot = fqdn.indexOf('.');
    if (dot <= 0) return false;
    const [label, name] = [fqdn.slice(0, dot).toLowerCase(), fqdn.slice(dot + 1).toLowerCase()];
    const accounts = (await this.db.selectFrom('accounts').select('id').execute()).map((a) => a.id);
    if (accounts.length === 0) return false;
    const row = await this.db
      .selectFrom('domains as d')
      .innerJoin('domain_records as r', 'r.domain_id', 'd.id')
      .select('d.id')
      .where('d.account_id', 'in', accounts)
      .where('d.name', '=', name)
      .where('r.kind', '=', 'return_path')
      .where('r.label', '=', label)
      .where('r.status', '=', 'verified')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The recipient of message `emailId` a report is about, when the report reached a return-path
   * domain at an address that names none (`postmaster@`, an MTA that stripped our VERP): the
   * one with `address`, or the message's only recipient when the report names none.
   */
  async recipientOf(emailId: string, address: string | null): Promise<string | undefined> {
    const rows = await this.db
      .selectFrom('email_recipients')
      .select(['id', 'address'])
      .where('email_id', '=', emailId)
      .execute();
    if (address !== null) return rows.find((r) => r.address.toLowerCase() === address)?.id;
    return rows.length === 1 ? rows[0]!.id : undefined;
  }

  /** Whether a recipient id names a recipient of a message still stored. */
  async recipientExists(recipientId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('email_recipients')
      .select('id')
      .where('id', '=', recipientId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Record what came back for a recipient after acceptance: a bounce sets its status `bounced`
   * (a hard one suppresses the address everywhere), a complaint suppresses it in the message's
   * stream; either is an event of the message, and a webhook event. `false` when the recipient
   * is unknown (its message deleted). A second report of the same kind changes nothing.
   */
  async recordFeedback(recipientId: string, feedback: Feedback, at: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('email_recipients as r')
        .innerJoin('emails as e', 'e.id', 'r.email_id')
        .leftJoin('domains as d', 'd.id', 'e.domain_id')
        .select([
          'r.id',
          'r.email_id',
          'r.address',
          'r.status',
          'r.attempts',
          'e.account_id',
          'e.from_address',
          'e.subject',
          'e.tags',
          'e.domain_id',
          'd.type as domain_type',
        ])
        .where('r.id', '=', recipientId)
        .executeTakeFirst();
      if (row === undefined) return false;
      const type: EmailEventType = feedback.kind === 'bounce' ? 'bounced' : 'complained';
      const seen = await trx
        .selectFrom('email_events')
        .select('id')
        // by the message first: its events are indexed by it, a recipient's are not
        .where('email_id', '=', row.email_id)
        .where('recipient_id', '=', recipientId)
        .where('type', '=', type)
        .executeTakeFirst();
      if (seen !== undefined) return true;
      const bounce = feedback.kind === 'bounce' ? feedback.bounce : null;
      const text =
        feedback.kind === 'bounce'
          ? feedback.diagnostic.slice(0, 500)
          : `complaint: ${feedback.feedbackType}`;
      const code = Number(/^\d{3}/.exec(text)?.[0]) || null;
      const mxHost = feedback.kind === 'bounce' ? feedback.mxHost : null;
      if (feedback.kind === 'bounce') {
        await trx
          .updateTable('email_recipients')
          .set({ status: 'bounced', updated_at: at })
          .where('id', '=', recipientId)
          .execute();
        await refreshStatus(trx, row.email_id, this.kind);
      }
      await trx
        .insertInto('email_events')
        .values({
          id: newId('eev'),
          email_id: row.email_id,
          recipient_id: recipientId,
          address: row.address,
          type,
          smtp_code: code,
          smtp_text: text,
          mx_host: mxHost,
          bounce_type: bounce?.type ?? null,
          at,
        })
        .execute();
      const suppresses = feedback.kind === 'complaint' || bounce?.type === 'hard';
      if (suppresses) {
        await suppress(trx, {
          account_id: row.account_id,
          address: row.address.toLowerCase(),
          reason: feedback.kind === 'complaint' ? 'complained' : text,
          scope:
            feedback.kind === 'complaint' ? streamOf(streamOfMessage(row.domain_id, row.domain_type)) : 'all',
          email_id: row.email_id,
          created_at: at,
        });
      }
      await appendRecipientEvent(trx, type, row, at, {
        smtpCode: code,
        smtpText: text,
        mxHost,
        ...(bounce && { bounceType: bounce.type, diagnosticCode: bounce.status, suppressed: suppresses }),
        ...(feedback.kind === 'complaint' && { feedbackType: feedback.feedbackType, suppressed: true }),
      });
      return true;
    });
  }

  /**
   * An open or a click of one recipient's copy (issue 37): an event, and the `email.opened` or
   * `email.clicked` webhook. The same one again within a minute (a reloaded pixel, a double
   * click) is not recorded twice. `false` when the recipient is gone (retention deleted it).
   */
  async recordEngagement(recipientId: string, engagement: Engagement): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // One copy's opens and clicks one at a time: on PostgreSQL, requests at once (a mail
      // client loading the pixel twice, processes behind a balancer) each read "no event in
      // the last minute" and each wrote one. The lock makes the later one read the earlier's.
      // NO KEY UPDATE: the event insert's foreign keys take KEY SHARE, which it lets through.
      if (this.kind === 'postgres')
        await trx
          .selectFrom('email_recipients')
          .select('id')
          .where('id', '=', recipientId)
          .forNoKeyUpdate()
          .execute();
      const row = await trx
        .selectFrom('email_recipients as r')
        .innerJoin('emails as e', 'e.id', 'r.email_id')
        .select([
          'r.email_id',
          'r.address',
          'r.status',
          'r.attempts',
          'r.updated_at',
          'e.account_id',
          'e.from_address',
          'e.subject',
          'e.tags',
        ])
        .where('r.id', '=', recipientId)
        .executeTakeFirst();
      if (row === undefined) return false;
      let repeat = trx
        .selectFrom('email_events')
        .select('id')
        .where('email_id', '=', row.email_id)
        .where('at', '>', engagement.at - ENGAGEMENT_REPEAT_MS)
        .where('recipient_id', '=', recipientId)
        .where('type', '=', engagement.type);
      if (engagement.url !== null) repeat = repeat.where('url', '=', engagement.url);
      if ((await repeat.executeTakeFirst()) !== undefined) return true;
      // a copy that left has status sent or delivered since then (a later bounce moves it on)
      const sentAt = ['sent', 'delivered'].includes(row.status) ? Number(row.updated_at) : null;
      const machine = engagement.machine(sentAt);
      await trx
        .insertInto('email_events')
        .values({
          id: newId('eev'),
          email_id: row.email_id,
          recipient_id: recipientId,
          address: row.address,
          type: engagement.type,
          smtp_code: null,
          smtp_text: null,
          mx_host: null,
          url: engagement.url,
          machine,
          at: engagement.at,
        })
        .execute();
      await appendRecipientEvent(trx, engagement.type, row, engagement.at, {
        smtpCode: null,
        smtpText: null,
        mxHost: null,
        ...(engagement.url !== null && { url: engagement.url }),
        machine: machine !== null,
        machineReason: machine,
      });
      return true;
    });
  }

  /** The account's suppressed addresses, by address, a page at a time. */
  async listSuppressions(
    accountId: string,
    options: { after?: string; limit: number },
  ): Promise<
    { address: string; reason: string; scope: string; emailId: string | null; createdAt: number }[]
  > {
    let query = this.db
      .selectFrom('suppressions')
      .select(['address', 'reason', 'scope', 'email_id', 'created_at'])
      .where('account_id', '=', accountId)
      .orderBy('address')
      .limit(options.limit);
    if (options.after !== undefined) query = query.where('address', '>', options.after);
    return (await query.execute()).map((r) => ({
      address: r.address,
      reason: r.reason,
      scope: r.scope,
      emailId: r.email_id,
      createdAt: Number(r.created_at),
    }));
  }

  /** Remove an address from the list; `false` if it was not on it. */
  async removeSuppression(accountId: string, address: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('suppressions')
      .where('account_id', '=', accountId)
      .where('address', '=', address.toLowerCase())
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/**
 * The stream a message belongs to, for an unsubscribe or a complaint: its From domain's type;
 * `Marketing` when the domain is gone (only Marketing mail carries our unsubscribe link).
 */
/**
 * Keeps `emails.status` in step after a recipient's status changed in this transaction. The
 * message's row is locked first (PostgreSQL; SQLite has one writer): attempts for several
 * recipients of one message commit side by side, and without the lock each read the others'
 * recipients as they were before, so the last to commit could leave `sending` for a message
 * whose every recipient was sent. With it, the later one reads after the earlier committed.
 * `FOR NO KEY UPDATE`, not `FOR UPDATE`: each transaction already holds the row's KEY SHARE
 * lock from its events' foreign key, which `FOR UPDATE` waits on (two such: a deadlock).
 */
async function refreshStatus(
  db: Kysely<Database>,
  emailId: string,
  kind: 'sqlite' | 'postgres',
): Promise<void> {
  let current = db.selectFrom('emails').select('status').where('id', '=', emailId);
  if (kind === 'postgres') current = current.forNoKeyUpdate();
  const message = await current.executeTakeFirst();
  const rows = await db
    .selectFrom('email_recipients')
    .select('status')
    .where('email_id', '=', emailId)
    .execute();
  const status = emailStatus(rows.map((r) => r.status));
  // written only when it changes: 50 recipients sent one by one left it `sending` 48 times
  if (message?.status !== status)
    await db.updateTable('emails').set({ status }).where('id', '=', emailId).execute();
}

/**
 * A message's stream from its row: its domain's type, the sandbox's for a message from
 * `sandbox.test` (no registration behind it), `null` when its domain was deleted.
 */
function streamOfMessage(domainId: string, domainType: string | null): string | null {
  return domainId === SANDBOX_DOMAIN_ID ? SANDBOX_STREAM : domainType;
}

function streamOf(domainType: string | null): SuppressionScope {
  return domainType === 'Transactional' ? 'Transactional' : 'Marketing';
}

/**
 * Puts an address on the list. Already there for another stream, it is suppressed everywhere
 * (a Marketing unsubscribe and a Transactional one add up to all); already there for the same
 * scope or for all, nothing changes.
 */
async function suppress(db: Kysely<Database>, row: Insertable<Database['suppressions']>): Promise<void> {
  await db
    .insertInto('suppressions')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'address'])
        .doUpdateSet({ scope: 'all', reason: row.reason, email_id: row.email_id, created_at: row.created_at })
        .where('suppressions.scope', '!=', 'all')
        .where('suppressions.scope', '!=', row.scope),
    )
    .execute();
}

/**
 * Messages' rows: each message, its recipients, its tags, and a `suppressed` event for each
 * recipient suppressed. A few multi-row statements for all of them (a batch of 100 was 400
 * statements, each a pass through the query builder, run back to back on SQLite's one thread).
 */
async function insertEmails(trx: Transaction<Database>, emails: readonly NewEmail[]): Promise<void> {
  const messages: Insertable<Database['emails']>[] = [];
  const recipients: Insertable<Database['email_recipients']>[] = [];
  const tags: Insertable<Database['email_tags']>[] = [];
  const events: Insertable<Database['email_events']>[] = [];
  for (const email of emails) {
    const waiting = email.scheduledAt === null ? 'queued' : 'scheduled';
    messages.push({
      id: email.id,
      account_id: email.accountId,
      domain_id: email.domainId,
      from_address: email.fromAddress,
      subject: email.subject,
      message: email.message,
      tags: JSON.stringify(email.tags),
      idempotency_key: email.idempotencyKey,
      request_hash: email.requestHash,
      created_at: email.createdAt,
      scheduled_at: email.scheduledAt,
      tracking: email.tracking ?? null,
      status: emailStatus(email.recipients.map((r) => (r.suppressed ? 'suppressed' : waiting))),
    });
    email.recipients.forEach((r, position) => {
      const id = newId('rcp');
      recipients.push({
        id,
        email_id: email.id,
        position,
        address: r.address,
        kind: r.kind,
        status: r.suppressed ? 'suppressed' : waiting,
        next_attempt_at: r.suppressed ? null : (email.scheduledAt ?? email.createdAt),
        updated_at: email.createdAt,
      });
      if (r.suppressed)
        events.push({
          id: newId('eev'),
          email_id: email.id,
          recipient_id: id,
          address: r.address,
          type: 'suppressed',
          smtp_code: null,
          smtp_text: 'the address is on the account’s suppression list',
          mx_host: null,
          bounce_type: null,
          at: email.createdAt,
        });
    });
    for (const t of new Map(email.tags.map((t) => [JSON.stringify([t.name, t.value]), t])).values())
      tags.push({
        email_id: email.id,
        account_id: email.accountId,
        name: t.name,
        value: t.value,
        created_at: email.createdAt,
      });
  }
  await insertRows(trx, 'emails', messages);
  await insertRows(trx, 'email_recipients', recipients);
  await insertRows(trx, 'email_tags', tags);
  await insertRows(trx, 'email_events', events);
}

/** Rows per statement: within SQLite's 32,766 bound parameters (and PostgreSQL's 65,535) at 14 columns. */
const ROWS_PER_INSERT = 1_000;

async function insertRows<T extends 'emails' | 'email_recipients' | 'email_tags' | 'email_events'>(
  trx: Transaction<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
      .execute();
}

/**
 * The `email.*` webhook event about one recipient's copy, after the fact (a bounce or complaint
 * that came back, an open or a click): the message and recipient from `row`, then `fields`.
 */
function appendRecipientEvent(
  trx: Transaction<Database>,
  type: EmailEventType,
  row: {
    account_id: string;
    email_id: string;
    from_address: string;
    subject: string;
    tags: string;
    address: string;
    attempts: number | string;
  },
  at: number,
  fields: Omit<EmailEventData, 'id' | 'from' | 'subject' | 'tags' | 'recipient' | 'attempts'>,
): Promise<void> {
  const email: EmailEventData = {
    id: row.email_id,
    from: row.from_address,
    subject: row.subject,
    tags: JSON.parse(row.tags),
    recipient: row.address,
    attempts: Number(row.attempts),
    ...fields,
  };
  return appendEvents(
    trx,
    row.account_id,
    () => [{ type: `email.${type}` as WebhookEventType, stream: row.email_id, snapshot: { email } }],
    at,
  );
}

/** One attempt's writes in `trx` (see {@link EmailStore.recordAttempt}). */
async function writeAttempt(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  { claim, outcome, at }: Attempt,
): Promise<void> {
  if (outcome.kind === 'postponed') {
    // back to the queue as it was before its claim: the message's status never left it
    await trx
      .updateTable('email_recipients')
      .set({
        status: claim.attempts === 0 ? 'queued' : 'deferred',
        next_attempt_at: outcome.nextAttemptAt,
        claimed_until: null,
        updated_at: at,
      })
      .where('id', '=', claim.id)
      .where('claimed_until', '=', claim.claimedUntil)
      .execute();
    return;
  }
  const status: RecipientStatus = outcome.kind;
  const updated = await trx
    .updateTable('email_recipients')
    .set((eb) => ({
      status,
      attempts: eb('attempts', '+', 1),
      next_attempt_at: outcome.kind === 'deferred' ? outcome.nextAttemptAt : null,
      claimed_until: null,
      updated_at: at,
    }))
    .where('id', '=', claim.id)
    .where('claimed_until', '=', claim.claimedUntil)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return;
  const events = eventRows({ claim, outcome, at });
  await trx.insertInto('email_events').values(events).execute();
  await refreshStatus(trx, claim.emailId, kind);
  await writeOutbox(trx, { claim, outcome, at }, events);
}

/** The events one attempt writes: its outcome, and `delivered` after a `sent` to the MX. */
function eventRows({ claim, outcome, at }: Attempt): Insertable<Database['email_events']>[] {
  const event = (type: EmailEventType) => ({
    id: newId('eev'),
    email_id: claim.emailId,
    recipient_id: claim.id,
    address: claim.address,
    type,
    smtp_code: outcome.code,
    smtp_text: outcome.text,
    mx_host: outcome.mxHost,
    bounce_type: outcome.kind === 'bounced' && type === 'bounced' ? outcome.bounce.type : null,
    at,
  });
  const events = [event(outcome.kind as EmailEventType)];
  if (outcome.kind === 'sent' && outcome.delivered) events.push(event('delivered'));
  return events;
}

/**
 * An attempt's webhook events (the outbox, in this transaction, in its message's stream), and
 * a hard bounce's suppression. `endpoints: false`: the account has none, known already.
 */
async function writeOutbox(
  trx: Transaction<Database>,
  { claim, outcome, at }: Attempt,
  events: Insertable<Database['email_events']>[],
  endpoints = true,
): Promise<void> {
  const suppresses = outcome.kind === 'bounced' && outcome.bounce.type === 'hard';
  const data = {
    id: claim.emailId,
    from: claim.fromAddress,
    subject: claim.subject,
    tags: claim.tags,
    recipient: claim.address,
    smtpCode: outcome.code,
    smtpText: outcome.text,
    mxHost: outcome.mxHost,
    attempts: claim.attempts + 1,
    ...(outcome.kind === 'bounced' && {
      bounceType: outcome.bounce.type,
      diagnosticCode: outcome.bounce.status,
      suppressed: suppresses,
    }),
  };
  if (endpoints)
    await appendEvents(
      trx,
      claim.accountId,
      () =>
        events.map((e) => ({
          type: `email.${e.type}` as WebhookEventType,
          stream: claim.emailId,
          snapshot: { email: data },
        })),
      at,
    );
  if (suppresses) {
    await suppress(trx, {
      account_id: claim.accountId,
      address: claim.address.toLowerCase(),
      reason: outcome.text.slice(0, 500),
      scope: 'all',
      email_id: claim.emailId,
      created_at: at,
    });
  }
}

/**
 * Attempts' writes, several statements for the whole group where {@link writeAttempt} runs six
 * for each attempt: on PostgreSQL one round trip after another on the one connection of the
 * group commit (the sender's bottleneck there, issue 35), on SQLite as many passes through the
 * query builder on the main thread: the recipients in
 * one UPDATE (each only while its lease holds), their events in one INSERT, the messages
 * locked in id order (as {@link refreshStatus} locks one) and their statuses read once, and the
 * outbox only for accounts with webhook endpoints. `attempts` come in the group's order.
 */
async function writeAttemptsTogether(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  attempts: readonly Attempt[],
): Promise<void> {
  const tried: Attempt[] = [];
  for (const attempt of attempts)
    if (attempt.outcome.kind === 'postponed') await writeAttempt(trx, kind, attempt);
    else tried.push(attempt);
  if (tried.length === 0) return;
  // (SQLite names no VALUES columns but a CTE's; `cast` is both dialects' SQL)
  const values = sql.join(
    tried.map(
      ({ claim, outcome, at }) =>
        sql`(${claim.id}, ${outcome.kind}, cast(${outcome.kind === 'deferred' ? outcome.nextAttemptAt : null} as bigint), cast(${at} as bigint), cast(${claim.claimedUntil} as bigint))`,
    ),
  );
  const updated = await sql<{ id: string }>`
    with v(recipient, new_status, next_at, at_ms, lease) as (values ${values})
    update email_recipients as r
    set status = v.new_status, attempts = r.attempts + 1, next_attempt_at = v.next_at,
      claimed_until = null, updated_at = v.at_ms
    from v
    where r.id = v.recipient and r.claimed_until = v.lease
    returning id`.execute(trx);
  const kept = new Set(updated.rows.map((r) => r.id));
  const written = tried.filter((a) => kept.has(a.claim.id));
  if (written.length === 0) return;
  const events = written.map(eventRows);
  await trx.insertInto('email_events').values(events.flat()).execute();
  // every message's row locked, in one order for every writer, before its recipients are read
  const emailIds = [...new Set(written.map((a) => a.claim.emailId))].sort();
  let locking = trx.selectFrom('emails').select(['id', 'status']).where('id', 'in', emailIds).orderBy('id');
  if (kind === 'postgres') locking = locking.forNoKeyUpdate();
  const messages = await locking.execute();
  const statuses = new Map<string, string[]>();
  for (const r of await trx
    .selectFrom('email_recipients')
    .select(['email_id', 'status'])
    .where('email_id', 'in', emailIds)
    .execute()) {
    const list = statuses.get(r.email_id);
    if (list) list.push(r.status);
    else statuses.set(r.email_id, [r.status]);
  }
  for (const message of messages) {
    const status = emailStatus(statuses.get(message.id) ?? []);
    if (status !== message.status)
      await trx.updateTable('emails').set({ status }).where('id', '=', message.id).execute();
  }
  const accounts = [...new Set(written.map((a) => a.claim.accountId))];
  const withEndpoints = new Set(
    (
      await trx
        .selectFrom('webhook_endpoints')
        .select('account_id')
        .where('account_id', 'in', accounts)
        .where('disabled_at', 'is', null)
        .execute()
    ).map((r) => r.account_id),
  );
  for (const [n, attempt] of written.entries())
    await writeOutbox(trx, attempt, events[n]!, withEndpoints.has(attempt.claim.accountId));
}
