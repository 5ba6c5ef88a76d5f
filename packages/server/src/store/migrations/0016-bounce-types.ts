import { type Kysely, sql } from 'kysely';
import { classifyRefusal } from '../../email/bounce.js';

/**
 * Bounces classified, suppressions scoped (issue 34).
 *
 * - `email_events.bounce_type`: `hard`, `soft`, `block` or `undetermined` for a `bounced` event
 *   (`email/bounce.ts`), `null` otherwise;
 * - `suppressions.scope`: the stream the address left: `all` (a hard bounce), or `Marketing` /
 *   `Transactional` (an unsubscribe, a complaint about mail of that stream). Sending checks the
 *   address against `all` and the From domain's type.
 *
 * Existing suppressions: an unsubscribe (only Marketing mail carries our link) is `Marketing`;
 * a bounce whose refusal does not say the address is gone (a blocklist, a full mailbox) is
 * removed, since it never should have suppressed; a reason with its code twice (`550 550 5.1.1
 * …`) keeps it once.
 */
/** The one table this migration reads and writes, as it is at this version. */
interface Tables {
  suppressions: { account_id: string; address: string; reason: string; scope: string };
}

export async function up(migrating: Kysely<unknown>): Promise<void> {
  const db = migrating as unknown as Kysely<Tables>;
  await db.schema.alterTable('email_events').addColumn('bounce_type', 'text').execute();
  await db.schema
    .alterTable('suppressions')
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('all'))
    .execute();
  await db
    .updateTable('suppressions')
    .set({ scope: 'Marketing' })
    .where('reason', '=', 'unsubscribed')
    .execute();
  await sql`update suppressions set reason = substr(reason, 5)
    where reason like '___ ___ %' and substr(reason, 1, 3) = substr(reason, 5, 3)`.execute(db);
  // A page at a time, in key order: one pass however long the list.
  let after: { account_id: string; address: string } | undefined;
  for (;;) {
    let page = db
      .selectFrom('suppressions')
      .select(['account_id', 'address', 'reason'])
      .where('reason', '!=', 'unsubscribed')
      .orderBy('account_id')
      .orderBy('address')
      .limit(1000);
    if (after) {
      const { account_id, address } = after;
      page = page.where((eb) =>
        eb.or([
          eb('account_id', '>', account_id),
          eb.and([eb('account_id', '=', account_id), eb('address', '>', address)]),
        ]),
      );
    }
    const rows = await page.execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const code = Number(/^\d{3}/.exec(row.reason)?.[0]) || null;
      if (classifyRefusal(code, row.reason).type === 'hard') continue;
      await db
        .deleteFrom('suppressions')
        .where('account_id', '=', row.account_id)
        .where('address', '=', row.address)
        .execute();
    }
    after = rows.at(-1);
  }
}
