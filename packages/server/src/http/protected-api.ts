/**
 * What every authenticated route group sets up in its own context: authentication with a
 * key holding the group's scope (`*` keys hold every scope), the per-key rate limit, and the
 * `ApiKey` security requirement in the OpenAPI document.
 */
import rateLimit, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Limits } from '../config.js';
import type { Store } from '../store/store.js';
import { authenticate } from './auth.js';
import { CostBudget } from './cost-budget.js';
import { LocalStore, type SharedRateLimit } from './shared-rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed authentications per client address, shared by every protected route group. */
    authFailures: CostBudget;
  }
}

import { ApiError } from '../errors.js';

/** A key's requests in the current window, this one included, and the window's rest (ms). */
export interface Count {
  current: number;
  ttl: number;
}

/** The per-key request counts the rate limiter keeps, for code that answers outside Fastify. */
export interface RequestCounts {
  /** Requests per key and window (`RATE_LIMIT_MAX`). */
  readonly max: number;
  readonly windowMs: number;
  /**
   * Counts one request of `key` in the limiter's own store: its count and the window's rest,
   * at once when the store answers at once (this process's memory), else when Redis does.
   */
  count(key: string): Count | Promise<Count>;
}

export interface ProtectedApiOptions {
  store: Store;
  scope: string;
  /** Also take the key as HTTP Basic's user name (the ImageKit upload protocol). */
  basicAuth?: boolean;
  /** A CORS group: OPTIONS requests carry no credentials (CORS answers preflights). */
  cors?: boolean;
}

/**
 * Registers the rate limiter once for the whole app, applied to no route by itself: each
 * `protectedApi` group applies it. One registration means one store, so a key has one budget
 * of `RATE_LIMIT_MAX` per window across every protected route; registered in each group,
 * every group counted it afresh. The store is this process's memory, or with `shared` (`REDIS_URL`)
 * Redis, so that the budget holds across every process. Returns that store's counts, so that the
 * status fast path (status-fast-path.ts) counts each request where the plugin does.
 */
export async function rateLimitPerKey(
  app: FastifyInstance,
  limits: Limits,
  shared?: SharedRateLimit,
): Promise<RequestCounts> {
  app.decorate(
    'authFailures',
    new CostBudget({
      max: limits.authFailureMax,
      windowMs: limits.rateLimitWindowMs,
      units: 'failed authentications',
      spender: 'this address',
    }),
  );
  // The plugin makes its store from the class it is given; this one remembers the instance.
  let store: FastifyRateLimitStore | undefined;
  const Counts = shared ? shared.store(app.log) : ProcessCounts;
  await app.register(rateLimit, {
    global: false,
    store: class extends Counts {
      constructor(options: RateLimitOptions) {
        super(options);
        store = this;
      }
    },
    max: limits.rateLimitMax,
    timeWindow: limits.rateLimitWindowMs,
    // Counted per key once authenticated (per client address before).
    keyGenerator: (request) => request.apiKey?.id ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new ApiError(
          'RATE_LIMITED',
          `too many requests; retry after ${Math.ceil(context.ttl / 1000)} seconds`,
        ),
        {
          statusCode: 429,
        },
      ),
  });
  if (store === undefined) throw new Error('the rate-limit plugin made no store');
  const counts = store;
  return {
    max: limits.rateLimitMax,
    windowMs: limits.rateLimitWindowMs,
    count(key) {
      let answered: Count | Error | undefined;
      let settle: ((outcome: Count | Error) => void) | undefined;
      counts.incr(
        key,
        (error, result) => {
          answered = error ?? result ?? new Error('the rate-limit store answered nothing');
          settle?.(answered);
        },
        limits.rateLimitWindowMs,
        limits.rateLimitMax,
      );
      if (answered instanceof Error) throw answered;
      if (answered !== undefined) return answered;
      return new Promise<Count>((resolve, reject) => {
        settle = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      });
    },
  };
}

/** The plugin's default store (this process's memory), made from its options as a custom one is. */
class ProcessCounts extends LocalStore {
  constructor(options: RateLimitOptions) {
    super(options.continueExceeding ?? false, options.exponentialBackoff ?? false);
  }
}

export async function protectedApi(app: FastifyInstance, options: ProtectedApiOptions): Promise<void> {
  if (!app.hasDecorator('rateLimit')) {
    throw new Error('protectedApi needs rateLimitPerKey registered on the app first');
  }
  const auth = authenticate(options.store, options.scope, app.authFailures, options.basicAuth);
  app.addHook(
    'onRequest',
    options.cors
      ? async (request: FastifyRequest, reply: FastifyReply) => {
          if (request.method !== 'OPTIONS') await auth(request, reply);
        }
      : auth,
  );
  // After authentication and before the body is read: a rate-limited client costs no parsing.
  const limit = app.rateLimit();
  app.addHook('preParsing', async (request, reply) => {
    await limit.call(app, request, reply);
  });
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ ApiKey: [] }] };
  });
}
