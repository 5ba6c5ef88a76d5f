/**
 * The sandbox's capture inbox (issue 40, `email/sandbox.ts`): what was "sent" to a
 * `sandbox.test` address, per account, newest first. Each account keeps its newest
 * {@link SANDBOX_INBOX_SIZE} messages; a message deleted takes its captures with it.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

/** Captures kept per account: a development inbox, not an archive. */
export const SANDBOX_INBOX_SIZE = 1_000;

export interface CapturedMessage {
  /** The envelope recipient's id (`rcp_…`). */
  id: string;
  emailId: string;
  address: string;
  /** The message as it would have left, signed. */
  message: string;
  /** mailauth's verdicts, as `email/sandbox-inbox.ts` condenses them. */
  authentication: unknown;
  capturedAt: number;
}

/** A capture as read back, with its message's sender and subject as the request gave them. */
export interface InboxMessage extends CapturedMessage {
  from: string;
  subject: string;
}

/** Where a page of the inbox starts: after this capture (newest first). */
export interface InboxPosition {
  capturedAt: number;
  id: string;
}

export class SandboxStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Keep a capture (again, if a retried attempt captures the same recipient), and trim the inbox. */
  async capture(accountId: string, captured: CapturedMessage): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = {
        id: captured.id,
        account_id: accountId,
        email_id: captured.emailId,
        address: captured.address,
        message: captured.message,
        authentication: JSON.stringify(captured.authentication),
        captured_at: captured.capturedAt,
      };
      await trx
        .insertInto('sandbox_messages')
        .values(row)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            message: row.message,
            authentication: row.authentication,
            captured_at: row.captured_at,
          }),
        )
        .execute();
      const oldestKept = await trx
        .selectFrom('sandbox_messages')
        .select('captured_at')
        .where('account_id', '=', accountId)
        .orderBy('captured_at', 'desc')
        .offset(SANDBOX_INBOX_SIZE - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldestKept !== undefined) {
        await trx
          .deleteFrom('sandbox_messages')
          .where('account_id', '=', accountId)
          .where('captured_at', '<', Number(oldestKept.captured_at))
          .execute();
      }
    });
  }

  /** One page of the account's inbox, newest first, after `after` when given. */
  async list(accountId: string, limit: number, after?: InboxPosition): Promise<InboxMessage[]> {
    let query = this.inbox(accountId).orderBy('s.captured_at', 'desc').orderBy('s.id', 'desc').limit(limit);
    if (after !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('s.captured_at', '<', after.capturedAt),
          eb.and([eb('s.captured_at', '=', after.capturedAt), eb('s.id', '<', after.id)]),
        ]),
      );
    }
    return (await query.execute()).map(toInboxMessage);
  }

  async get(accountId: string, id: string): Promise<InboxMessage | undefined> {
    const row = await this.inbox(accountId).where('s.id', '=', id).executeTakeFirst();
    return row && toInboxMessage(row);
  }

  private inbox(accountId: string) {
    return this.db
      .selectFrom('sandbox_messages as s')
      .innerJoin('emails as e', 'e.id', 's.email_id')
      .selectAll('s')
      .select(['e.from_address', 'e.subject'])
      .where('s.account_id', '=', accountId);
  }
}

function toInboxMessage(
  row: Database['sandbox_messages'] & { from_address: string; subject: string },
): InboxMessage {
  return {
    id: row.id,
    emailId: row.email_id,
    address: row.address,
    message: row.message,
    authentication: JSON.parse(row.authentication),
    capturedAt: Number(row.captured_at),
    from: row.from_address,
    subject: row.subject,
  };
}
