/**
 * Composition root: open the store, build the services (`services.ts`, with the background
 * jobs), the HTTP app and hosted DKIM, and listen. Used by `main.ts` and by the tests, which start the real thing on a free
 * port.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { type HostedDkim, startHostedDkim } from './dkim/hosted-dkim.js';
import { buildApp } from './http/app.js';
import { loadEditorBlocks } from './render/editor-blocks.js';
import { createServices, type Services } from './services.js';
import type { KyselyStore } from './store/kysely-store.js';
import { openStore } from './store/open.js';

export interface RunningServer {
  app: FastifyInstance;
  store: KyselyStore;
  verification: Services['verification'];
  /** Hosted DKIM keys, signer and DNS responder (issue 4). */
  dkim: HostedDkim;
  /** `http://host:port` */
  url: string;
  /** Stop accepting, let in-flight requests and checks finish, then close the database. */
  close(): Promise<void>;
}

export async function startServer(
  config: Config,
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<RunningServer> {
  // Before anything opens: a bad custom blocks module stops the start with a ConfigError.
  if (config.editorBlocks) await loadEditorBlocks(config.editorBlocks);
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    poolSize: config.dbPoolSize,
    cache: config.cache,
  });
  let dkim: HostedDkim | undefined;
  const services = createServices(config, store);
  const { domains, templates, images, verification } = services;
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config,
      store,
      domains,
      templates,
      images,
      ...(options.logger !== undefined && { logger: options.logger }),
    });
    dkim = await startHostedDkim(config, store.db, app.log);
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close();
    await dkim?.close();
    await services.close();
    await store.close();
    throw error;
  }
  const hosted = dkim;
  services.hooks.reportError = (error, domain) =>
    app.log.error({ err: error, domain }, 'verification check failed');
  services.hooks.domainsChanged = () => hosted.domainsChanged();
  if (config.verification.schedulerEnabled) verification.scheduler.start();

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    verification,
    dkim: hosted,
    url: `http://${host}:${port}`,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await services.close();
        await hosted.close();
        await store.close();
      })();
      return closing;
    },
  };
}
