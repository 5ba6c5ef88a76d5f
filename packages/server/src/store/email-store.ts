/**
 * Storage of the sending queue (issue 21), one object over the functions of `emails/`: an
 * accepted message and its recipients in one transaction (so an answer of `queued` means
 * nothing can be lost), the claim of due recipients with a lease, each attempt's outcome with
 * its event, scheduling, listing, retention, what comes back (bounces, complaints, opens and
 * clicks) and the account's suppression list. Each concept is a file of `emails/`; this class
 * holds the database, its kind and the attempts' group commit for them.
 */
import type { Kysely } from 'kysely';
import type { IdempotencyConflict } from './emails/accept.js';
import * as accepting from './emails/accept.js';
import * as attempts from './emails/attempts.js';
import * as feedbacks from './emails/feedback.js';
import type { EmailFilter, ListedEmail } from './emails/listing.js';
import * as listing from './emails/listing.js';
import * as reading from './emails/reading.js';
import * as retention from './emails/retention.js';
import * as scheduling from './emails/scheduling.js';
import * as suppressions from './emails/suppressions.js';
import type {
  AttemptOutcome,
  ClaimedRecipient,
  Engagement,
  Feedback,
  IdempotentEmail,
  NewEmail,
  StoredEmail,
} from './emails/types.js';
import type { GroupCommit } from './group-commit.js';
import type { Database } from './tables.js';

export class EmailStore {
  /**
   * Attempts' outcomes, committed in groups: each commit waits for the disk (a "sent" lost to a
   * power cut would send the message again), and one commit per delivery took 1.8 ms of the
   * main thread each, 18 of the 40 s that 10,000 deliveries took on SQLite.
   */
  private readonly attempts: GroupCommit<attempts.Attempt>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {
    this.attempts = attempts.attemptCommits(db, kind);
  }

  /**
   * Which of `addresses` (suppression keys) the account may not send to in `stream` (the From
   * domain's type): those suppressed everywhere or in that stream. One query for the request.
   */
  suppressed(accountId: string, addresses: string[], stream: string): Promise<Set<string>> {
    return suppressions.suppressed(this.db, accountId, addresses, stream);
  }

  /**
   * Count one submission in the account's current minute (`windowStart`) and return the count
   * so far: one upsert on one row per account, atomic across processes, whatever the volume.
   */
  countSubmission(accountId: string, windowStart: number, messages = 1): Promise<number> {
    return accepting.countSubmission(this.db, accountId, windowStart, messages);
  }

  /** The message accepted earlier under this idempotency key, if any. */
  findByIdempotencyKey(accountId: string, key: string): Promise<IdempotentEmail | undefined> {
    return accepting.findByIdempotencyKey(this.db, accountId, key);
  }

  /** The messages stored under any of `keys` (a batch's entries), in no particular order. */
  findByIdempotencyKeys(accountId: string, keys: string[]): Promise<IdempotentEmail[]> {
    return accepting.findByIdempotencyKeys(this.db, accountId, keys);
  }

  /**
   * Store the message, its recipients (suppressed ones settled at once, with their event) in
   * one transaction. With an idempotency key already used, answers the earlier message's id
   * (same request) or throws {@link IdempotencyConflict} (another request).
   */
  accept(email: NewEmail): Promise<{ id: string; created: boolean }> {
    return accepting.accept(this.db, email);
  }

  /**
   * Several messages in one transaction (a batch): one durable write for all. When it fails
   * (an Idempotency-Key taken meanwhile by another request), each is stored on its own, so one
   * entry's conflict is that entry's ({@link IdempotencyConflict} in its place).
   */
  acceptMany(emails: NewEmail[]): Promise<({ id: string; created: boolean } | IdempotencyConflict)[]> {
    return accepting.acceptMany(this.db, emails);
  }

  /**
   * One page of the account's messages, newest first, after `position` (the last one of the
   * previous page): each with its status, and its first {@link listing.LISTED_RECIPIENTS} recipients.
   * Every filter is an index range led by the account (migration 0020).
   */
  list(
    accountId: string,
    filter: EmailFilter,
    limit: number,
    position?: { createdAt: number; id: string },
  ): Promise<ListedEmail[]> {
    return listing.list(this.db, accountId, filter, limit, position);
  }

  /** The stored MIME message of one of the account's messages, with its subject. */
  content(
    accountId: string,
    id: string,
  ): Promise<{ subject: string; message: string; domainId: string; deletedAt: number | null } | undefined> {
    return reading.content(this.db, accountId, id);
  }

  /**
   * Retention, up to `limit` messages per statement: the bodies of settled messages created
   * before `bodiesBefore` are emptied, and settled messages created before `messagesBefore` are
   * deleted with their recipients, events and tags (by cascade). A message still waiting
   * (scheduled, queued, deferred) keeps everything whatever its age. Returns the larger count,
   * so the caller goes on while a statement had a full batch.
   */
  prune(bodiesBefore: number, messagesBefore: number, at: number, limit: number): Promise<number> {
    return retention.prune(this.db, bodiesBefore, messagesBefore, at, limit);
  }

  /** The sending registration's id of one of the account's messages, or `undefined`. */
  domainOf(accountId: string, id: string): Promise<string | undefined> {
    return reading.domainOf(this.db, accountId, id);
  }

  /**
   * Read as one snapshot (repeatable read on PostgreSQL; a read transaction on SQLite), so an
   * attempt committing between the reads never shows a recipient still `sending` beside its
   * `delivered` event.
   */
  get(accountId: string, id: string): Promise<StoredEmail | undefined> {
    return reading.get(this.db, this.kind, accountId, id);
  }

  /**
   * Cancel a scheduled message: its recipients still waiting become `canceled` (with an event
   * each) and are never claimed. Each recipient changes only from `scheduled`, in one statement
   * the sender's claim cannot interleave with: a recipient is either claimed or canceled.
   * `not_scheduled` when none was still waiting (sending began, or it was sent at once).
   */
  cancel(accountId: string, id: string, at: number): Promise<'canceled' | 'not_found' | 'not_scheduled'> {
    return scheduling.cancel(this.db, this.kind, accountId, id, at);
  }

  /**
   * Move a scheduled message to `scheduledAt`, if none of its recipients was taken for sending
   * yet (the same single-statement guard as {@link cancel}).
   */
  reschedule(
    accountId: string,
    id: string,
    scheduledAt: number,
    at: number,
  ): Promise<'rescheduled' | 'not_found' | 'not_scheduled'> {
    return scheduling.reschedule(this.db, this.kind, accountId, id, scheduledAt, at);
  }

  /** Claim up to `limit` due recipients until `now + leaseMs`, each by one process. */
  claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedRecipient[]> {
    return attempts.claimDue(this.db, this.kind, now, limit, leaseMs);
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
  unsubscribe(recipientId: string, at: number, everything = false): Promise<boolean> {
    return feedbacks.unsubscribe(this.db, recipientId, at, everything);
  }

  /**
   * Whether `fqdn` is a verified return-path domain (`bounces.<registered domain>`), of any
   * account. Accounts are probed one by one through the (account, name) index, as signing
   * does: there is no index on the name alone, and accounts are few.
   */
  isReturnPathDomain(fqdn: string): Promise<boolean> {
    return feedbacks.isReturnPathDomain(this.db, fqdn);
  }

  /**
   * The recipient of message `emailId` a report is about, when the report reached a return-path
   * domain at an address that names none (`postmaster@`, an MTA that stripped our VERP): the
   * one with `address`, or the message's only recipient when the report names none.
   */
  recipientOf(emailId: string, address: string | null): Promise<string | undefined> {
    return feedbacks.recipientOf(this.db, emailId, address);
  }

  /** Whether a recipient id names a recipient of a message still stored. */
  recipientExists(recipientId: string): Promise<boolean> {
    return feedbacks.recipientExists(this.db, recipientId);
  }

  /**
   * Record what came back for a recipient after acceptance: a bounce sets its status `bounced`
   * (a hard one suppresses the address everywhere), a complaint suppresses it in the message's
   * stream; either is an event of the message, and a webhook event. `false` when the recipient
   * is unknown (its message deleted). A second report of the same kind changes nothing.
   */
  recordFeedback(recipientId: string, feedback: Feedback, at: number): Promise<boolean> {
    return feedbacks.recordFeedback(this.db, this.kind, recipientId, feedback, at);
  }

  /**
   * An open or a click of one recipient's copy (issue 37): an event, and the `email.opened` or
   * `email.clicked` webhook. The same one again within a minute (a reloaded pixel, a double
   * click) is not recorded twice. `false` when the recipient is gone (retention deleted it).
   */
  recordEngagement(recipientId: string, engagement: Engagement): Promise<boolean> {
    return feedbacks.recordEngagement(this.db, this.kind, recipientId, engagement);
  }

  /** The account's suppressed addresses, by address, a page at a time. */
  listSuppressions(
    accountId: string,
    options: { after?: string; limit: number },
  ): Promise<
    { address: string; reason: string; scope: string; emailId: string | null; createdAt: number }[]
  > {
    return suppressions.listSuppressions(this.db, accountId, options);
  }

  /** Remove an address from the list; `false` if it was not on it. */
  removeSuppression(accountId: string, address: string): Promise<boolean> {
    return suppressions.removeSuppression(this.db, accountId, address);
  }
}
