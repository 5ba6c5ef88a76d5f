/**
 * The account's suppression list (issue 21): addresses it may not send to, in every stream or
 * in the one they left.
 */
import type { Insertable, Kysely } from 'kysely';
import { SANDBOX_DOMAIN_ID, SANDBOX_STREAM } from '../../email/sandbox.js';
import type { Database } from '../tables.js';
import type { SuppressionScope } from './types.js';

/**
 * Which of `addresses` (suppression keys) the account may not send to in `stream` (the From
 * domain's type): those suppressed everywhere or in that stream. One query for the request.
 */
export async function suppressed(
  db: Kysely<Database>,
  accountId: string,
  addresses: string[],
  stream: string,
): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .selectFrom('suppressions')
    .select('address')
    .where('account_id', '=', accountId)
    .where('address', 'in', addresses)
    .where('scope', 'in', ['all', stream])
    .execute();
  return new Set(rows.map((r) => r.address));
}

/** The account's suppressed addresses, by address, a page at a time. */
export async function listSuppressions(
  db: Kysely<Database>,
  accountId: string,
  options: { after?: string; limit: number },
): Promise<{ address: string; reason: string; scope: string; emailId: string | null; createdAt: number }[]> {
  let query = db
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
export async function removeSuppression(
  db: Kysely<Database>,
  accountId: string,
  address: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('suppressions')
    .where('account_id', '=', accountId)
    .where('address', '=', address.toLowerCase())
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * A message's stream from its row: its domain's type, the sandbox's for a message from
 * `sandbox.test` (no registration behind it), `null` when its domain was deleted.
 */
export function streamOfMessage(domainId: string, domainType: string | null): string | null {
  return domainId === SANDBOX_DOMAIN_ID ? SANDBOX_STREAM : domainType;
}

/**
 * The stream a message belongs to, for an unsubscribe or a complaint: its From domain's type;
 * `Marketing` when the domain is gone (only Marketing mail carries our unsubscribe link).
 */
export function streamOf(domainType: string | null): SuppressionScope {
  return domainType === 'Transactional' ? 'Transactional' : 'Marketing';
}

/**
 * Puts an address on the list. Already there for another stream, it is suppressed everywhere
 * (a Marketing unsubscribe and a Transactional one add up to all); already there for the same
 * scope or for all, nothing changes.
 */
export async function suppress(
  db: Kysely<Database>,
  row: Insertable<Database['suppressions']>,
): Promise<void> {
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
