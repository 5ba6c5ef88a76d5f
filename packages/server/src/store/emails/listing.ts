/**
 * `GET /api/public/emails` (issue 37): one page of an account's messages, newest first, by
 * cursor, each filter an index range led by the account.
 */
import { type Kysely, sql } from 'kysely';
import type { EmailStatus } from '../../email/status.js';
import type { Database } from '../tables.js';
import type { StoredEmail } from './types.js';

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

/** A message as listed: what is stored of it, without its recipients' rows and events. */
export interface ListedEmail
  extends Pick<StoredEmail, 'id' | 'fromAddress' | 'subject' | 'tags' | 'createdAt' | 'scheduledAt'> {
  status: EmailStatus;
  /** Its first {@link LISTED_RECIPIENTS} envelope recipients. */
  to: string[];
}

/**
 * One page of the account's messages, newest first, after `position` (the last one of the
 * previous page): each with its status, and its first {@link LISTED_RECIPIENTS} recipients.
 * Every filter is an index range led by the account (migration 0020).
 */
export async function list(
  db: Kysely<Database>,
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
      ? db.selectFrom('emails as e')
      : (db
          .selectFrom('email_tags as t')
          .innerJoin('emails as e', 'e.id', 't.email_id')
          .where('t.account_id', '=', accountId)
          .where('t.name', '=', tag.name)
          .$if(tag.value !== undefined, (q) => q.where('t.value', '=', tag.value!)) as unknown as ReturnType<
          typeof db.selectFrom<'emails as e'>
        >);
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
  const recipients = await db
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
