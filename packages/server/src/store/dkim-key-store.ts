/**
 * SQL for hosted DKIM keys (issue 4), on the shared Kysely handle (`KyselyStore.db`), in the
 * dialect-neutral subset SQLite and PostgreSQL share.
 */
import { type Kysely, sql } from 'kysely';
import type { KeyState, VerificationStatus } from '../domain/model.js';
import { keyStatesFilled } from './key-state-backfill.js';
import type { Database } from './tables.js';

/** Tokens per query of {@link DkimKeyStore.publishedKeys} (SQLite allows 32,766 parameters). */
const PUBLISHED_KEYS_PER_QUERY = 1000;

/** A key as stored: public half in clear, private half sealed. */
export interface StoredDkimKey {
  token: string;
  publicKey: string;
  privateKeyEnc: string;
  createdAt: number;
  revokedAt: number | null;
}

/** What the provider zone publishes for one token; `publicKey` is `null` once revoked. */
export interface PublishedKey {
  token: string;
  publicKey: string | null;
}

/** See {@link DkimKeyStore.changesSince}. */
export interface KeyChanges {
  keys: KeyVersion[];
  deleted: string[];
  /** The deletions with their times (the tombstones). */
  deletions: { token: string; deletedAt: number }[];
  latest: number;
}

/**
 * Which version of a token's key a change left, without its text: what was stored or revoked
 * when. Two changes of one key never leave the same version, even in the same millisecond (a
 * revocation sets `revoked_at`, a new key `created_at` and clears it).
 */
export interface KeyVersion {
  token: string;
  version: string;
  changedAt: number;
}

/** One DKIM selector of a registration, with its key when generated. */
export interface DomainSelector {
  token: string;
  position: number;
  status: VerificationStatus;
  /** Since when the customer's CNAME has been definitively missing (a verified record in grace), or `null`. */
  missingSince: number | null;
  /** Its role in rotation; `null` before its key exists. */
  keyState: KeyState | null;
  key: StoredDkimKey | undefined;
}

/** A registration as signing needs it. */
export interface SigningDomain {
  domainId: string;
  accountId: string;
  name: string;
  status: VerificationStatus;
  /** DKIM selectors by position (0, 1, 2). */
  selectors: DomainSelector[];
}

/**
 * How far one registration moves its account's key clock (`accounts.key_turn_at`): each
 * account's registrations take turns a second apart, the others' registrations fall between
 * them. Three RSA-2048 keys take 0.3–0.9 s of one core, so the generator keeps ahead of any
 * one account's clock: a burst's turns run ahead into the future, and another account's new
 * registration (its turn now) comes before all but the burst's first few. An account alone
 * loses nothing: the order only decides who is next, never makes anyone wait on an idle
 * generator.
 */
export const KEY_TURN_MS = 1_000;

export class DkimKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * DKIM tokens that have no key yet, in turn order (issue 33, {@link KEY_TURN_MS}): one short
   * index range, however long the queue. Oldest first made every other account's first keys
   * wait behind one account's burst, 900 keys for 300 registrations.
   */
  async tokensWithoutKeys(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('dkim_key_queue')
      .select('token')
      .orderBy('turn_at')
      .orderBy('token')
      .limit(limit)
      .execute();
    return rows.map((r) => r.token);
  }

  /**
   * Store a new key and take its token off the key queue, together. Returns `false` when the
   * token already has one (another process won the race) or no longer exists (its domain was
   * deleted while the key was being generated).
   */
  async insertKey(key: Omit<StoredDkimKey, 'revokedAt'>): Promise<boolean> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // The domain row first, as every write that spans a domain and its records (a check,
        // a deletion) takes them, so none of them can deadlock on PostgreSQL. It also wakes
        // rotation (issue 23), which plans the domain now that a key exists.
        await trx
          .updateTable('domains')
          .set({ dkim_rotate_at: key.createdAt })
          .where(
            'id',
            '=',
            trx.selectFrom('domain_records').select('domain_id').where('token', '=', key.token),
          )
          .execute();
        const result = await trx
          .insertInto('dkim_keys')
          .values({
            token: key.token,
            public_key: key.publicKey,
            private_key_enc: key.privateKeyEnc,
            created_at: key.createdAt,
            revoked_at: null,
            changed_at: key.createdAt,
          })
          .onConflict((oc) => oc.column('token').doNothing())
          .executeTakeFirst();
        await trx.deleteFrom('dkim_key_queue').where('token', '=', key.token).execute();
        const inserted = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
        if (inserted) {
          // The first selector signs; the others wait as next keys, until the rotation worker
          // has seen them served everywhere.
          await trx
            .updateTable('domain_records')
            .set({
              key_state: sql`case when position = 0 then 'active' else 'next' end`,
              key_state_since: sql`case when position = 0 then cast(${key.createdAt} as bigint) else null end`,
              key_created_at: key.createdAt,
            })
            .where('token', '=', key.token)
            .execute();
        }
        return inserted;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /** The key of `token`, revoked or not. */
  async findKey(token: string): Promise<StoredDkimKey | undefined> {
    const row = await this.db
      .selectFrom('dkim_keys')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirst();
    return row && toKey(row);
  }

  /** Revoke the key of `token`; `false` if it has no key. Revoking twice keeps the first time. */
  async revoke(token: string, now: number): Promise<boolean> {
    const key = await this.findKey(token);
    if (key === undefined) return false;
    if (key.revokedAt === null) {
      await this.db
        .updateTable('dkim_keys')
        .set({ revoked_at: now, changed_at: now })
        .where('token', '=', token)
        .where('revoked_at', 'is', null)
        .execute();
      // Rotation looks at the domain now: a revoked active key hands signing to the next one.
      await this.db
        .updateTable('domains')
        .set({ dkim_rotate_at: now })
        .where('id', '=', this.db.selectFrom('domain_records').select('domain_id').where('token', '=', token))
        .execute();
    }
    return true;
  }

  /** The keys the zone publishes, by token, `limit` at a time after `after` (a full load, page by page). */
  async publishedPage(after: string, limit: number): Promise<PublishedKey[]> {
    const rows = await this.db
      .selectFrom('dkim_keys')
      .select(['token', 'public_key', 'revoked_at'])
      .where('token', '>', after)
      .orderBy('token')
      .limit(limit)
      .execute();
    return rows.map(toPublished);
  }

  /**
   * What changed in the published keys after `since` (ms, by the clock of the process that made
   * the change): the versions of keys stored or revoked (their text is read by
   * {@link publishedKeys}, for the versions not seen yet), and tokens whose key went with its
   * domain. `latest` is the newest change seen, or `since`.
   */
  async changesSince(since: number): Promise<KeyChanges> {
    const [changed, deleted] = await Promise.all([
      this.db
        .selectFrom('dkim_keys')
        .select(['token', 'created_at', 'revoked_at', 'changed_at'])
        .where('changed_at', '>', since)
        .execute(),
      this.db
        .selectFrom('dkim_key_deletions')
        .select(['token', 'deleted_at'])
        .where('deleted_at', '>', since)
        .execute(),
    ]);
    let latest = since;
    for (const row of changed) latest = Math.max(latest, Number(row.changed_at));
    for (const row of deleted) latest = Math.max(latest, Number(row.deleted_at));
    return {
      keys: changed.map((row) => ({
        token: row.token,
        version: `${row.changed_at}/${row.created_at}/${row.revoked_at ?? ''}`,
        changedAt: Number(row.changed_at),
      })),
      deleted: deleted.map((r) => r.token),
      deletions: deleted.map((r) => ({ token: r.token, deletedAt: Number(r.deleted_at) })),
      latest,
    };
  }

  /**
   * When the newest change to the published keys was made (ms; 0 when none): where the zone
   * publisher starts following the feed. Two index probes (`changed_at`, `deleted_at`).
   */
  async latestChange(): Promise<number> {
    const [keys, deletions] = await Promise.all([
      this.db
        .selectFrom('dkim_keys')
        .select('changed_at')
        .orderBy('changed_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
      this.db
        .selectFrom('dkim_key_deletions')
        .select('deleted_at')
        .orderBy('deleted_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ]);
    return Math.max(Number(keys?.changed_at ?? 0), Number(deletions?.deleted_at ?? 0));
  }

  /** What the zone publishes for these tokens now (tokens without a key are left out). */
  async publishedKeys(tokens: string[]): Promise<PublishedKey[]> {
    const keys: PublishedKey[] = [];
    for (let i = 0; i < tokens.length; i += PUBLISHED_KEYS_PER_QUERY) {
      const rows = await this.db
        .selectFrom('dkim_keys')
        .select(['token', 'public_key', 'revoked_at'])
        .where('token', 'in', tokens.slice(i, i + PUBLISHED_KEYS_PER_QUERY))
        .execute();
      keys.push(...rows.map(toPublished));
    }
    return keys;
  }

  /** The zone's serial and content digest, if it was ever published. */
  async zoneState(zone: string): Promise<{ serial: number; digest: string } | undefined> {
    const row = await this.db
      .selectFrom('dkim_zone')
      .select(['serial', 'digest'])
      .where('zone', '=', zone)
      .executeTakeFirst();
    return row && { serial: Number(row.serial), digest: row.digest };
  }

  /**
   * The serial for content `digest`: unchanged when the stored digest matches, otherwise raised
   * (RFC 1982 arithmetic is the caller's; we store a counter that starts at the Unix time, so a
   * recreated database still starts above what secondaries hold). Compare-and-set on the old
   * digest, so concurrent processes raise it once per change.
   */
  async serialFor(zone: string, digest: string, now: number): Promise<number> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const state = await this.zoneState(zone);
      if (state === undefined) {
        await this.db
          .insertInto('dkim_zone')
          .values({ zone, serial: Math.floor(now / 1000), digest, updated_at: now })
          .onConflict((oc) => oc.column('zone').doNothing())
          .execute();
        continue;
      }
      if (state.digest === digest) return state.serial;
      const result = await this.db
        .updateTable('dkim_zone')
        .set({ serial: Math.max(state.serial + 1, Math.floor(now / 1000)), digest, updated_at: now })
        .where('zone', '=', zone)
        .where('digest', '=', state.digest)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return Math.max(state.serial + 1, Math.floor(now / 1000));
    }
    throw new Error(`the serial of zone ${zone} keeps changing under us`);
  }

  /**
   * The registrations named `name` (of `accountId` when given) with their DKIM selectors and
   * keys. Two accounts may register the same name, so there can be several.
   */
  async signingDomains(name: string, accountId?: string): Promise<SigningDomain[]> {
    // With an account, the (account_id, name) unique index; without (the CLI's `dkim sign`
    // with no `--account`), `domains_name` (migration 0025): one index probe either way. This
    // read every account's id first and probed each (issue 39), at ten million domains too.
    let query = this.db
      .selectFrom('domains')
      .select(['id', 'account_id', 'name', 'status'])
      .where('name', '=', name);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const domains = await query.orderBy('id').execute();
    if (domains.length === 0) return [];
    const rows = await dkimSelectorRows(
      this.db,
      domains.map((d) => d.id),
    );
    return domains.map((d) => ({
      domainId: d.id,
      accountId: d.account_id,
      name: d.name,
      status: d.status as VerificationStatus,
      selectors: rows
        .filter((r) => r.domain_id === d.id)
        .map((r) => ({
          token: r.token!,
          position: Number(r.position),
          status: r.status as VerificationStatus,
          missingSince: r.missing_since === null ? null : Number(r.missing_since),
          keyState: r.key_state as KeyState | null,
          key:
            r.public_key === null || r.private_key_enc === null
              ? undefined
              : {
                  token: r.token!,
                  publicKey: r.public_key,
                  privateKeyEnc: r.private_key_enc,
                  createdAt: Number(r.created_at),
                  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
                },
        })),
    }));
  }
}

/**
 * The DKIM records of these domains with their keys, by domain then position: what signing
 * and rotation read.
 */
export async function dkimSelectorRows(db: Kysely<Database>, domainIds: string[]) {
  // key roles migration 0014 left to the background: filled for these domains first
  await keyStatesFilled(db, domainIds);
  return db
    .selectFrom('domain_records as r')
    .leftJoin('dkim_keys as k', 'k.token', 'r.token')
    .select([
      'r.domain_id',
      'r.token',
      'r.position',
      'r.status',
      'r.missing_since',
      'r.key_state',
      'r.key_state_since',
      'r.key_created_at',
      'k.public_key',
      'k.private_key_enc',
      'k.created_at',
      'k.revoked_at',
    ])
    .where('r.domain_id', 'in', domainIds)
    .where('r.kind', '=', 'dkim')
    .orderBy('r.domain_id')
    .orderBy('r.position')
    .execute();
}

function toPublished(row: { token: string; public_key: string; revoked_at: number | null }): PublishedKey {
  return { token: row.token, publicKey: row.revoked_at === null ? row.public_key : null };
}

function toKey(row: {
  token: string;
  public_key: string;
  private_key_enc: string;
  created_at: number;
  revoked_at: number | null;
}): StoredDkimKey {
  return {
    token: row.token,
    publicKey: row.public_key,
    privateKeyEnc: row.private_key_enc,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** SQLite (better-sqlite3) and PostgreSQL (SQLSTATE 23503) spellings of a foreign key violation. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
