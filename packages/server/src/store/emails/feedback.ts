/**
 * What comes back after a message left (issues 34 and 37): bounces and complaints, one-click
 * unsubscribes, opens and clicks, each as its recipient's event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { EmailEventData, WebhookEventType } from '../../webhook/events.js';
import { newId } from '../ids.js';
import type { Database } from '../tables.js';
import { appendEvents } from '../webhook-outbox.js';
import { refreshStatus } from './message-status.js';
import { streamOf, streamOfMessage, suppress } from './suppressions.js';
import type { EmailEventType, Engagement, Feedback } from './types.js';

/** The same open or click again this soon is one event (a reloaded pixel, a double click). */
const ENGAGEMENT_REPEAT_MS = 60_000;

/**
 * Suppress the address of this recipient for its account (one-click unsubscribe): in the
 * message's stream (the From domain's type; `Marketing` when the domain is gone, as only
 * Marketing mail carries our link), or in every stream when the person asked for `all`.
 */
export async function unsubscribe(
  db: Kysely<Database>,
  recipientId: string,
  at: number,
  everything = false,
): Promise<boolean> {
  const row = await db
    .selectFrom('email_recipients as r')
    .innerJoin('emails as e', 'e.id', 'r.email_id')
    .leftJoin('domains as d', 'd.id', 'e.domain_id')
    .select(['r.address', 'e.account_id', 'e.id as email_id', 'd.type as domain_type'])
    .where('r.id', '=', recipientId)
    .executeTakeFirst();
  if (row === undefined) return false;
  await suppress(db, {
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
export async function isReturnPathDomain(db: Kysely<Database>, fqdn: string): Promise<boolean> {
  const dot = fqdn.indexOf('.');
  if (dot <= 0) return false;
  const [label, name] = [fqdn.slice(0, dot).toLowerCase(), fqdn.slice(dot + 1).toLowerCase()];
  const accounts = (await db.selectFrom('accounts').select('id').execute()).map((a) => a.id);
  if (accounts.length === 0) return false;
  const row = await db
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
export async function recipientOf(
  db: Kysely<Database>,
  emailId: string,
  address: string | null,
): Promise<string | undefined> {
  const rows = await db
    .selectFrom('email_recipients')
    .select(['id', 'address'])
    .where('email_id', '=', emailId)
    .execute();
  if (address !== null) return rows.find((r) => r.address.toLowerCase() === address)?.id;
  return rows.length === 1 ? rows[0]!.id : undefined;
}

/** Whether a recipient id names a recipient of a message still stored. */
export async function recipientExists(db: Kysely<Database>, recipientId: string): Promise<boolean> {
  const row = await db
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
export async function recordFeedback(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  recipientId: string,
  feedback: Feedback,
  at: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
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
      feedback.kind === 'bounce' ? feedback.diagnostic.slice(0, 500) : `complaint: ${feedback.feedbackType}`;
    const code = Number(/^\d{3}/.exec(text)?.[0]) || null;
    const mxHost = feedback.kind === 'bounce' ? feedback.mxHost : null;
    if (feedback.kind === 'bounce') {
      await trx
        .updateTable('email_recipients')
        .set({ status: 'bounced', updated_at: at })
        .where('id', '=', recipientId)
        .execute();
      await refreshStatus(trx, row.email_id, kind);
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
export async function recordEngagement(
  db: Kysely<Database>,
  kind: 'sqlite' | 'postgres',
  recipientId: string,
  engagement: Engagement,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // One copy's opens and clicks one at a time: on PostgreSQL, requests at once (a mail
    // client loading the pixel twice, processes behind a balancer) each read "no event in
    // the last minute" and each wrote one. The lock makes the later one read the earlier's.
    // NO KEY UPDATE: the event insert's foreign keys take KEY SHARE, which it lets through.
    if (kind === 'postgres')
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
