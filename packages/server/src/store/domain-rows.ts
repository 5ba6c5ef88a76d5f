/**
 * Reading registrations with their records: the row shapes of `domains` and
 * `domain_records` turned into `StoredDomain`s. Shared by the stores.
 */
import {
  type CompiledQuery,
  createQueryId,
  type Kysely,
  PostgresAdapter,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  sql,
  type Transaction,
} from 'kysely';
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
import { keyStatesAllFilled, keyStatesFilled } from './key-state-backfill.js';
import { prepared } from './prepared-statements.js';
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
  const narrow = <O>(query: SelectQueryBuilder<Database, 'domains', O>) =>
    among(db, query.where('domains.account_id', '=', accountId), 'domains.name', names);
  const domains = await selectDomains(db, narrow, lookupStatement(db, accountId, names));
  for (const domain of domains) found.set(domain.name, domain);
  return found;
}

/**
 * The lookup's statement on PostgreSQL ({@link selectDomains} with `loadDomains`' filter),
 * built and compiled once per database handle, then given each call's two arguments: its text
 * never changes (the names are one array parameter), and building it (Kysely's query tree, then
 * its SQL) took 35–45 µs of the 0.65–1.2 ms of server CPU a status poll that misses the cache
 * costs (1,000,000 domains, 500 polls a second), and left its garbage. The same text object each
 * time also spares `prepared()` hashing 1.5 KB of SQL a poll (V8 keeps a string's hash). Undefined
 * on SQLite, whose list is one parameter a name.
 */
function lookupStatement(db: Db, accountId: string, names: string[]): CompiledQuery | undefined {
  // (a transaction is a handle of its own, used for a few statements)
  if (!isPostgres(db) || db.isTransaction) return undefined;
  let template = lookups.get(db);
  if (template === undefined) {
    // compiled with stand-ins, kept only if they are exactly its parameters, in this order
    const account = 'account';
    const list = ['name'];
    const compiled = domainsWithRecords(db, (query) =>
      among(db, query.where('domains.account_id', '=', account), 'domains.name', list),
    ).compile();
    const [first, second, ...more] = compiled.parameters;
    template = first === account && second === list && more.length === 0 ? compiled : null;
    lookups.set(db, template);
  }
  return template === null
    ? undefined
    : { ...template, queryId: createQueryId(), parameters: [accountId, names] };
}

const lookups = new WeakMap<Db, CompiledQuery | null>();

/** Registrations by id (any account). */
export async function loadDomainsById(db: Db, ids: string[]): Promise<StoredDomain[]> {
  if (ids.length === 0) return [];
  return selectDomains(db, (query) => among(db, query, 'domains.id', ids));
}

/**
 * `query` narrowed to rows whose `column` is among `values`: on PostgreSQL one array parameter,
 * so the statement's text is the same for any number of them (and it can be prepared once).
 */
function among<O>(
  db: Db,
  query: SelectQueryBuilder<Database, 'domains', O>,
  column: 'domains.id' | 'domains.name',
  values: readonly string[],
): SelectQueryBuilder<Database, 'domains', O> {
  return isPostgres(db)
    ? query.where(column, '=', sql<string>`any(${values}::text[])`)
    : query.where(column, 'in', values);
}

/**
 * The registrations `narrow` picks from `domains` (a filter, an order, a limit), each with its
 * records, in one statement: a status poll the cache misses waits for one round trip to the
 * database instead of two. On PostgreSQL it is a named statement, without which it would cost
 * the database more than the two it replaces (figures in `prepared-statements.ts`). Until
 * migration 0014's backfill is done the records are read after the domains, whose key roles are
 * filled first ({@link withRecords}). `compiled`: the statement already compiled for `narrow`.
 */
export async function selectDomains(
  db: Db,
  narrow: Narrow,
  compiled?: CompiledQuery,
): Promise<StoredDomain[]> {
  if (!(await keyStatesAllFilled(db)))
    return withRecords(db, await narrow(db.selectFrom('domains').selectAll()).execute());
  // a named statement on PostgreSQL: parsed once per connection, not on every poll
  const { rows } = await db.executeQuery<DomainWithRecordsRow>(
    prepared(compiled ?? domainsWithRecords(db, narrow).compile()),
  );
  return rows.map(({ records_json, ...row }) => toStoredDomain(row, recordsFromJson(records_json)));
}

/** A filter, order or limit on `domains` (see {@link selectDomains}). */
type Narrow = <O>(
  query: SelectQueryBuilder<Database, 'domains', O>,
) => SelectQueryBuilder<Database, 'domains', O>;

/** The rows `narrow` picks, each with its records as one JSON value. */
const domainsWithRecords = (db: Db, narrow: Narrow) =>
  narrow(db.selectFrom('domains').select(DOMAIN_COLUMNS).select(recordsJson(db).as('records_json')));

type DomainWithRecordsRow = DomainRow & { records_json: RecordRow[] | string };

/** The columns of a domain {@link toStoredDomain} reads, named (see `prepared-statements.ts` for why not `*`). */
const DOMAIN_COLUMNS = [
  'id',
  'account_id',
  'name',
  'type',
  'status',
  'created_at',
  'last_checked_at',
  'next_check_at',
  'check_count',
  'zone',
  'dns_providers',
  'domain_connect',
  'dkim_rotated_at',
  'dkim_next_rotation_at',
  'dkim_rotation_requested_at',
] as const satisfies readonly (keyof DomainsTable)[];

type DomainRow = Pick<Selectable<DomainsTable>, (typeof DOMAIN_COLUMNS)[number]>;

/** The columns of a record {@link toStoredRecord} reads: what {@link recordsJson} puts in each object. */
const RECORD_COLUMNS = [
  'position',
  'kind',
  'token',
  'label',
  'status',
  'reason',
  'found',
  'detail',
  'checked_at',
  'missing_since',
  'error_since',
  'verified_at',
  'key_state',
  'key_state_since',
  'key_created_at',
] as const satisfies readonly (keyof DomainRecordsTable)[];

type RecordRow = Pick<Selectable<DomainRecordsTable>, (typeof RECORD_COLUMNS)[number]>;

/**
 * The records of the row's domain as one JSON array of objects keyed by column: PostgreSQL's
 * `json` comes back parsed, SQLite's as text. int8 columns come as JSON numbers, exact below
 * 2^53 as epoch milliseconds are.
 */
function recordsJson(db: Db): RawBuilder<RecordRow[] | string> {
  const fields = sql.join(RECORD_COLUMNS.map((column) => sql`${sql.lit(column)}, ${sql.ref(`r.${column}`)}`));
  return isPostgres(db)
    ? sql<
        RecordRow[]
      >`coalesce((select json_agg(json_build_object(${fields})) from domain_records r where r.domain_id = domains.id), '[]'::json)`
    : sql<string>`(select json_group_array(json_object(${fields})) from domain_records r where r.domain_id = domains.id)`;
}

/** {@link recordsJson}'s array as stored records, in position order (neither aggregate promises one). */
function recordsFromJson(json: RecordRow[] | string): StoredRecord[] {
  const rows: RecordRow[] = typeof json === 'string' ? JSON.parse(json) : json;
  return rows.map(toStoredRecord).sort((a, b) => a.position - b.position);
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

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
      isPostgres(db) ? eb('domain_id', '=', sql<string>`any(${ids}::text[])`) : eb('domain_id', 'in', ids),
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
  return rows.map((row) => toStoredDomain(row, byDomain.get(row.id) ?? []));
}

function toStoredDomain(row: DomainRow, records: StoredRecord[]): StoredDomain {
  return {
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
    records,
  };
}

function toStoredRecord(row: RecordRow): StoredRecord {
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
