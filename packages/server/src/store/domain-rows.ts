/**
 * Reading registrations with their records: the row shapes of `domains` and
 * `domain_records` turned into `StoredDomain`s. Shared by the stores.
 */
import { type Kysely, PostgresAdapter, type Selectable, sql, type Transaction } from 'kysely';
import type { DomainType } from '../domain/domain-type.js';
import type {
  CheckReason,
  DomainConnectSetup,
  KeyState,
  RecordKind,
  StoredDomain,
  StoredRecord,
  VerificationStatus,
} from '../domain/model.js';
import { keyStatesFilled } from './key-state-backfill.js';
import type { Database, DomainRecordsTable, DomainsTable } from './tables.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** The account's registrations among `names`, keyed by name. */
export async function loadDomains(
  db: Db,
  accountId: string,
  names: string[],
): Promise<Map<string, StoredDomain>> {
  const found = new Map<string, StoredDomain>();
  if (names.length === 0) return found;
  const rows = await db
    .selectFrom('domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', 'in', names)
    .execute();
  for (const domain of await withRecords(db, rows)) found.set(domain.name, domain);
  return found;
}

/** Registrations by id (any account). */
export async function loadDomainsById(db: Db, ids: string[]): Promise<StoredDomain[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('domains').selectAll().where('id', 'in', ids).execute();
  return withRecords(db, rows);
}

/** Attach each domain row's records, in position order. */
export async function withRecords(db: Db, rows: Selectable<DomainsTable>[]): Promise<StoredDomain[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // key roles migration 0014 left to the background: filled for these domains first
  await keyStatesFilled(db, ids);
  // On PostgreSQL one array parameter: a list of 1,000 parameters (a claim's) cost more to
  // parse and plan than to run, 10–44 ms against 5–21 ms at a million domains.
  const recordRows = await db
    .selectFrom('domain_records')
    .selectAll()
    .where((eb) =>
      db.getExecutor().adapter instanceof PostgresAdapter
        ? eb('domain_id', '=', sql<string>`any(${ids}::text[])`)
        : eb('domain_id', 'in', ids),
    )
    .orderBy('domain_id')
    .orderBy('position')
    .execute();
  const byDomain = new Map<string, StoredRecord[]>();
  for (const row of recordRows) {
    let list = byDomain.get(row.domain_id);
    if (!list) {
      list = [];
      byDomain.set(row.domain_id, list);
    }
    list.push(toStoredRecord(row));
  }
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    type: row.type as DomainType,
    status: row.status as VerificationStatus,
    createdAt: Number(row.created_at),
    lastCheckedAt: nullableNumber(row.last_checked_at),
    nextCheckAt: Number(row.next_check_at),
    checkCount: Number(row.check_count),
    zone: row.zone,
    dnsProviders: row.dns_providers === null ? [] : row.dns_providers.split(','),
    domainConnect:
      row.domain_connect === null ? null : (JSON.parse(row.domain_connect) as DomainConnectSetup),
    dkimRotation: {
      rotatedAt: nullableNumber(row.dkim_rotated_at),
      nextRotationAt: nullableNumber(row.dkim_next_rotation_at),
      requestedAt: nullableNumber(row.dkim_rotation_requested_at),
    },
    records: byDomain.get(row.id) ?? [],
  }));
}

function toStoredRecord(row: Selectable<DomainRecordsTable>): StoredRecord {
  return {
    kind: row.kind as RecordKind,
    position: Number(row.position),
    token: row.token,
    label: row.label,
    status: row.status as VerificationStatus,
    reason: row.reason as CheckReason | null,
    found: row.found,
    detail: row.detail,
    checkedAt: nullableNumber(row.checked_at),
    missingSince: nullableNumber(row.missing_since),
    errorSince: nullableNumber(row.error_since),
    verifiedAt: nullableNumber(row.verified_at),
    key:
      row.key_state === null || row.key_created_at === null
        ? null
        : {
            state: row.key_state as KeyState,
            since: nullableNumber(row.key_state_since),
            createdAt: Number(row.key_created_at),
          },
  };
}

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));
