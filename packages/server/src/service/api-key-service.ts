/**
 * An account's API keys through the API (issue 40): create one (its secret shown once, in the
 * answer), list them without secrets, revoke one. Full keys only (the route group's scope), as
 * `npm run cli -- keys` on the server's machine; the dashboard builds on these.
 */
import { type ApiScope, generateApiKey } from '../domain/api-key.js';
import { ApiError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../store/store.js';

/** Live keys one account may hold: enough for every app and environment, not a key per request. */
export const MAX_KEYS_PER_ACCOUNT = 100;

/** A key as listed: never its secret nor its hash. */
export function keyView(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.keyPrefix,
    scopes: key.scopes,
    createdAt: new Date(key.createdAt).toISOString(),
    revokedAt: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
  };
}

export class ApiKeyService {
  constructor(private readonly store: Store) {}

  /** `POST /api/public/keys`: a key in the caller's account; `key` is shown only in this answer. */
  async create(accountId: string, input: { name: string; scopes?: ApiScope[] }) {
    const name = input.name.trim();
    if (name.length === 0) throw new ApiError('REQUEST_INVALID', 'name must not be blank');
    // `*` already holds every scope: a list naming it is the full key.
    const scopes: ApiScope[] =
      !input.scopes || input.scopes.includes('*') ? ['*'] : [...new Set(input.scopes)];
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
    });
    return { ...keyView(key), key: generated.secret };
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
