/**
 * The storage interface the HTTP layer and the jobs depend on. One implementation
 * (`KyselyStore`) serves both SQLite and PostgreSQL; `openStore` picks the backend.
 */
import type { DomainType } from '../domain/domain-type.js';
import type { StoredDomain } from '../domain/model.js';

export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  keyPrefix: string;
  /** SHA-256 of the key (hex); never shown to anyone. */
  keyHash: string;
  /** `['*']` for the full API. */
  scopes: string[];
  /** The only domains a sending key sends from and reads the mail of; `null`: not limited. */
  domains: string[] | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface NewApiKey {
  name: string;
  /** Attach the key to this account; a new account (named like the key) when absent. */
  accountId?: string;
  keyHash: string;
  keyPrefix: string;
  scopes: string[];
  /** Limit a sending key to these domains (names as registered). */
  domains?: string[];
}

export interface RegistrationRequest {
  name: string;
  type: DomainType;
  /** The return path's label, when the entry asked for one (`returnPath`). */
  returnPath?: string;
  /** The tracking host's label, when the entry asked for one (`tracking`). */
  tracking?: string;
}

export type RegistrationOutcome = { ok: true; domain: StoredDomain } | { ok: false; reason: 'account_limit' };

export interface ListPage {
  domains: StoredDomain[];
  /** The name to pass as `after` for the next page; `null` on the last page. */
  next: string | null;
}

export interface Store {
  /** Which backend this is, for `/readyz` and logs. */
  readonly kind: 'sqlite' | 'postgres';

  createApiKey(input: NewApiKey): Promise<ApiKeyRecord>;
  /** The key with this hash, revoked or not; `undefined` if none. */
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** The key with this hash if this process holds it in its read cache now; no I/O. */
  cachedApiKeyByHash(keyHash: string): ApiKeyRecord | undefined;
  /** Every key, oldest first; only `accountId`'s when given. */
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /**
   * Revoke by key id or by key prefix (only among `accountId`'s keys when given); returns the
   * revoked key, `undefined` if none matched.
   */
  revokeApiKey(idOrPrefix: string, accountId?: string): Promise<ApiKeyRecord | undefined>;
  findAccount(id: string): Promise<Account | undefined>;

  /**
   * Register a batch in one transaction. A name the account already has keeps its tokens
   * and statuses (its type is updated); new names get fresh tokens, unless the account is
   * at `maxDomains`. Outcomes are in request order.
   */
  registerDomains(
    accountId: string,
    requests: RegistrationRequest[],
    options: { maxDomains: number; now: number; newToken: () => string },
  ): Promise<RegistrationOutcome[]>;
  /** The account's registrations among `names`, keyed by name. */
  findDomains(accountId: string, names: string[]): Promise<Map<string, StoredDomain>>;
  /** The account's registration `name` if this process holds it in its read cache now; no I/O. */
  cachedDomain(accountId: string, name: string): StoredDomain | undefined;
  /** The account's registrations ordered by name, after `after`, at most `limit`. */
  listDomains(accountId: string, options: { after?: string; limit: number }): Promise<ListPage>;
  /** Delete the account's registrations among `names`; returns the names that existed. */
  deleteDomains(accountId: string, names: string[]): Promise<Set<string>>;

  /** A cheap round trip to the database, for `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
