/**
 * Composition root: open the store, build the services (`services.ts`, with the background
 * jobs), the HTTP app (its rate limits counted in Redis when `REDIS_URL` is set), the cache
 * listener on PostgreSQL and hosted DKIM, and listen. Used by `main.ts` and by the tests,
 * which start the real thing on a free port.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { type Config, spfRecord } from './config.js';
import { type HostedDkim, startHostedDkim } from './dkim/hosted-dkim.js';
import type { MxData } from './dns/zone.js';
import { RETURN_PATH_ZONE_LABEL } from './domain/records.js';
import type { InboundListener } from './email/inbound.js';
import { buildApp } from './http/app.js';
import { SharedRateLimit } from './http/shared-rate-limit.js';
import { loadEditorBlocks } from './render/editor-blocks.js';
import { createServices, routeServices, type Services } from './services.js';
import { CacheListener } from './store/cache-listener.js';
import type { KyselyStore } from './store/kysely-store.js';
import { openStore } from './store/open.js';

export interface RunningServer {
  app: FastifyInstance;
  store: KyselyStore;
  verification: Services['verification'];
  /** Webhook endpoints and the delivery worker (issue 20). */
  webhooks: Services['webhooks'];
  /** Hosted DKIM keys, signer and DNS responder (issue 4). */
  dkim: HostedDkim;
  /** Domain Connect (issue 23); absent when turned off. */
  domainConnect: Services['domainConnect'];
  /** The inbound SMTP listener for bounces and complaints (`SMTP_LISTEN`, issue 34). */
  inbound: InboundListener | undefined;
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
  let cacheListener: CacheListener | undefined;
  const services = createServices(config, store);
  const { verification, webhooks, sending } = services;
  const sharedRateLimit = config.redis && (await SharedRateLimit.open(config.redis));
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config,
      store,
      ...routeServices(services),
      ...(sharedRateLimit && { sharedRateLimit }),
      ...(options.logger !== undefined && { logger: options.logger }),
    });
    // Other processes' revocations and deletions drop this one's cached reads at once.
    if (store.kind === 'postgres' && config.databaseUrl) {
      cacheListener = await CacheListener.start(config.databaseUrl, store, app.log);
    }
    // So that the first requests are counted in Redis already; start-up goes on without it.
    await sharedRateLimit?.connected();
    if (config.domainConnect.enabled && !config.dns.listen)
      app.log.warn(
        'DOMAIN_CONNECT_ENABLED without DNS_LISTEN: the signing key is served nowhere, so providers will refuse every setup link',
      );
    // The Domain Connect signing key is published in our own zone, where providers look it up.
    const connectKey =
      services.domainConnect && config.dns.listen
        ? new Map([[config.domainConnect.keyHost, await services.domainConnect.publicKeyRecords()]])
        : undefined;
    dkim = await startHostedDkim(config, store.db, app.log, {
      kind: store.kind,
      ...returnPathRecords(config, connectKey),
      domainCache: store.domainCache,
      onRotated: () => webhooks.deliverer.nudge(),
    });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app?.close();
    sharedRateLimit?.close();
    await cacheListener?.close();
    await dkim?.close();
    await services.close();
    await store.close();
    throw error;
  }
  const listener = cacheListener;
  const hosted = dkim;
  services.hooks.reportError = (error, domain) =>
    app.log.error({ err: error, domain }, 'verification check failed');
  services.hooks.domainsChanged = () => hosted.domainsChanged();
  services.hooks.rotationRequested = () => hosted.rotator?.nudge();
  services.hooks.reportWebhookError = (error) =>
    app.log.error({ err: error }, 'webhook delivery failed to run');
  if (config.verification.schedulerEnabled) verification.scheduler.start();
  if (config.webhooks.enabled) webhooks.deliverer.start();
  services.hooks.reportSendingError = (error) => app.log.error({ err: error }, 'sending failed to run');

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (config.publicUrl === undefined) services.hooks.baseUrl = () => `http://${host}:${port}`;
  if (config.sending.enabled) sending.sender.start();
  let inbound: InboundListener | undefined;
  if (config.sending.returnPath.listen) {
    try {
      inbound = await sending.startInbound({
        info: (fields, message) => app.log.info(fields, message),
        warn: (fields, message) => app.log.warn(fields, message),
      });
      app.log.info({ inbound: `${inbound.address.host}:${inbound.address.port}` }, 'inbound SMTP listening');
    } catch (error) {
      await Promise.allSettled([app.close(), services.close(), hosted.close()]);
      await store.close();
      throw error;
    }
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    verification,
    webhooks,
    dkim: hosted,
    domainConnect: services.domainConnect,
    inbound,
    url: `http://${host}:${port}`,
    close: () => {
      closing ??= (async () => {
        await inbound?.close();
        await app.close();
        sharedRateLimit?.close();
        await listener?.close();
        await services.close();
        await hosted.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/**
 * The other records of our zone: the Domain Connect signing key, and at `return-path` (where
 * every return-path CNAME points, issue 34) the SPF record authorising `SENDING_IPS` and the MX
 * naming `INBOUND_MX_HOST`.
 */
function returnPathRecords(
  config: Config,
  connectKey: ReadonlyMap<string, readonly string[]> | undefined,
): { extraTxt?: ReadonlyMap<string, readonly string[]>; extraMx?: ReadonlyMap<string, readonly MxData[]> } {
  const { sendingIps, inboundMxHost } = config.sending.returnPath;
  const txt = new Map(connectKey);
  if (sendingIps.length > 0) txt.set(RETURN_PATH_ZONE_LABEL, [spfRecord(sendingIps)]);
  return {
    ...(txt.size > 0 && { extraTxt: txt }),
    ...(inboundMxHost !== undefined && {
      extraMx: new Map([[RETURN_PATH_ZONE_LABEL, [{ preference: 10, exchange: inboundMxHost }]]]),
    }),
  };
}
