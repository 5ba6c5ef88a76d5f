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

/** Sets up CORS, authentication and rate limiting in the calling plugin's context. */
export async function browserApi(app: FastifyInstance, options: BrowserApiOptions): Promise<void> {
  const { config, store, scope } = options;
  // CORS first: preflights are answered in its onRequest hook, before authentication (a
  // preflight never carries the Authorization header), and every answer, errors included,
  // carries the CORS headers so the page can read the error.
  await app.register(cors, {
    origin: config.corsOrigins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  await protectedApi(app, { store, scope, basicAuth: options.basicAuth, cors: true });
}
