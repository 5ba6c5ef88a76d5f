/**
 * The store on Kysely: the same queries for SQLite and PostgreSQL. Only features both
 * speak are used (ON CONFLICT DO NOTHING, RETURNING, transactions).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DomainType } from '../domain/domain-type.js';
import type { RecordKind, StoredDomain, StoredRecord, VerificationStatus } from '../domain/model.js';
import { newId } from './ids.js';
import { ReadCache } from './read-cache.js';
import type {
  Account,
  ApiKeyRecord,
  ListPage,
  NewApiKey,
  RegistrationOutcome,
  RegistrationRequest,
  Store,
} from './store.js';
import type { ApiKeysTable, Database, DomainsTable } from './tables.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Records of a fresh registration: three DKIM selectors then DMARC (spec order). */
const DKIM_RECORDS = 3;

export interface CacheOptions {
  /** How long an API key lookup is reused: the longest a revocation takes to apply. */
  keyTtlMs: number;
  /** How long a domain's state is reused when another process may have changed it. */
  domainTtlMs: number;
}

export class KyselyStore implements Store {
  private readonly keys: ReadCache<ApiKeyRecord>;
  private readonly domains: ReadCache<StoredDomain>;
  /**
   * Counts domain writes begun or finished. A read caches what it found only if no write
   * began or ended while it ran, so a read racing a commit never caches the old state.
   */
  private domainWrites = 0;

  constructor(
    readonly kind: 'sqlite' | 'postgres',
    /** The Kysely handle, for migrations and the jobs that share this connection. */
    readonly db: Kysely<Database>,
    cache: CacheOptions = { keyTtlMs: 0, domainTtlMs: 0 },
  ) {
    this.keys = new ReadCache(cache.keyTtlMs);
    this.domains = new ReadCache(cache.domainTtlMs);
  }

  async createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    const now = Date.now();
    return this.db.transaction().execute(async (trx) => {
      let accountId = input.accountId;
      if (accountId === undefined) {
        accountId = newId('acc');
        await trx
          .insertInto('accounts')
          .values({ id: accountId, name: input.name, created_at: now })
          .execute();
      }
      const row = {
        id: newId('key'),
        account_id: accountId,
        name: input.name,
        key_hash: input.keyHash,
        key_prefix: input.keyPrefix,
        scopes: input.scopes.join(','),
        created_at: now,
        revoked_at: null,
      };
      await trx.insertInto('api_keys').values(row).execute();
      return toApiKey(row);
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const cached = this.keys.get(keyHash);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const key = toApiKey(row);
    this.keys.set(keyHash, key);
    return key;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  async revokeApiKey(idOrPrefix: string): Promise<ApiKeyRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('key_prefix', '=', idOrPrefix)]))
        .execute();
      // A prefix shared by two keys is ambiguous: revoke nothing rather than the wrong key.
      if (rows.length !== 1) return undefined;
      const row = rows[0]!;
      const revokedAt = row.revoked_at ?? Date.now();
      await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
      this.keys.delete(row.key_hash);
      return toApiKey({ ...row, revoked_at: revokedAt });
    });
  }

  async findAccount(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { id: row.id, name: row.name, createdAt: Number(row.created_at) };
  }

  async registerDomains(
    accountId: string,
    requests: RegistrationRequest[],
    options: { maxDomains: number; now: number; newToken: () => string },
  ): Promise<RegistrationOutcome[]> {
    const names = requests.map((r) => r.name);
    return this.writingDomains(accountId, names, () =>
      this.db.transaction().execute(async (trx) => {
        const existing = await loadDomains(trx, accountId, [...new Set(names)]);
        let count: number | undefined;
        const outcomes: RegistrationOutcome[] = [];
        for (const request of requests) {
          let domain = existing.get(request.name);
          if (domain === undefined) {
            count ??= await countDomains(trx, accountId);
            if (count >= options.maxDomains) {
              outcomes.push({ ok: false, reason: 'account_limit' });
              continue;
            }
            domain = await insertDomain(trx, accountId, request, options);
            existing.set(domain.name, domain);
            count += 1;
          } else if (domain.type !== request.type) {
            await trx
              .updateTable('domains')
              .set({ type: request.type, updated_at: options.now })
              .where('id', '=', domain.id)
              .execute();
            domain = { ...domain, type: request.type };
            existing.set(domain.name, domain);
          }
          outcomes.push({ ok: true, domain });
        }
        return outcomes;
      }),
    );
  }

  async findDomains(accountId: string, names: string[]): Promise<Map<string, StoredDomain>> {
    const found = new Map<string, StoredDomain>();
    const missing: string[] = [];
    for (const name of names) {
      const cached = this.domains.get(domainKey(accountId, name));
      if (cached === undefined) missing.push(name);
      else found.set(name, cached);
    }
    if (missing.length === 0) return found;
    const writesBefore = this.domainWrites;
    const loaded = await loadDomains(this.db, accountId, missing);
    const cacheable = writesBefore === this.domainWrites;
    for (const [name, domain] of loaded) {
      if (cacheable) this.domains.set(domainKey(accountId, name), domain);
      found.set(name, domain);
    }
    return found;
  }

  /**
   * Run a write that changes these domains, dropping their cached state before it starts
   * and after it ends (see `domainWrites`).
   */
  protected async writingDomains<T>(
    accountId: string,
    names: readonly string[],
    write: () => Promise<T>,
  ): Promise<T> {
    const forget = () => {
      this.domainWrites += 1;
      for (const name of names) this.domains.delete(domainKey(accountId, name));
    };
    forget();
    try {
      return await write();
    } finally {
      forget();
    }
  }

  async listDomains(accountId: string, options: { after?: string; limit: number }): Promise<ListPage> {
    let query = this.db.selectFrom('domains').selectAll().where('account_id', '=', accountId);
    if (options.after !== undefined) query = query.where('name', '>', options.after);
    const rows = await query
      .orderBy('name')
      .limit(options.limit + 1)
      .execute();
    const page = rows.slice(0, options.limit);
    const domains = await withRecords(this.db, page);
    const next = rows.length > options.limit ? page[page.length - 1]!.name : null;
    return { domains, next };
  }

  async deleteDomains(accountId: string, names: string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    return this.writingDomains(accountId, names, async () => {
      const rows = await this.db
        .deleteFrom('domains')
        .where('account_id', '=', accountId)
        .where('name', 'in', names)
        .returning('name')
        .execute();
      return new Set(rows.map((r) => r.name));
    });
  }

  async ping(): Promise<void> {
    await this.db.selectFrom('accounts').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    this.keys.clear();
    this.domains.clear();
    await this.db.destroy();
  }
}

const domainKey = (accountId: string, name: string) => `${accountId}\u0000${name}`;

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    keyHash: row.key_hash,
    scopes: row.scopes.split(','),
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

async function countDomains(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function insertDomain(
  trx: Transaction<Database>,
  accountId: string,
  request: RegistrationRequest,
  options: { now: number; newToken: () => string },
): Promise<StoredDomain> {
  const id = newId('dom');
  const inserted = await trx
    .insertInto('domains')
    .values({
      id,
      account_id: accountId,
      name: request.name,
      type: request.type,
      status: 'pending',
      created_at: options.now,
      updated_at: options.now,
    })
    // A concurrent transaction (PostgreSQL, several processes) may have registered the same
    // name for the same account a moment ago: keep theirs, so there is exactly one.
    .onConflict((oc) => oc.columns(['account_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted === undefined) {
    const theirs = await loadDomains(trx, accountId, [request.name]);
    return theirs.get(request.name)!;
  }
  const records: StoredRecord[] = [];
  for (let position = 0; position < DKIM_RECORDS; position++) {
    records.push({ kind: 'dkim', position, token: options.newToken(), status: 'pending' });
  }
  records.push({ kind: 'dmarc', position: DKIM_RECORDS, token: null, status: 'pending' });
  await trx
    .insertInto('domain_records')
    .values(
      records.map((r) => ({
        domain_id: id,
        position: r.position,
        kind: r.kind,
        token: r.token,
        status: r.status,
      })),
    )
    .execute();
  return {
    id,
    accountId,
    name: request.name,
    type: request.type,
    status: 'pending',
    createdAt: options.now,
    records,
  };
}

async function loadDomains(db: Db, accountId: string, names: string[]): Promise<Map<string, StoredDomain>> {
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

async function withRecords(db: Db, rows: Selectable<DomainsTable>[]): Promise<StoredDomain[]> {
  if (rows.length === 0) return [];
  const recordRows = await db
    .selectFrom('domain_records')
    .selectAll()
    .where(
      'domain_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('domain_id')
    .orderBy('position')
    .execute();
  const byDomain = new Map<string, StoredRecord[]>();
  for (const r of recordRows) {
    let list = byDomain.get(r.domain_id);
    if (!list) {
      list = [];
      byDomain.set(r.domain_id, list);
    }
    list.push({
      kind: r.kind as RecordKind,
      position: Number(r.position),
      token: r.token,
      status: r.status as VerificationStatus,
    });
  }
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    type: row.type as DomainType,
    status: row.status as VerificationStatus,
    createdAt: Number(row.created_at),
    records: byDomain.get(row.id) ?? [],
  }));
}
