/**
 * What every authenticated route group sets up in its own context: authentication with a
 * key holding the group's scope (`*` keys hold every scope), a per-key rate limit, and the
 * `ApiKey` security requirement in the OpenAPI document.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Limits } from '../config.js';
import type { Store } from '../store/store.js';
import { authenticate } from './auth.js';
import { ApiError } from './errors.js';

export interface ProtectedApiOptions {
  store: Store;
  scope: string;
  limits: Limits;
  /** Runs before authentication, e.g. to let a CORS preflight through or to read another header form. */
  beforeAuth?: (request: FastifyRequest) => 'skip' | undefined;
}

export async function protectedApi(app: FastifyInstance, options: ProtectedApiOptions): Promise<void> {
  const auth = authenticate(options.store, options.scope);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (options.beforeAuth?.(request) === 'skip') return;
    await auth(request, reply);
  });
  // Counted per key once authenticated (per client address before), after authentication
  // and before the body is read: a rate-limited client costs no parsing.
  await app.register(rateLimit, {
    max: options.limits.rateLimitMax,
    timeWindow: options.limits.rateLimitWindowMs,
    hook: 'preParsing',
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
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ ApiKey: [] }] };
  });
}
