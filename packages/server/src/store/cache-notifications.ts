/**
 * The changes one process tells every other about on PostgreSQL (issue 19), so that their read
 * caches (`ReadCache`, `DomainCache`) drop what became stale at once instead of after their TTL:
 * a revoked API key, deleted domains. Sent with `pg_notify` inside the transaction that makes
 * the change, so PostgreSQL delivers it when, and only if, the transaction commits; received by
 * `cache-listener.ts`.
 *
 * What needs no notification: a new API key, a new registration (a miss is never cached, so
 * the next read finds them), and verification results (the domain TTL bounds those, as before).
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from './tables.js';

/** The PostgreSQL channel every server process listens on. */
export const CACHE_CHANNEL = 'service_cache';

/**
 * A notification's payload, as JSON: `{"apiKey": "key_…"}` (revoked, by id: key hashes stay in
 * the database) or `{"account": "acc_…", "domains": ["mail.example.com", …]}` (deleted).
 */
export type CacheChange = { apiKey: string } | { account: string; domains: string[] };

/** PostgreSQL refuses a payload of 8000 bytes or more; domain names are ASCII (punycode). */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * Queues the notifications of `change` in `trx`, to be delivered on commit. Nothing on SQLite,
 * which has no NOTIFY: one server process, whose own writes drop its entries; what the CLI
 * changes there shows after the TTLs, as before.
 */
export async function notifyChange(
  trx: Transaction<Database>,
  kind: 'sqlite' | 'postgres',
  change: CacheChange,
): Promise<void> {
  if (kind !== 'postgres') return;
  for (const payload of notificationPayloads(change)) {
    await sql`select pg_notify(${CACHE_CHANNEL}, ${payload})`.execute(trx);
  }
}

/**
 * The change a payload describes, or `undefined` for one this version does not understand
 * (a newer process during a rolling deploy): the listener then drops everything it caches.
 */
export function parseCacheChange(payload: string): CacheChange | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const change = value as Record<string, unknown>;
  if (typeof change.apiKey === 'string') return { apiKey: change.apiKey };
  const { account, domains } = change;
  if (typeof account === 'string' && Array.isArray(domains) && domains.every((d) => typeof d === 'string')) {
    return { account, domains };
  }
  return undefined;
}

/** The payloads that announce `change`: one, or for many deleted domains several, each under PostgreSQL's limit. */
export function notificationPayloads(change: CacheChange): string[] {
  if ('apiKey' in change) return [JSON.stringify(change)];
  const empty = JSON.stringify({ account: change.account, domains: [] }).length;
  const out: string[] = [];
  let names: string[] = [];
  let length = empty;
  for (const name of change.domains) {
    const size = JSON.stringify(name).length;
    if (names.length > 0 && length + 1 + size > MAX_PAYLOAD_BYTES) {
      out.push(JSON.stringify({ account: change.account, domains: names }));
      names = [];
      length = empty;
    }
    length += (names.length > 0 ? 1 : 0) + size;
    names.push(name);
  }
  if (names.length > 0) out.push(JSON.stringify({ account: change.account, domains: names }));
  return out;
}
