/**
 * Composition root: open the store, build the services, the background jobs and the HTTP
 * app, and listen. Used by `main.ts` and by the tests, which start the real thing on a free
 * port.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { type HostedDkim, startHostedDkim } from './dkim/hosted-dkim.js';
import { dkimKeyRecord } from './dkim/key-record.js';
import { buildApp } from './http/app.js';
import { VerificationScheduler } from './jobs/verification-scheduler.js';
import { loadEditorBlocks } from './render/editor-blocks.js';
import { createBrowserServices } from './service/browser-services.js';
import { DomainService } from './service/domain-service.js';
import { VerificationService } from './service/verification-service.js';
import { DkimKeyStore } from './store/dkim-key-store.js';
import type { KyselyStore } from './store/kysely-store.js';
import { openStore } from './store/open.js';
import { VerificationStore } from './store/verification-store.js';
import { createAuthoritativeResolve } from './verify/authoritative.js';
import { createResolver } from './verify/resolver.js';

export interface RunningServer {
  app: FastifyInstance;
  store: KyselyStore;
  verification: { store: VerificationStore; service: VerificationService; scheduler: VerificationScheduler };
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
  const v = config.verification;
  const verificationStore = new VerificationStore(store.db, store.kind, store.domainCache);
  const keys = new DkimKeyStore(store.db);
  // Reported through the app's logger once it exists.
  let reportError: (error: unknown, domainName?: string) => void = () => {};
  const dnsOptions = {
    servers: v.resolvers,
    timeoutMs: v.dnsTimeoutMs,
    tries: v.dnsTries,
    concurrency: v.dnsConcurrency,
  };
  const authoritative = v.authoritative ? createAuthoritativeResolve(dnsOptions) : undefined;
  const verification = new VerificationService({
    store: verificationStore,
    resolve: authoritative ?? createResolver(dnsOptions),
    ...(authoritative && { findZone: authoritative.zoneOf }),
    settings: { providerHost: config.dkimProviderHost, graceMs: v.graceMs, leaseMs: v.leaseMs },
    concurrency: v.checkConcurrency,
    keyRecordOf: async (token) => {
      const key = await keys.findKey(token);
      return key && key.revokedAt === null ? dkimKeyRecord(key.publicKey) : undefined;
    },
  });
  const scheduler = new VerificationScheduler({
    store: verificationStore,
    service: verification,
    intervalMs: v.schedulerIntervalMs,
    batchSize: v.schedulerBatch,
    leaseMs: v.leaseMs,
    onError: (error, domain) => reportError(error, domain?.name),
  });
  const domains = new DomainService({
    store,
    records: { providerHost: config.dkimProviderHost, dmarcPolicy: config.dmarcPolicy },
    maxDomainsPerAccount: config.limits.maxDomainsPerAccount,
    verification: {
      service: verification,
      store: verificationStore,
      maxAgeMs: v.statusMaxAgeMs,
      waitMs: v.statusWaitMs,
    },
    onRegistered: () => scheduler.nudge(),
    onDomainsChanged: () => dkim?.domainsChanged(),
  });
  const browser = createBrowserServices(config, store);
  const { templates, images } = browser;
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
    await browser.close();
    await store.close();
    throw error;
  }
  reportError = (error, domain) => app.log.error({ err: error, domain }, 'verification check failed');
  if (v.schedulerEnabled) scheduler.start();
  const hosted = dkim;

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    verification: { store: verificationStore, service: verification, scheduler },
    dkim: hosted,
    url: `http://${host}:${port}`,
    close: () => {
      closing ??= (async () => {
        await app.close();
        await scheduler.stop();
        await verification.idle();
        await hosted.close();
        await browser.close();
        await store.close();
      })();
      return closing;
    },
  };
}
