/**
 * A message's status, kept in step with its recipients'.
 */
import type { Kysely } from 'kysely';
import { emailStatus } from '../../email/status.js';
import type { Database } from '../tables.js';

/**
 * Keeps `emails.status` in step after a recipient's status changed in this transaction. The
 * message's row is locked first (PostgreSQL; SQLite has one writer): attempts for several
 * recipients of one message commit side by side, and without the lock each read the others'
 * recipients as they were before, so the last to commit could leave `sending` for a message
 * whose every recipient was sent. With it, the later one reads after the earlier committed.
 * `FOR NO KEY UPDATE`, not `FOR UPDATE`: each transaction already holds the row's KEY SHARE
 * lock from its events' foreign key, which `FOR UPDATE` waits on (two such: a deadlock).
 */
export async function refreshStatus(
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
