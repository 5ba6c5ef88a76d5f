/**
 * The one wiring of the services over a store: domains with their verification (service,
 * store, scheduler), templates and images. `server.ts` runs it; the OpenAPI document builder
 * builds the app over the same wiring, so the two cannot drift apart.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Config } from './config.js';
import { resolveSecretKey } from './dkim/secret-key.js';
import { DkimSigner } from './dkim/signer.js';
import { dkimKeyRecord } from './dns/key-record.js';
import { LocalDns } from './dns/local-dns.js';
import { dkimZoneOrigin, type RecordSettings } from './domain/records.js';
import { DomainConnect } from './domain-connect/domain-connect.js';
import { fetchJson } from './domain-connect/fetch-json.js';
import { identityOf } from './domain-connect/identity.js';
import { type InboundListener, type InboundOptions, startInboundListener } from './email/inbound.js';
import { mtaStsOverDns } from './email/mta-sts.js';
import { createMailRouter } from './email/mx.js';
import { returnPathKey } from './email/return-path.js';
import { SandboxInbox } from './email/sandbox-inbox.js';
import { trackingKey } from './email/tracking.js';
import { unsubscribeKey } from './email/unsubscribe.js';
import { EmailSender } from './jobs/email-sender.js';
import { VerificationScheduler } from './jobs/verification-scheduler.js';
import { WebhookDeliverer } from './jobs/webhook-deliverer.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import { type BrowserServices, createBrowserServices } from './service/browser-services.js';
import { DomainService } from './service/domain-service.js';
import { EmailService } from './service/email-service.js';
import type { ImageService } from './service/image-service.js';
import { LocalDnsService } from './service/local-dns-service.js';
import { SandboxService } from './service/sandbox-service.js';
import type { TemplateService } from './service/template-service.js';
import { VerificationService } from './service/verification-service.js';
import { WebhookService } from './service/webhook-service.js';
import { DkimKeyStore } from './store/dkim-key-store.js';
import { DkimRotationStore } from './store/dkim-rotation-store.js';
import { signingDomainsOncePerTurn } from './store/email-signing-domains.js';
import { EmailStore } from './store/email-store.js';
import type { KyselyStore } from './store/kysely-store.js';
import { SandboxStore } from './store/sandbox-store.js';
import { ServiceKeyStore } from './store/service-key-store.js';
import { VerificationStore } from './store/verification-store.js';
import { WebhookStore } from './store/webhook-store.js';
import { tracedResolve } from './telemetry/traced-resolve.js';
import type { Tracing } from './telemetry/tracing.js';
import { createAuthoritativeResolve } from './verify/authoritative.js';
import { routeLocalZones } from './verify/local-routing.js';
import type { DnsResolve } from './verify/resolver.js';
import { createResolver } from './verify/resolver.js';

export interface Services {
  domains: DomainService;
  templates: TemplateService;
  images: ImageService;
  verification: { store: VerificationStore; service: VerificationService; scheduler: VerificationScheduler };
  /** Webhook endpoints and the delivery worker (issue 20); the server starts the worker. */
  webhooks: { service: WebhookService; deliverer: WebhookDeliverer };
  /** Accepting mail and the sending worker (issue 21); the server starts the worker. */
  sending: {
    service: EmailService;
    sender: EmailSender;
    /** Starts the inbound listener for bounces and complaints (`SMTP_LISTEN`, issue 34). */
    startInbound(log: InboundOptions['log']): Promise<InboundListener>;
    /** The development sandbox's capture inbox (issue 40); absent in production mode. */
    sandbox: SandboxService | undefined;
  };
  /**
   * The development local DNS (issue 40, `dns/local-dns.ts`); absent in production mode and
   * with `LOCAL_DNS_LISTEN=off`. The server starts it listening.
   */
  localDns: LocalDns | undefined;
  /** Domain Connect (issue 23); absent with `DOMAIN_CONNECT_ENABLED=false`. */
  domainConnect: DomainConnect | undefined;
  /**
   * `SECRET_KEY` (or the development key file in `DATA_DIR`), read the first time it is needed:
   * what webhook secrets and keys are sealed under and tracking tokens derived from.
   */
  secretKey(): Buffer;
  /**
   * Where a failed check and a change of the domains go: set by the server once its logger
   * and hosted DKIM exist (until then, nowhere).
   */
  hooks: {
    reportError(error: unknown, domainName?: string): void;
    /** A webhook attempt that could not run or be recorded (not a receiver's failure: that is recorded). */
    reportWebhookError(error: unknown): void;
    /** A sending attempt that could not run or be recorded (not an SMTP refusal: that is recorded). */
    reportSendingError(error: unknown): void;
    domainsChanged(): void;
    /** A DKIM rotation was asked for through the API (set by the server to nudge the rotation worker). */
    rotationRequested(): void;
    /** Where recipients reach this service (List-Unsubscribe links): `PUBLIC_URL`, else set by the server. */
    baseUrl(): string;
  };
  /** Stops the scheduler and the webhook worker, waits for running checks and attempts, stops the render threads (not the store). */
  close(): Promise<void>;
}

/** What the HTTP app serves, from the services: one list for the server and the OpenAPI document. */
export function routeServices(services: Services) {
  return {
    domains: services.domains,
    templates: services.templates,
    images: services.images,
    webhooks: services.webhooks.service,
    emails: services.sending.service,
    sandbox: services.sending.sandbox,
    localDns: new LocalDnsService({ localDns: services.localDns, domains: services.domains }),
  };
}

/**
 * `metrics`: where checks, webhook and sending attempts are counted (`METRICS_LISTEN`, issue 39);
 * `tracing`: where DNS lookups, webhook deliveries and sending attempts are traced (`OTEL_*`).
 */
export function createServices(
  config: Config,
  store: KyselyStore,
  metrics?: ServiceMetrics,
  tracing?: Tracing,
): Services {
  const v = config.verification;
  const hooks: Services['hooks'] = {
    reportError: () => {},
    reportWebhookError: () => {},
    reportSendingError: () => {},
    domainsChanged: () => {},
    rotationRequested: () => {},
    baseUrl: () => config.publicUrl ?? `http://127.0.0.1:${config.port}`,
  };
  const verificationStore = new VerificationStore(store.db, store.kind, store.domainCache);
  // Webhook secrets and DKIM private keys are sealed under this key; read when first needed,
  // so building the app for its OpenAPI document creates no key file.
  let key: Buffer | undefined;
  const secretKey = () => {
    key ??= resolveSecretKey(config.dkim.secretKey, config.dataDir).key;
    return key;
  };
  const webhooks = createWebhooks(
    config,
    store,
    secretKey,
    (error) => hooks.reportWebhookError(error),
    metrics,
    tracing,
  );
  const keys = new DkimKeyStore(store.db);
  const dnsOptions = {
    servers: v.resolvers,
    timeoutMs: v.dnsTimeoutMs,
    tries: v.dnsTries,
    concurrency: v.dnsConcurrency,
  };
  // The development local DNS (issue 40): never in production mode.
  const localDns =
    config.production || config.localDns.listen === undefined
      ? undefined
      : new LocalDns({
          listen: config.localDns.listen,
          anyFreePort: config.localDns.defaulted,
          providerOrigin: dkimZoneOrigin(config.dkimProviderHost),
          keys: (tokens) => keys.publishedKeys(tokens),
          dataDir: config.dataDir,
        });
  const routing = { timeoutMs: v.dnsTimeoutMs, tries: v.dnsTries };
  const mainAuthoritative = v.authoritative ? createAuthoritativeResolve(dnsOptions) : undefined;
  const authoritative =
    mainAuthoritative && localDns ? routeLocalZones(mainAuthoritative, localDns, routing) : mainAuthoritative;
  const untraced =
    authoritative ??
    (localDns ? routeLocalZones(createResolver(dnsOptions), localDns, routing) : createResolver(dnsOptions));
  const resolve = tracing ? tracedResolve(untraced, tracing) : untraced;
  // Domain Connect asks through the resolvers: `_domainconnect` may be a CNAME out of the zone.
  const domainConnect = createDomainConnect(config, store, secretKey, createResolver(dnsOptions));
  const verification = new VerificationService({
    store: verificationStore,
    resolve,
    ...(authoritative && { findZone: authoritative.zoneOf }),
    domainConnect,
    settings: {
      providerHost: config.dkimProviderHost,
      trackingTarget: config.tracking.cnameTarget,
      graceMs: v.graceMs,
      leaseMs: v.leaseMs,
    },
    concurrency: v.checkConcurrency,
    keyRecordOf: async (token) => {
      const key = await keys.findKey(token);
      return key && key.revokedAt === null ? dkimKeyRecord(key.publicKey) : undefined;
    },
    onStatusChanged: () => webhooks.deliverer.nudge(),
    ...(metrics && { onChecked: metrics.checked }),
  });
  const scheduler = new VerificationScheduler({
    store: verificationStore,
    service: verification,
    intervalMs: v.schedulerIntervalMs,
    batchSize: v.schedulerBatch,
    leaseMs: v.leaseMs,
    onError: (error, domain) => hooks.reportError(error, domain?.name),
  });
  const domains = new DomainService({
    store,
    records: recordSettings(config),
    maxDomainsPerAccount: config.limits.maxDomainsPerAccount,
    domainConnect,
    ...(config.dkim.rotation.enabled && {
      dkimRotation: {
        store: new DkimRotationStore(store.db, store.kind, store.domainCache),
        settings: config.dkim.rotation,
        onRequested: () => hooks.rotationRequested(),
      },
    }),
    verification: {
      service: verification,
      store: verificationStore,
      maxAgeMs: v.statusMaxAgeMs,
      waitMs: v.statusWaitMs,
    },
    onRegistered: () => scheduler.nudge(),
    // a registration waits for the zone as a status request waits for a check
    ...(authoritative && { zoneAtRegistration: { find: authoritative.zoneOf, waitMs: v.statusWaitMs } }),
    onDomainsChanged: () => {
      // A registration or deletion may have written events: deliver them now.
      webhooks.deliverer.nudge();
      hooks.domainsChanged();
    },
  });
  const browser = createBrowserServices(config, store);
  const sending = createSending(
    config,
    store,
    keys,
    secretKey,
    browser,
    hooks,
    resolve,
    localDns,
    metrics,
    tracing,
  );
  return {
    domains,
    templates: browser.templates,
    images: browser.images,
    verification: { store: verificationStore, service: verification, scheduler },
    webhooks,
    sending,
    domainConnect,
    localDns,
    secretKey,
    hooks,
    close: async () => {
      await scheduler.stop();
      await webhooks.deliverer.stop();
      await sending.sender.stop();
      await verification.idle();
      await localDns?.close();
      await browser.close();
    },
  };
}

function createWebhooks(
  config: Config,
  store: KyselyStore,
  secretKey: () => Buffer,
  onError: (error: unknown) => void,
  metrics: ServiceMetrics | undefined,
  tracing: Tracing | undefined,
): Services['webhooks'] {
  const w = config.webhooks;
  const webhookStore = new WebhookStore(store.db, store.kind);
  const deliverer = new WebhookDeliverer({
    store: webhookStore,
    secretKey,
    records: recordSettings(config),
    retry: { baseMs: w.retryBaseMs, maxDelayMs: w.retryMaxDelayMs, retryForMs: w.retryForMs },
    disableAfterMs: w.disableAfterMs,
    timeoutMs: w.timeoutMs,
    allowPrivate: w.allowPrivateUrls,
    intervalMs: w.intervalMs,
    batchSize: w.batch,
    leaseMs: w.leaseMs,
    retentionMs: w.retentionMs,
    onError,
    ...(metrics && { onAttempt: metrics.webhookAttempted }),
    ...(tracing && { tracing }),
  });
  const service = new WebhookService({
    store: webhookStore,
    secretKey,
    maxPerAccount: w.maxPerAccount,
    allowPrivateUrls: w.allowPrivateUrls,
    onRetry: () => deliverer.nudge(),
  });
  return { service, deliverer };
}

function createSending(
  config: Config,
  store: KyselyStore,
  keys: DkimKeyStore,
  secretKey: () => Buffer,
  browser: BrowserServices,
  hooks: Services['hooks'],
  /** Verification's resolver and the local DNS: the sandbox judges mail from its zones by them. */
  localResolve: DnsResolve | undefined,
  localDns: LocalDns | undefined,
  metrics: ServiceMetrics | undefined,
  tracing: Tracing | undefined,
): Services['sending'] {
  const c = config.sending;
  const v = config.verification;
  const emails = new EmailStore(store.db, store.kind);
  // Each key derived from SECRET_KEY when first needed, once.
  const derivedOnce = (derive: (secret: Buffer) => Buffer) => {
    let key: Buffer | undefined;
    return () => (key ??= derive(secretKey()));
  };
  const unsubscribeKeyOnce = derivedOnce(unsubscribeKey);
  const returnPathKeyOnce = derivedOnce(returnPathKey);
  const trackingKeyOnce = derivedOnce(trackingKey);
  let signer: DkimSigner | undefined;
  // The sandbox (issue 40): never in production mode.
  const sandboxStore = config.production ? undefined : new SandboxStore(store.db);
  const sandboxInbox =
    sandboxStore &&
    new SandboxInbox({
      store: sandboxStore,
      resolvers: v.resolvers,
      dnsTimeoutMs: v.dnsTimeoutMs,
      sendingIp: c.returnPath.sendingIps[0],
      heloName: c.heloName,
      ...(localDns &&
        localResolve && {
          localZones: {
            serves: (name) => localDns.serves(name),
            resolve: localResolve,
            syncKeys: () => localDns.syncKeys(),
          },
        }),
    });
  const sender = new EmailSender({
    store: emails,
    signer: () => {
      signer ??= new DkimSigner({ keys: signingDomainsOncePerTurn(keys), secretKey: secretKey() });
      return signer;
    },
    smtp: {
      relayUrl: c.relayUrl,
      relayCa: c.relayCa,
      mxPort: c.mxPort,
      heloName: c.heloName,
      timeoutMs: c.timeoutMs,
      dataDoneTimeoutMs: c.dataDoneTimeoutMs,
      sessions: { perDestination: c.connectionsPerHost, messagesPerSession: c.messagesPerConnection },
      rates: c.rates,
      ...(c.tlsCa && { tlsCa: c.tlsCa }),
    },
    ...(c.mtaSts && {
      mtaSts: mtaStsOverDns({
        servers: v.resolvers,
        timeoutMs: v.dnsTimeoutMs,
        tries: v.dnsTries,
        allowPrivate: c.allowPrivateMx,
        ca: c.tlsCa,
      }),
    }),
    findHosts: createMailRouter({
      servers: v.resolvers,
      timeoutMs: v.dnsTimeoutMs,
      tries: v.dnsTries,
      allowPrivate: c.allowPrivateMx,
    }),
    retry: { baseMs: c.retryBaseMs, maxDelayMs: c.retryMaxDelayMs, retryForMs: c.retryForMs },
    intervalMs: c.intervalMs,
    batchSize: c.batch,
    leaseMs: c.leaseMs,
    baseUrl: () => hooks.baseUrl(),
    unsubscribeKey: unsubscribeKeyOnce,
    returnPathKey: returnPathKeyOnce,
    personalise: (message, recipientId) => browser.pool.personalise(message, trackingKeyOnce(), recipientId),
    senderId: config.dkimProviderHost,
    ...(sandboxInbox && { sandbox: sandboxInbox }),
    retention: { bodiesMs: c.retentionMs, messagesMs: c.eventRetentionMs },
    onError: (error) => hooks.reportSendingError(error),
    ...(metrics && { onAttempt: metrics.emailAttempted }),
    ...(tracing && { tracing }),
  });
  const service = new EmailService({
    emails,
    store,
    templates: browser.templates,
    compose: (input) => browser.pool.compose(input),
    limits: c,
    unsubscribeKey: unsubscribeKeyOnce,
    sandbox: !config.production,
    tracking: {
      hostsServed: config.tracking.listen !== undefined,
      baseUrl: () => hooks.baseUrl(),
      key: trackingKeyOnce,
      onError: (error) => hooks.reportSendingError(error),
    },
    onQueued: () => sender.nudge(),
  });
  const startInbound = (log: InboundOptions['log']) =>
    startInboundListener({
      listen: c.returnPath.listen!,
      hostName: c.returnPath.inboundMxHost ?? c.heloName,
      key: returnPathKeyOnce,
      recipientExists: (id) => emails.recipientExists(id),
      isReturnPathDomain: (domain) => emails.isReturnPathDomain(domain),
      recipientOf: (emailId, address) => emails.recipientOf(emailId, address),
      record: (id, feedback) => emails.recordFeedback(id, feedback, Date.now()),
      unsubscribe: (id) => emails.unsubscribe(id, Date.now()),
      maxBytes: INBOUND_MAX_BYTES,
      log,
    });
  return { service, sender, startInbound, sandbox: sandboxStore && new SandboxService(sandboxStore) };
}

/**
 * A report's size limit at the inbound listener: a DSN is a few kilobytes, an ARF report holds
 * the whole original message, which `MAX_EMAIL_BYTES` bounds at its default.
 */
const INBOUND_MAX_BYTES = 6 * 1024 * 1024;

/** The Domain Connect service, its signing key made once and shared by every process. */
function createDomainConnect(
  config: Config,
  store: KyselyStore,
  secretKey: () => Buffer,
  resolve: DnsResolve,
): DomainConnect | undefined {
  const dc = config.domainConnect;
  if (!dc.enabled) return undefined;
  const keys = new ServiceKeyStore(store.db, secretKey);
  let signingKey: Promise<KeyObject> | undefined;
  const loadKey = () =>
    keys
      .getOrCreate('domain-connect', () =>
        generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      )
      .then((pem) => createPrivateKey(pem));
  return new DomainConnect({
    identity: identityOf(config),
    signingKey: () => {
      signingKey ??= loadKey().catch((error) => {
        signingKey = undefined;
        throw error;
      });
      return signingKey;
    },
    // the settings request, then the template's: each has its own limit, and the TXT lookup
    budgetMs: dc.timeoutMs * 2 + config.verification.dnsTimeoutMs * config.verification.dnsTries,
    providerHost: config.dkimProviderHost,
    trackingTarget: config.tracking.cnameTarget,
    dmarcPolicy: config.dmarcPolicy,
    deps: {
      resolveTxt: (name) => resolve(name, 'TXT') as Promise<string[][]>,
      allowPorts: dc.allowPrivateUrls,
      fetchJson: (url) =>
        fetchJson(url, {
          timeoutMs: dc.timeoutMs,
          allowPrivate: dc.allowPrivateUrls,
          ca: dc.ca,
          // the configured resolvers, not getaddrinfo on libuv's four threads: a customer's
          // slow name must not hold up every other lookup of the process
          resolve: async (host) => {
            const [v4, v6] = await Promise.all(
              (['A', 'AAAA'] as const).map((type) => resolve(host, type).catch(() => [] as string[])),
            );
            return [
              ...(v4 as string[]).map((address) => ({ address, family: 4 })),
              ...(v6 as string[]).map((address) => ({ address, family: 6 })),
            ];
          },
        }),
    },
  });
}

/** What the records a customer publishes are made of, from configuration. */
function recordSettings(config: Config): RecordSettings {
  return {
    providerHost: config.dkimProviderHost,
    trackingTarget: config.tracking.cnameTarget,
    dmarcPolicy: config.dmarcPolicy,
    domainConnect: config.domainConnect.enabled,
  };
}
