/**
 * The queues' depths, read from the database at scrape time (issue 39): the verification
 * schedule, webhook deliveries, the sending queue and DKIM key generation. Every query walks an
 * index that holds only (or starts with) the rows it counts, so its cost follows the backlog,
 * not the table: at a million domains with nothing due, the due count reads no row. Counts stop
 * at {@link BACKLOG_CAP} rows, so that a scrape during a huge backlog stays a few milliseconds;
 * a gauge at the cap means "at least".
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/tables.js';

/** The most rows a backlog count reads. */
export const BACKLOG_CAP = 100_000;

export interface Backlog {
  verificationDue: number;
  /** Seconds since the most overdue check fell due; 0 when none is due. */
  verificationOldestDueSeconds: number;
  webhookPending: number;
  /** Seconds since the most overdue pending delivery fell due; 0 when none is due. */
  webhookOldestDueSeconds: number;
  /** Recipients in the sending queue by their status (`queued`, `deferred`, …), and `in_flight`. */
  emailQueue: Map<string, number>;
  emailOldestDueSeconds: number;
  dkimKeysQueued: number;
  dkimKeysOldestSeconds: number;
}

const age = (now: number, at: number | null | undefined) =>
  at === null || at === undefined || at > now ? 0 : (now - at) / 1000;

/** Read every backlog in one round of queries (run together on PostgreSQL's pool). */
export async function readBacklog(db: Kysely<Database>, now: number): Promise<Backlog> {
  const [verification, verificationOldest, webhooks, webhookOldest, emails, emailOldest, keys, keyOldest] =
    await Promise.all([
      // `domains_next_check` (next_check_at): a range of the index
      sql<{
        n: number;
      }>`select count(*) as n from (select 1 from domains where next_check_at <= ${now} limit ${BACKLOG_CAP}) as due`.execute(
        db,
      ),
      sql<{ at: number | null }>`select min(next_check_at) as at from domains`.execute(db),
      // `webhook_deliveries_due`: partial, open deliveries only, by next_attempt_at
      sql<{
        n: number;
      }>`select count(*) as n from (select 1 from webhook_deliveries where delivered_at is null and failed_at is null limit ${BACKLOG_CAP}) as pending`.execute(
        db,
      ),
      sql<{
        at: number | null;
      }>`select min(next_attempt_at) as at from webhook_deliveries where delivered_at is null and failed_at is null`.execute(
        db,
      ),
      // `email_recipients_due`: partial, rows still to attempt only
      sql<{
        status: string;
        claimed: number;
        n: number;
      }>`select status, case when claimed_until > ${now} then 1 else 0 end as claimed, count(*) as n from (select status, claimed_until from email_recipients where next_attempt_at is not null limit ${BACKLOG_CAP}) as queue group by status, claimed`.execute(
        db,
      ),
      sql<{
        at: number | null;
      }>`select min(next_attempt_at) as at from email_recipients where next_attempt_at is not null`.execute(
        db,
      ),
      sql<{
        n: number;
      }>`select count(*) as n from (select 1 from dkim_key_queue limit ${BACKLOG_CAP}) as queued`.execute(db),
      // the head of the queue by `dkim_key_queue_turn` (turn_at, token): the key made next
      sql<{
        at: number | null;
      }>`select queued_at as at from dkim_key_queue order by turn_at, token limit 1`.execute(db),
    ]);
  const emailQueue = new Map<string, number>();
  for (const row of emails.rows) {
    const state = Number(row.claimed) === 1 ? 'in_flight' : row.status;
    emailQueue.set(state, (emailQueue.get(state) ?? 0) + Number(row.n));
  }
  return {
    verificationDue: Number(verification.rows[0]?.n ?? 0),
    verificationOldestDueSeconds: age(now, verificationOldest.rows[0]?.at),
    webhookPending: Number(webhooks.rows[0]?.n ?? 0),
    webhookOldestDueSeconds: age(now, webhookOldest.rows[0]?.at),
    emailQueue,
    emailOldestDueSeconds: age(now, emailOldest.rows[0]?.at),
    dkimKeysQueued: Number(keys.rows[0]?.n ?? 0),
    dkimKeysOldestSeconds: age(now, keyOldest.rows[0]?.at),
  };
}
