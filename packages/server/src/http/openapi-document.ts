/**
 * The OpenAPI document without a running server or a database: the app is built over a store
 * whose queries go nowhere (Kysely's DummyDriver answers every one with no rows) and asked for
 * its document; the routes' schemas make it, not data. The client package generates its types
 * from this during the build, which therefore does not wait for better-sqlite3 to compile (issue
 * 41: `npm test` compiles it beside the TypeScript builds when `npm ci` ran without install
 * scripts).
 */
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { Config } from '../config.js';
import { createServices, routeServices } from '../services.js';
import { KyselyStore } from '../store/kysely-store.js';
import type { Database } from '../store/tables.js';
import { buildApp } from './app.js';

export async function buildOpenApiDocument(config: Config): Promise<Record<string, unknown>> {
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  const store = new KyselyStore('sqlite', db);
  // The server's own wiring; nothing runs (the scheduler is never started, no request comes).
  // Development mode, so the document is the same wherever it is built: it holds the sandbox's
  // routes too, each marked development only (issue 40).
  const services = createServices({ ...config, production: false }, store);
  try {
    const app = await buildApp({
      config: { ...config, production: false },
      store,
      ...routeServices(services),
      logger: false,
    });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await services.close();
    await store.close();
  }
}
