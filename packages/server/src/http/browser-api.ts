/**
 * What every browser-facing route group (templates, images) sets up in its own encapsulated
 * context: CORS (only here: the domain API stays closed to browsers), authentication with a key
 * holding the group's scope (a full `*` key also works), and the per-key rate limit.
 *
 * Browser code must never hold the account's full key: `keys create --scope templates,images`
 * issues one that can reach these routes and nothing else.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { ApiScope } from '../domain/api-key.js';
import type { Store } from '../store/store.js';
import { protectedApi } from './protected-api.js';

export interface BrowserApiOptions {
  config: Config;
  store: Store;
  scope: Exclude<ApiScope, '*'>;
  /**
   * Also accept `Authorization: Basic base64(key + ":")`, the form ImageKit's upload protocol
   * (and so the editor's uploader) sends the token in.
   */
  basicAuth?: boolean;
}

/** `Basic base64(user:password)` → user, the key; anything else unchanged. */
export function keyFromBasic(header: string | undefined): string | undefined {
  const match = header ? /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
  if (!match) return header;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const user = decoded.split(':')[0] ?? '';
  return user;
}

/** Sets up CORS, authentication and rate limiting in the calling plugin's context. */
export async function browserApi(app: FastifyInstance, options: BrowserApiOptions): Promise<void> {
  const { config, store, scope } = options;
  // CORS first: preflights are answered in its onRequest hook, before authentication (a
  // preflight never carries the Authorization header), and every answer, errors included,
  // carries the CORS headers so the page can read the error.
  await app.register(cors, {
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  await protectedApi(app, {
    store,
    scope,
    beforeAuth: (request) => {
      // A preflight carries no credentials; CORS (above) has answered it.
      if (request.method === 'OPTIONS') return 'skip';
      if (options.basicAuth) {
        const key = keyFromBasic(request.headers.authorization);
        if (key !== undefined) request.headers.authorization = key;
      }
      return undefined;
    },
  });
}
