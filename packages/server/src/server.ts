/**
 * Composition root: open the store, build the services and the HTTP app, and listen.
 * Used by `main.ts` and by the tests, which start the real thing on a free port.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { type HostedDkim, startHostedDkim } from './dkim/hosted-dkim.js';
import { buildApp } from './http/app.js';
import { DomainService } from './service/domain-service.js';
import type { KyselyStore } from './store/kysely-store.js';
import { openStore } from './store/open.js';

export interface RunningServer {
  app: FastifyInstance;
  store: KyselyStore;
  /** Hosted DKIM keys, signer and DNS responder (issue 4). */
  dkim: HostedDkim;
  /** `http://host:port` */
  url: string;
  /** Stop accepting, let in-flight requests finish, then close the database. */
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<RunningServer> {
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    poolSize: config.dbPoolSize,
    cache: config.cache,
  });
  let dkim: HostedDkim | undefined;
  const domains = new DomainService({
    store,
    records: { providerHost: config.dkimProviderHost, dmarcPolicy: config.dmarcPolicy },
    maxDomainsPerAccount: config.limits.maxDomainsPerAccount,
    onDomainsChanged: () => dkim?.domainsChanged(),
  });
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config,
      store,
      domains,
      ...(options.logger !== undefined && { logger: options.logger }),
    });
    dkim = await startHostedDkim(config, store.db, app.log);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close();
    await dkim?.close();
    await store.close();
    throw error;
  }
  const hosted = dkim;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    dkim: hosted,
    url: `http://${host}:${port}`,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await hosted.close();
        await store.close();
      })();
      return closing;
    },
  };
}
