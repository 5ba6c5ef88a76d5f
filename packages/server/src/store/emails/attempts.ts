/**
 * Delivery attempts (issue 21): due recipients claimed with a lease (`SKIP LOCKED` on
 * PostgreSQL, as the webhook deliveries), and each attempt's outcome written with its events,
 * committed in groups.
 */
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import { emailStatus } from '../../email/status.js';
import type { WebhookEventType } from '../../webhook/events.js';
import { GroupCommit } from '../group-commit.js';
import { newId } from '../ids.js';
import type { Database } from '../tables.js';
import { appendEvents } from '../webhook-outbox.js';
import { refreshStatus } from './message-status.js';
import { streamOfMessage, suppress } from './suppressions.js';
import type { AttemptOutcome, ClaimedRecipient, EmailEventType, RecipientStatus } from './types.js';

/** At most this many attempts' outcomes in one transaction (see {@link GroupCommit}). */
const ATTEMPTS_PER_COMMIT = 200;

/** One attempt's outcome, as the group commit holds it. */
export interface Attempt {
  claim: ClaimedRecipient;
  outcome: AttemptOutcome;
  at: number;
}

/**
 * The group commit of attempts' outcomes (see {@link GroupCommit}): one attempt alone in its
 * transaction, or several written together, in one order for every writer (a message's row
 * is updated for each of its recipients).
 */
export function attemptCommits(db: Kysely<Database>, kind: 'sqlite' | 'postgres'): GroupCommit<Attempt> {
  return new GroupCommit({
    writeOne: (attempt) => db.transaction().execute((trx) => writeAttempt(trx, kind, attempt)),
    writeAll: (attempts) =>
      db.transaction().execute(async (trx) => {
        const ordered = [...attempts].sort((a, b) =>
          a.claim.emailId === b.claim.emailId
            ? a.claim.id < b.claim.id
              ? -1
              : 1
            : a.claim.emailId < b.claim.emailId
              ? -1
              : 1,
        );
        await writeAttemptsTogether(trx, kind, ordered);
      }),
    maxItems: ATTEMPTS_PER_COMMIT,
  });
}

/** Claim up to `limit` due recipients until `now + leaseMs`, each by one process. */
export async function claimDue(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  now: number,
  limit: number,
  leaseMs: number,
): Promise<ClaimedRecipient[]> {
  let due = db
    .selectFrom('email_recipients')
    .select('id')
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  if (kind === 'postgres') due = due.forUpdate().skipLocked();
  const claimedUntil = now + leaseMs;
  const ids = await db
    .updateTable('email_recipients')
    .set({ claimed_until: claimedUntil, status: 'sending', updated_at: now })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  if (ids.length === 0) return [];
  const rows = await db
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
    returnPathDomain: r.return_path_label && r.domain_name ? `${r.return_path_label}.${r.domain_name}` : null,
    tracked: r.tracking !== null,
  }));
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
