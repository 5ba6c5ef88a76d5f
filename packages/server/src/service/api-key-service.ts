/**
 * An account's API keys through the API (issue 40): create one (its secret shown once, in the
 * answer), list them without secrets, revoke one. Full keys only (the route group's scope), as
 * `npm run cli -- keys` on the server's machine; the dashboard builds on these.
 */
import { type ApiScope, generateApiKey } from '../domain/api-key.js';
import { normalizeDomainName } from '../domain/domain-name.js';
import { ApiError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../store/store.js';

/** Live keys one account may hold: enough for every app and environment, not a key per request. */
export const MAX_KEYS_PER_ACCOUNT = 100;

/** Domains one sending key may be limited to: a customer's few, not an account's million. */
export const MAX_KEY_DOMAINS = 100;

/** A key as listed: never its secret nor its hash. */
export function keyView(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.keyPrefix,
    scopes: key.scopes,
    domains: key.domains,
    createdAt: new Date(key.createdAt).toISOString(),
    revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
  };
}

export class ApiKeyService {
  constructor(private readonly store: Store) {}

  /** `POST /api/public/keys`: a key in the caller's account; `key` is shown only in this answer. */
  async create(accountId: string, input: { name: string; scopes?: ApiScope[]; domains?: string[] }) {
    const name = input.name.trim();
    if (name.length === 0) throw new ApiError('REQUEST_INVALID', 'name must not be blank');
    // A key limited to domains sends (and reads what it sent); nothing else.
    if (input.domains !== undefined && input.scopes !== undefined && input.scopes.join() !== 'sending') {
      throw new ApiError(
        'REQUEST_INVALID',
        'a key limited to domains sends and reads their mail only: leave scopes out, or give ["sending"]',
      );
    }
    // `*` already holds every scope: a list naming it is the full key.
    const scopes: ApiScope[] =
      input.domains !== undefined
        ? ['sending']
        : !input.scopes || input.scopes.includes('*')
          ? ['*']
          : [...new Set(input.scopes)];
    const domains = input.domains === undefined ? undefined : await this.ownDomains(accountId, input.domains);
    const live = (await this.store.listApiKeys(accountId)).filter((k) => k.revokedAt === null);
    if (live.length >= MAX_KEYS_PER_ACCOUNT) {
      throw new ApiError(
        'ACCOUNT_KEY_LIMIT',
        `the account holds ${live.length} live keys, the most it may; revoke one it no longer uses first`,
      );
    }
    const generated = generateApiKey();
    const key = await this.store.createApiKey({
      name,
      keyHash: generated.hash,
      keyPrefix: generated.prefix,
      scopes,
      accountId,
      ...(domains !== undefined && { domains }),
    });
    return { ...keyView(key), key: generated.secret };
  }

  /**
   * The names as registered (normalised as registration normalises them), each a domain of this
   * account: a key cannot be limited to a domain the account does not hold.
   */
  private async ownDomains(accountId: string, names: string[]): Promise<string[]> {
    const normalised = [
      ...new Set(
        names.map((input) => {
          const name = normalizeDomainName(input);
          if (!name.ok) throw new ApiError(name.code, name.message);
          return name.name;
        }),
      ),
    ];
    const found = await this.store.findDomains(accountId, normalised);
    const missing = normalised.find((n) => !found.has(n));
    if (missing !== undefined) {
      throw new ApiError(
        'DOMAIN_NOT_REGISTERED',
        `${missing.slice(0, 253)} is not a registered domain of this account; register it first`,
      );
    }
    return normalised;
  }

  /** `GET /api/public/keys`: the account's keys, revoked ones too, oldest first. */
  async list(accountId: string) {
    return (await this.store.listApiKeys(accountId)).map(keyView);
  }

  /**
   * `DELETE /api/public/keys/{id}`: revoked at once, on every process. Not the request's own
   * key: revoking it would leave the caller locked out mid-way; use another key.
   */
  async revoke(accountId: string, id: string, callerKeyId: string) {
    if (id === callerKeyId) {
      throw new ApiError(
        'API_KEY_IN_USE',
        'this is the key making the request; revoke it with another full key (or `npm run cli -- keys revoke`)',
      );
    }
    // `id` is a key id (`key_…`, the route's pattern), never a prefix: it names one key.
    const key = await this.store.revokeApiKey(id, accountId);
    if (key === undefined) throw new ApiError('API_KEY_NOT_FOUND', `this account has no key ${id}`);
    return keyView(key);
  }
}
