/**
 * The store on Kysely: the same queries for SQLite and PostgreSQL. Only features both
 * speak are used (ON CONFLICT DO NOTHING, RETURNING, transactions).
 */
import type { Worker } from 'node:worker_threads';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { freshRecord, type LabelledKind, type StoredDomain, type StoredRecord } from '../domain/model.js';
import { type CacheChange, notifyChange } from './cache-notifications.js';
import { KEY_TURN_MS } from './dkim-key-store.js';
import { DomainCache } from './domain-cache.js';
import { loadDomains, selectDomains } from './domain-rows.js';
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
import type { ApiKeysTable, Database } from './tables.js';
import { executeUnanswered } from './threaded-sqlite-dialect.js';
import { appendDomainEvents } from './webhook-outbox.js';

/** Records of a fresh registration: three DKIM selectors then DMARC (spec order). */
const DKIM_RECORDS = 3;
/** The return path's record follows DMARC's. */
/** Where each record named `<label>.<domain>` sits among a domain's records. */
const LABELLED_POSITION: Record<LabelledKind, number> = { return_path: 4, tracking: 5 };

export interface CacheOptions {
  /** How long an API key lookup is reused: the longest a revocation takes to apply. */
  keyTtlMs: number;
  /** How long a domain's state is reused when another process may have changed it. */
  domainTtlMs: number;
}

export class KyselyStore implements Store {
  private readonly keys: ReadCache<ApiKeyRecord>;
  /** Shared with the other stores that write domains (verification), so they invalidate it. */
  readonly domainCache: DomainCache;

  constructor(
    readonly kind: 'sqlite' | 'postgres',
    /** The Kysely handle, for migrations and the stores that share this connection. */
    readonly db: Kysely<Database>,
    cache: CacheOptions = { keyTtlMs: 0, domainTtlMs: 0 },
    /** PostgreSQL's connection pool, for its in-use and waiting counts (metrics); absent on SQLite. */
    readonly pool?: {
      readonly totalCount: number;
      readonly idleCount: number;
      readonly waitingCount: number;
    },
    /** SQLite's writer thread, when writes run on one (`sqlite-writer.ts`). */
    readonly writerThread?: Worker,
  ) {
    this.keys = new ReadCache(cache.keyTtlMs);
    this.domainCache = new DomainCache(cache.domainTtlMs);
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
        domains: input.domains === undefined ? null : JSON.stringify(input.domains),
        created_at: now,
        revoked_at: null,
      };
      await trx.insertInto('api_keys').values(row).execute();
      return toApiKey(row);
    });
  }

  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.read(keyHash, async () => {
      const row = await this.db
        .selectFrom('api_keys')
        .selectAll()
        .where('key_hash', '=', keyHash)
        .executeTakeFirst();
      return row && toApiKey(row);
    });
  }

  cachedApiKeyByHash(keyHash: string): ApiKeyRecord | undefined {
    return this.keys.get(keyHash);
  }

  async listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    let query = this.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return (await query.execute()).map(toApiKey);
  }

  async revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('key_prefix', '=', idOrPrefix)]));
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      const rows = await query.execute();
      // A prefix shared by two keys is ambiguous: revoke nothing rather than the wrong key.
      if (rows.length !== 1) return undefined;
      const row = rows[0]!;
      const revokedAt = row.revoked_at ?? Date.now();
      await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', row.id).execute();
      await notifyChange(trx, this.kind, { apiKey: row.id });
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
    return this.domainCache.writing(accountId, names, () =>
      this.db.transaction().execute(async (trx) => {
        const existing = await loadDomains(trx, accountId, [...new Set(names)]);
        // The account's row is locked before any domain row is written, as a deletion does,
        // so the two take their locks in the same order and never deadlock.
        const registering = requests.some((r) => !existing.has(r.name));
        const locked = registering ? await this.lockDomainCount(trx, accountId) : { count: 0, keyTurnAt: 0 };
        let count = locked.count;
        let keyTurnAt = Math.max(options.now, locked.keyTurnAt);
        let added = 0;
        const created: StoredDomain[] = [];
        const outcomes: RegistrationOutcome[] = [];
        for (const request of requests) {
          let domain = existing.get(request.name);
          if (domain === undefined) {
            if (count >= options.maxDomains) {
              outcomes.push({ ok: false, reason: 'account_limit' });
              continue;
            }
            const insert = await insertDomain(trx, accountId, request, { ...options, keyTurnAt });
            domain = insert.domain;
            existing.set(domain.name, domain);
            if (insert.inserted) {
              count += 1;
              added += 1;
              keyTurnAt += KEY_TURN_MS;
              created.push(domain);
            }
          } else {
            if (domain.type !== request.type) {
              await trx
                .updateTable('domains')
                .set({ type: request.type, updated_at: options.now })
                .where('id', '=', domain.id)
                .execute();
              domain = { ...domain, type: request.type };
            }
            // A return path or tracking host asked for on a domain registered without one (or
            // with another label).
            if (request.returnPath !== undefined)
              domain = await setLabelledRecord(trx, domain, 'return_path', request.returnPath, options.now);
            if (request.tracking !== undefined)
              domain = await setLabelledRecord(trx, domain, 'tracking', request.tracking, options.now);
            existing.set(domain.name, domain);
          }
          outcomes.push({ ok: true, domain });
        }
        if (added > 0) {
          await changeDomainCount(trx, accountId, added, keyTurnAt);
          await appendDomainEvents(
            trx,
            accountId,
            () => created.map((d) => ({ type: 'domain.created', snapshot: { domain: d, previous: null } })),
            options.now,
          );
        }
        return outcomes;
      }),
    );
  }

  findDomains(accountId: string, names: string[]): Promise<Map<string, StoredDomain>> {
    return this.domainCache.read(accountId, names, (missing) => loadDomains(this.db, accountId, missing));
  }

  cachedDomain(accountId: string, name: string): StoredDomain | undefined {
    return this.domainCache.get(accountId, name);
  }

  async listDomains(accountId: string, options: { after?: string; limit: number }): Promise<ListPage> {
    // one more than the page, to know whether another follows
    const found = await selectDomains(this.db, (query) => {
      const theirs = query.where('domains.account_id', '=', accountId);
      const after = options.after === undefined ? theirs : theirs.where('domains.name', '>', options.after);
      return after.orderBy('domains.name').limit(options.limit + 1);
    });
    const domains = found.slice(0, options.limit);
    const next = found.length > options.limit ? domains[domains.length - 1]!.name : null;
    return { domains, next };
  }

  async deleteDomains(accountId: string, names: string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    return this.domainCache.writing(accountId, names, () =>
      this.db.transaction().execute(async (trx) => {
        await this.lockDomainCount(trx, accountId);
        const now = Date.now();
        // Before the rows go: the event carries the domain's last state. The account's row
        // is locked, so what is read here is what the statement below deletes.
        await appendDomainEvents(
          trx,
          accountId,
          async () =>
            [...(await loadDomains(trx, accountId, names)).values()].map((d) => ({
              type: 'domain.deleted' as const,
              snapshot: { domain: d, previous: null },
            })),
          now,
        );
        await recordKeyDeletions(trx, accountId, names, now);
        const rows = await trx
          .deleteFrom('domains')
          .where('account_id', '=', accountId)
          .where('name', 'in', names)
          .returning('name')
          .execute();
        if (rows.length > 0) {
          await changeDomainCount(trx, accountId, -rows.length);
          await notifyChange(trx, this.kind, { account: accountId, domains: rows.map((r) => r.name) });
        }
        return new Set(rows.map((r) => r.name));
      }),
    );
  }

  /**
   * The account's domain count, its row locked until the transaction ends on PostgreSQL, so
   * concurrent registrations from several processes cannot pass the limit together. SQLite
   * has one writer at a time already.
   */
  private async lockDomainCount(
    trx: Transaction<Database>,
    accountId: string,
  ): Promise<{ count: number; keyTurnAt: number }> {
    let query = trx
      .selectFrom('accounts')
      .select(['domain_count', 'key_turn_at'])
      .where('id', '=', accountId);
    if (this.kind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return { count: Number(row?.domain_count ?? 0), keyTurnAt: Number(row?.key_turn_at ?? 0) };
  }

  /** Drops the cached reads `change` made stale: `cache-listener.ts` hands it every process's. */
  forget(change: CacheChange): void {
    if ('apiKey' in change) this.keys.deleteWhere((key) => key.id === change.apiKey);
    else this.domainCache.forget(change.account, change.domains);
  }

  /** Drops every cached read, when changes may have gone unnoticed. */
  clearCaches(): void {
    this.keys.clear();
    this.domainCache.clear();
  }

  /** Both of SQLite's connections when writes run on a thread: a `PRAGMA` goes to the writer's. */
  async ping(): Promise<void> {
    await this.db.selectFrom('accounts').select('id').limit(1).execute();
    if (this.writerThread) await sql`pragma data_version`.execute(this.db);
  }

  async close(): Promise<void> {
    this.keys.clear();
    this.domainCache.clear();
    await this.db.destroy();
  }
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    keyPrefix: row.key_prefix,
    keyHash: row.key_hash,
    scopes: row.scopes.split(','),
    domains: row.domains === null ? null : JSON.parse(row.domains),
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/**
 * Tombstones for the DKIM tokens of the domains about to be deleted (their keys go by cascade),
 * so the zone of every process drops them; tombstones older than a day are cleared on the way.
 * Every token gets one, with a key or not: a key stored while the deletion runs goes too.
 */
async function recordKeyDeletions(
  trx: Transaction<Database>,
  accountId: string,
  names: string[],
  now: number,
): Promise<void> {
  await trx
    .deleteFrom('dkim_key_deletions')
    .where('deleted_at', '<', now - 86_400_000)
    .execute();
  await trx
    .insertInto('dkim_key_deletions')
    .columns(['token', 'deleted_at'])
    .expression((eb) =>
      eb
        .selectFrom('domain_records as r')
        .innerJoin('domains as d', 'd.id', 'r.domain_id')
        .select([sql<string>`r.token`.as('token'), eb.val(now).as('deleted_at')])
        .where('r.token', 'is not', null)
        .where('d.account_id', '=', accountId)
        .where('d.name', 'in', names),
    )
    .onConflict((oc) => oc.column('token').doNothing())
    .execute();
}

/** Changes the account's domain count by `by`; a registration also moves its key clock on. */
async function changeDomainCount(
  trx: Transaction<Database>,
  accountId: string,
  by: number,
  keyTurnAt?: number,
): Promise<void> {
  await executeUnanswered(
    trx,
    trx
      .updateTable('accounts')
      .set((eb) => ({
        domain_count: eb('domain_count', '+', by),
        ...(keyTurnAt !== undefined && { key_turn_at: keyTurnAt }),
      }))
      .where('id', '=', accountId),
  );
}

async function insertDomain(
  trx: Transaction<Database>,
  accountId: string,
  request: RegistrationRequest,
  options: { now: number; newToken: () => string; keyTurnAt: number },
): Promise<{ domain: StoredDomain; inserted: boolean }> {
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
      // Due at once: the scheduler checks a new registration right away.
      next_check_at: options.now,
    })
    // A concurrent transaction (PostgreSQL, several processes) may have registered the same
    // name for the same account a moment ago: keep theirs, so there is exactly one.
    .onConflict((oc) => oc.columns(['account_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted === undefined) {
    const theirs = await loadDomains(trx, accountId, [request.name]);
    return { domain: theirs.get(request.name)!, inserted: false };
  }
  const records: StoredRecord[] = [];
  for (let position = 0; position < DKIM_RECORDS; position++) {
    records.push(freshRecord('dkim', position, options.newToken()));
  }
  records.push(freshRecord('dmarc', DKIM_RECORDS, null));
  if (request.returnPath !== undefined)
    records.push(freshRecord('return_path', LABELLED_POSITION.return_path, null, request.returnPath));
  if (request.tracking !== undefined)
    records.push(freshRecord('tracking', LABELLED_POSITION.tracking, null, request.tracking));
  // The domain's rows travel with the transaction's next statement on SQLite's writer thread.
  await executeUnanswered(
    trx,
    trx.insertInto('domain_records').values(
      records.map((r) => ({
        domain_id: id,
        position: r.position,
        kind: r.kind,
        token: r.token,
        label: r.label ?? null,
        status: r.status,
      })),
    ),
  );
  // The key generator makes keys in turn order: the account's registrations oldest first, and
  // accounts taking turns (`KEY_TURN_MS`).
  await executeUnanswered(
    trx,
    trx
      .insertInto('dkim_key_queue')
      .values(
        records
          .filter((r) => r.kind === 'dkim' && r.token !== null)
          .map((r) => ({ token: r.token!, queued_at: options.now, turn_at: options.keyTurnAt })),
      ),
  );
  const domain: StoredDomain = {
    id,
    accountId,
    name: request.name,
    type: request.type,
    status: 'pending',
    createdAt: options.now,
    lastCheckedAt: null,
    nextCheckAt: options.now,
    checkCount: 0,
    zone: null,
    dnsProviders: [],
    domainConnect: null,
    dkimRotation: { rotatedAt: null, nextRotationAt: null, requestedAt: null },
    records,
  };
  return { domain, inserted: true };
}

/**
 * Gives a registered domain the return-path or tracking record `label` (a fresh, pending one),
 * unless it has that one already; a record with another label is replaced, since the name to
 * publish changed.
 */
async function setLabelledRecord(
  trx: Transaction<Database>,
  domain: StoredDomain,
  kind: LabelledKind,
  label: string,
  now: number,
): Promise<StoredDomain> {
  const current = domain.records.find((r) => r.kind === kind);
  if (current?.label === label) return domain;
  // checked at once, as a new registration is
  await trx
    .updateTable('domains')
    .set({ next_check_at: now, updated_at: now })
    .where('id', '=', domain.id)
    .execute();
  const record = freshRecord(kind, LABELLED_POSITION[kind], null, label);
  await trx
    .deleteFrom('domain_records')
    .where('domain_id', '=', domain.id)
    .where('kind', '=', kind)
    .execute();
  await trx
    .insertInto('domain_records')
    .values({
      domain_id: domain.id,
      position: record.position,
      kind: record.kind,
      token: null,
      label,
      status: record.status,
    })
    .execute();
  return {
    ...domain,
    nextCheckAt: now,
    records: [...domain.records.filter((r) => r.kind !== kind), record],
  };
}
