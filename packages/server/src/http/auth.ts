/**
 * Authentication: `Authorization: <API_KEY>` (the key alone, per the spec; `Bearer ` is
 * tolerated). Keys are looked up by their SHA-256 hash and compared in constant time.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashApiKey, hashesEqual, keyFromAuthorization } from '../domain/api-key.js';
import { ApiError } from '../errors.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import type { CostBudget } from './cost-budget.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key, set by the auth hook on `/api/public/*`. */
    apiKey?: ApiKeyRecord;
  }
}

/** Longest value we hash; real keys are 46 characters. */
export const MAX_KEY_LENGTH = 512;

/**
 * An `onRequest` hook that authenticates the request and requires `scope`; `acceptBasic`
 * also takes the key as HTTP Basic's user name (see {@link keyFromAuthorization}).
 * `failures` counts unknown or revoked keys per client address: an address that has spent
 * its budget gets 429 before its key is even looked up, so guessing keys costs the guesser
 * time and the database nothing.
 */
export function authenticate(store: Store, scope: string, failures: CostBudget, acceptBasic = false) {
  return async function authHook(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    failures.refuseIfSpent(request.ip);
    try {
      request.apiKey = await identify(store, scope, request, acceptBasic);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'AUTH_INVALID') failures.record(request.ip);
      throw error;
    }
  };
}

/**
 * Whether `key`, found by `hash`, is a live key. The lookup is by hash, so its timing reveals
 * nothing about the key; the constant-time comparison keeps that true even for a store whose
 * index matches case-insensitively.
 */
export function isLive(key: ApiKeyRecord | undefined, hash: string): key is ApiKeyRecord {
  return key !== undefined && key.revokedAt === null && hashesEqual(hash, key.keyHash);
}

/** Whether `key` may use routes of `scope` (`*` keys hold every scope). */
export function holdsScope(key: ApiKeyRecord, scope: string): boolean {
  return key.scopes.includes('*') || key.scopes.includes(scope);
}

/**
 * The account of a key that may read what belongs to the whole account: the suppression list
 * names every customer's recipients, so a key limited to some domains may not.
 */
export function wholeAccount(request: FastifyRequest): string {
  const key = request.apiKey!;
  if (key.domains !== null) {
    throw new ApiError(
      'AUTH_SCOPE',
      'this key is limited to some domains and reads only their mail; this route is the whole account’s',
    );
  }
  return key.accountId;
}

async function identify(
  store: Store,
  scope: string,
  request: FastifyRequest,
  acceptBasic: boolean,
): Promise<ApiKeyRecord> {
  const presented = keyFromAuthorization(request.headers.authorization, acceptBasic);
  if (presented === undefined) {
    throw new ApiError(
      'AUTH_MISSING',
      'the Authorization header is missing; send your API key as its whole value',
    );
  }
  if (presented.length > MAX_KEY_LENGTH)
    throw new ApiError('AUTH_INVALID', 'the API key is unknown or revoked');
  const hash = hashApiKey(presented);
  const key = await store.findApiKeyByHash(hash);
  if (!isLive(key, hash)) throw new ApiError('AUTH_INVALID', 'the API key is unknown or revoked');
  if (!holdsScope(key, scope)) {
    throw new ApiError(
      'AUTH_SCOPE',
      `this API key is limited to ${key.scopes.join(', ')} and cannot use this route`,
    );
  }
  return key;
}
