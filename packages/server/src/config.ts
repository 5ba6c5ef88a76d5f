/**
 * Configuration from the environment, validated once at start-up with precise errors.
 * Every variable is documented in the README's configuration reference.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism, hostname } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type DestinationRates, parseDestinationRates } from './email/destination-rates.js';
import { splitHostPort } from './net/host-port.js';
import { type TracingConfig, tracingConfig } from './telemetry/tracing-config.js';

export interface Config {
  /** `NODE_ENV=production`: development defaults become refusals (`production.ts`). */
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dbPoolSize: number;
  /** `DB_PREPARED_STATEMENTS`: PostgreSQL's hottest reads as named statements (off for PgBouncer before 1.21 in transaction mode). */
  dbPreparedStatements: boolean;
  /** `<token>.dkim.<providerHost>` is the DKIM CNAME target. */
  dkimProviderHost: string;
  /** DMARC policy recommended in the TXT record, without quotes. */
  dmarcPolicy: string;
  logLevel: string;
  limits: Limits;
  trustProxy: boolean;
  /** Read caching: a revoked key stops working within `keyTtlMs`; see the README. */
  cache: { keyTtlMs: number; domainTtlMs: number };
  /** `REDIS_URL`: per-key request counts shared by every process; unset: each process counts its own. */
  redis: RedisConfig | undefined;
  verification: VerificationConfig;
  /** The browser-facing routes (templates, images); see `TemplateLimits`, `ImageLimits`. */
  templates: TemplateLimits;
  images: ImageLimits;
  /** Origins allowed to call the browser-facing routes (`*`: any). The domain API has no CORS. */
  corsOrigins: '*' | string[];
  /** The service's public base URL (`https://api.example.com`), for image URLs; unset: from the request. */
  publicUrl: string | undefined;
  /**
   * `EDITOR_BLOCKS`: the file URL of an ES module exporting `blocks`, the editor's custom blocks
   * (`@service/email-builder`'s `blocks` option), so stored templates holding them check and
   * render here as in the editor. Loaded and checked at start (`render/editor-blocks.ts`).
   */
  editorBlocks: string | undefined;
  /** Hosted DKIM keys (issue 4): encryption at rest and background generation. */
  dkim: DkimConfig;
  /** The authoritative responder for `dkim.<dkimProviderHost>` (issue 4). */
  dns: DnsConfig;
  /** Webhook endpoints and their delivery worker (issue 20). */
  webhooks: WebhookConfig;
  /** Sending mail from verified domains (issue 21). */
  sending: SendingConfig;
  /** Setting domains up through their DNS provider (issue 23). */
  domainConnect: DomainConnectConfig;
  /** Open and click tracking on customers' tracking hosts (issue 37). */
  tracking: TrackingConfig;
  /** The development local DNS (issue 40, `dns/local-dns.ts`). */
  localDns: LocalDnsConfig;
  /** Prometheus `/metrics` on a listener of its own (issue 39, `metrics/listener.ts`). */
  metrics: MetricsConfig;
  /** OpenTelemetry traces (issue 39, `telemetry/`): the standard `OTEL_*` variables; off without an endpoint. */
  tracing: TracingConfig;
}

export interface MetricsConfig {
  /** `METRICS_LISTEN`: `ip:port` of the metrics listener; unset: off. Never the API's port. */
  listen: HostPort | undefined;
  /** `METRICS_TOKEN`: the bearer token a scrape must send; unset: none asked (loopback only). */
  token: string | undefined;
}

export interface LocalDnsConfig {
  /**
   * `LOCAL_DNS_LISTEN`: the loopback `ip:port` where the local DNS answers the `.test` zones a
   * user published and the provider zone, and which verification asks for those zones. Outside
   * production mode it defaults to `127.0.0.1:5354`; `off` turns it off; production mode refuses
   * it (`production.ts`) and never starts it.
   */
  listen: HostPort | undefined;
  /** The address was the default: when its port is taken, a free one is used instead (and said). */
  defaulted: boolean;
}

export interface TrackingConfig {
  /** `TRACKING_CNAME_TARGET`: where every tracking host's CNAME points; `track.<DKIM_PROVIDER_HOST>` by default. */
  cnameTarget: string;
  /**
   * `TRACKING_LISTEN`: `ip:port` of the HTTPS listener that serves tracking hosts, with a
   * certificate per host from ACME. Unset: tracked links and the open pixel go to `PUBLIC_URL`.
   */
  listen: HostPort | undefined;
  /** `ACME_DIRECTORY_URL`: the certificate authority's ACME directory (Let's Encrypt by default). */
  acmeDirectoryUrl: string;
  /** `ACME_EMAIL`: the contact the ACME account gives the authority (expiry notices). */
  acmeEmail: string | undefined;
  /** `ACME_CA_FILE`: certificates to trust for the ACME server's own HTTPS (a private or test CA). */
  acmeCa: string | undefined;
}

export interface DomainConnectConfig {
  /**
   * `DOMAIN_CONNECT_ENABLED`: discover providers and sign apply URLs. On by default with
   * `DNS_LISTEN` only: providers check our signatures with the key our responder serves.
   */
  enabled: boolean;
  /** Our `providerId` in the template (`DOMAIN_CONNECT_PROVIDER_ID`, default `DKIM_PROVIDER_HOST`). */
  providerId: string;
  providerName: string;
  serviceId: string;
  serviceName: string;
  /** The `key` of signed URLs: the signing key's TXT records are at `<keyHost>.dkim.<DKIM_PROVIDER_HOST>`. */
  keyHost: string;
  /** `syncRedirectDomain`: where `redirect_uri` may point; empty: anywhere (URLs are signed). */
  redirectDomains: string[];
  logoUrl: string | undefined;
  timeoutMs: number;
  /** `DOMAIN_CONNECT_ALLOW_PRIVATE_URLS`: providers on private addresses (tests only). */
  allowPrivateUrls: boolean;
  /** `DOMAIN_CONNECT_CA_FILE`: PEM certificates a private provider's certificate chains to. */
  ca: string | undefined;
}

export interface SendingConfig {
  /** Run the sending worker in this process (`SENDING_ENABLED`). */
  enabled: boolean;
  /** `SMTP_RELAY_URL`: submit every message there; unset: deliver to each recipient's MX. */
  relayUrl: URL | undefined;
  /** `SMTP_RELAY_CA_FILE`: PEM certificates a private relay's certificate chains to. */
  relayCa: string | undefined;
  /** Port of recipients' MX hosts (`SMTP_MX_PORT`, 25). */
  mxPort: number;
  /**
   * `SMTP_ALLOW_PRIVATE_MX`: deliver to MX hosts on loopback, private and other non-public
   * addresses (tests and local development; production refuses it). Off, such an address is a
   * permanent failure, so a recipient domain cannot point our SMTP client at internal hosts.
   */
  allowPrivateMx: boolean;
  /** The name given in EHLO (`SMTP_HELO_NAME`). */
  heloName: string;
  /** `SMTP_TIMEOUT_MS`: the wait for a connection, a greeting and each command's reply. */
  timeoutMs: number;
  /** `SMTP_DATA_DONE_TIMEOUT_MS`: the wait for the reply to the final "." (RFC 5321: 10 min). */
  dataDoneTimeoutMs: number;
  /** `SMTP_CONNECTIONS_PER_HOST`: sessions open at once to one MX address (or the relay). */
  connectionsPerHost: number;
  /** `SMTP_MESSAGES_PER_CONNECTION`: transactions one session carries before its QUIT. */
  messagesPerConnection: number;
  /**
   * `SMTP_MESSAGES_PER_MINUTE` (each MX address no rule names; 0: no limit) and
   * `SMTP_DESTINATION_RATES` (the large providers' built-in rates, and MX host patterns):
   * messages per minute per destination (`email/destination-rates.ts`).
   */
  rates: DestinationRates;
  /** `SMTP_MTA_STS`: honour recipient domains' MTA-STS policies (RFC 8461). */
  mtaSts: boolean;
  /** `SMTP_TLS_CA_FILE`: PEM certificates MX and MTA-STS hosts may chain to, beside the system's. */
  tlsCa: string | undefined;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** 4xx answers and connection failures are retried this long, then the recipient has failed. */
  retryForMs: number;
  intervalMs: number;
  batch: number;
  leaseMs: number;
  /** Recipients (to + cc + bcc) per message. */
  maxRecipients: number;
  /** The composed message's size. */
  maxMessageBytes: number;
  /** Messages an account may submit per minute. */
  perMinute: number;
  /**
   * `EMAIL_COMPOSE_BUDGET`: composition units (one per started 16 KiB of `html` and `text`) an
   * account may spend per rate-limit window. Composition runs on the shared render threads;
   * this keeps one account's large messages from filling them for everyone.
   */
  composeBudget: number;
  /** Return paths (issue 34): what our zone publishes for them, and the listener their mail reaches. */
  returnPath: ReturnPathConfig;
  /** `EMAIL_RETENTION_DAYS`: a settled message's body is kept this long, then emptied. */
  retentionMs: number;
  /** `EMAIL_EVENT_RETENTION_DAYS`: a settled message, its recipients and events are kept this long. */
  eventRetentionMs: number;
}

export interface ReturnPathConfig {
  /**
   * `SENDING_IPS`: the addresses and CIDR ranges our mail leaves from; the SPF record at
   * `return-path.dkim.<DKIM_PROVIDER_HOST>` authorises exactly these (`ip4:` / `ip6:` terms).
   * Empty: no SPF record is published.
   */
  sendingIps: string[];
  /** `INBOUND_MX_HOST`: the MX target of every return path; unset: no MX is published. */
  inboundMxHost: string | undefined;
  /** `SMTP_LISTEN`: where the inbound SMTP listener takes bounces and complaints; unset: off. */
  listen: HostPort | undefined;
}

export interface WebhookConfig {
  /** Run the delivery worker in this process (`WEBHOOKS_ENABLED`). */
  enabled: boolean;
  /** Deliver to loopback, private and link-local addresses, and over plain http (tests, development). */
  allowPrivateUrls: boolean;
  maxPerAccount: number;
  /** One attempt's limit, connection to last byte. */
  timeoutMs: number;
  /** Delay after the first failure, doubled after each, up to `retryMaxDelayMs`. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** How long a delivery is retried before it has failed. */
  retryForMs: number;
  /** An endpoint failing every attempt for this long is disabled. */
  disableAfterMs: number;
  intervalMs: number;
  batch: number;
  /** How long a claim holds a delivery; an attempt that died is retried after it. */
  leaseMs: number;
  /** Events whose deliveries are all settled are deleted this long after they happened. */
  retentionMs: number;
}

export interface VerificationConfig {
  /** `ip` / `ip:port` / `[v6]:port`; empty means the system's resolvers. */
  resolvers: string[];
  dnsTimeoutMs: number;
  dnsTries: number;
  /** DNS queries in flight at once per process. */
  dnsConcurrency: number;
  /**
   * Ask each zone's authoritative servers (found through the resolvers) instead of trusting the
   * resolvers' caches; the resolvers answer when those servers do not.
   */
  authoritative: boolean;
  /** How long a verified record may be definitively missing before it is pending again. */
  graceMs: number;
  /** A status request re-checks a domain last checked longer ago than this… */
  statusMaxAgeMs: number;
  /** …and waits at most this long for the check. */
  statusWaitMs: number;
  schedulerIntervalMs: number;
  schedulerBatch: number;
  /** Domains checked at once per process. */
  checkConcurrency: number;
  /** How long a claim holds a domain; a check that died is retried after it. */
  leaseMs: number;
  /** Run the background scheduler in this process. */
  schedulerEnabled: boolean;
}

export interface RedisConfig {
  /** `redis://` or `rediss://` (TLS), with user, password and database number as Redis URLs carry them. */
  url: string;
  /** The longest a request waits for Redis before it is counted in this process alone. */
  timeoutMs: number;
}

export interface TemplateLimits {
  /** Largest template document, in bytes of JSON. */
  maxBytes: number;
  /** Largest request body on the templates routes (a batch of documents). */
  bodyLimitBytes: number;
  maxPerAccount: number;
  /** Templates one render request may name. */
  maxRenderItems: number;
  /** Bytes of JSON one render answer may hold; entries past it fail alone. */
  maxRenderOutputBytes: number;
  /** Render units a key may spend per rate-limit window (a unit: 16 KiB of template JSON, at least 1 per template). */
  renderBudget: number;
  /** Worker threads that render and check documents off the event loop. */
  renderThreads: number;
}

export interface ImageLimits {
  /** Largest uploaded file. */
  maxBytes: number;
  /** Largest width × height an image may have (decompression-bomb guard). */
  maxPixels: number;
  /** Bytes of distinct images one account may keep. */
  quotaBytes: number;
  /** Distinct images one account may keep. */
  quotaCount: number;
}

const DAY_MS = 24 * 3_600_000;

export interface DkimConfig {
  /** AES-256 key for private keys at rest; `undefined` = a development key kept in `dataDir`. */
  secretKey: Buffer | undefined;
  /** Key pairs generated at once, each on a low-priority worker thread. */
  keygenConcurrency: number;
  /** The key generation threads' niceness: 19 (lowest priority) yields to every other process. */
  keygenNice: number;
  /** Automatic key rotation (issue 23); see `dkim/rotation-plan.ts`. */
  rotation: {
    enabled: boolean;
    /** How long a selector signs before signing moves on (at least 5 days). */
    intervalMs: number;
    /** How long a retired key stays published for mail in flight. */
    retiredKeepMs: number;
    /**
     * From a key served everywhere to signing with it: what a resolver may still hold for its
     * name (the old key, or NXDOMAIN: the SOA minimum is the same `DNS_TTL`), plus two polls
     * of the other processes' zone publishers.
     */
    propagationMs: number;
  };
}

/** An `ip:port` pair. */
export interface HostPort {
  host: string;
  port: number;
}

export interface DnsConfig {
  /** Where the responder listens (UDP and TCP); `undefined` = responder off. */
  listen: HostPort | undefined;
  /** Secondaries allowed to AXFR the zone, and sent NOTIFY (at their port, 53 by default). */
  secondaries: HostPort[];
  /** NS records at the zone apex (absolute names without the trailing dot). */
  nameServers: string[];
  /** SOA RNAME: the zone contact as a domain name (`hostmaster.example.com`). */
  soaContact: string;
  /** TTL of the key records and of negative answers (SOA minimum), seconds. */
  ttl: number;
  /** UDP: identical answers per second to one client network; 0 = no response rate limiting. */
  rateLimit: number;
  /** UDP: every `rateLimitSlip`-th answer over the limit goes out empty and truncated (0 = none). */
  rateLimitSlip: number;
  /** TCP connections held at once, and per client address (IPv6: per /64). */
  tcpMaxConnections: number;
  tcpMaxPerClient: number;
  /**
   * `DNS_KEY_CACHE_SIZE`: most DKIM key records the responder holds in memory (default
   * 100,000, about 60 MB); the others are read from the database when asked (issue 39).
   */
  keyCacheSize: number;
  /**
   * `DNS_UDP_BATCH`: UDP read and written in batches through the native socket when it was built
   * (`dns/udp-batch.ts`; default true); false: through Node's `dgram`, as without the build.
   */
  udpBatch: boolean;
}

export interface Limits {
  maxItemsPerRequest: number;
  bodyLimitBytes: number;
  /** A client must send its whole header within this (slowloris). */
  headersTimeoutMs: number;
  /** …and its whole request within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  maxDomainsPerAccount: number;
  /** Requests per key (or per client address before authentication) in each window. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Largest page of `GET /api/public/domain`. */
  maxPageSize: number;
  /** Failed authentications per client address in each rate-limit window before 429. */
  authFailureMax: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Read the configuration from `env`; throws `ConfigError` naming the variable at fault. */
export function loadConfig(env: Env = process.env): Config {
  const dkimProviderHost = hostName(env, 'DKIM_PROVIDER_HOST', 'localhost');
  return {
    production: env.NODE_ENV?.trim() === 'production',
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbPreparedStatements: boolean(env, 'DB_PREPARED_STATEMENTS', true),
    dkimProviderHost,
    dmarcPolicy: dmarcPolicy(env),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    verification: {
      resolvers: resolverList(env, 'DNS_RESOLVERS'),
      dnsTimeoutMs: integer(env, 'DNS_TIMEOUT_MS', 2_000, 50, 60_000),
      dnsTries: integer(env, 'DNS_TRIES', 2, 1, 10),
      dnsConcurrency: integer(env, 'DNS_CONCURRENCY', 64, 1, 10_000),
      authoritative: boolean(env, 'VERIFY_AUTHORITATIVE', true),
      graceMs: integer(env, 'VERIFY_GRACE_MS', 72 * 3600_000, 0, 365 * 86_400_000),
      statusMaxAgeMs: integer(env, 'STATUS_CHECK_MAX_AGE_MS', 5_000, 0, 86_400_000),
      statusWaitMs: integer(env, 'STATUS_CHECK_WAIT_MS', 2_000, 0, 60_000),
      schedulerIntervalMs: integer(env, 'SCHEDULER_INTERVAL_MS', 1_000, 10, 3_600_000),
      schedulerBatch: integer(env, 'SCHEDULER_BATCH', 100, 1, 10_000),
      checkConcurrency: integer(env, 'CHECK_CONCURRENCY', 32, 1, 10_000),
      leaseMs: integer(env, 'CHECK_LEASE_MS', 60_000, 1_000, 3_600_000),
      schedulerEnabled: boolean(env, 'SCHEDULER_ENABLED', true),
    },
    cache: {
      keyTtlMs: integer(env, 'KEY_CACHE_TTL_MS', 5_000, 0, 3_600_000),
      domainTtlMs: integer(env, 'DOMAIN_CACHE_TTL_MS', 2_000, 0, 3_600_000),
    },
    redis: redis(env),
    limits: {
      maxItemsPerRequest: integer(env, 'MAX_ITEMS_PER_REQUEST', 100, 1, 10_000),
      bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 64 * 1024 * 1024),
      headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
      requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
      keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
      maxDomainsPerAccount: integer(env, 'MAX_DOMAINS_PER_ACCOUNT', 10_000, 1, 10_000_000),
      rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 1200, 1, 100_000_000),
      rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000),
      maxPageSize: 100,
      authFailureMax: integer(env, 'AUTH_FAILURE_MAX', 30, 1, 1_000_000),
    },
    templates: {
      maxBytes: integer(env, 'TEMPLATE_MAX_BYTES', 256 * 1024, 1024, 16 * 1024 * 1024),
      bodyLimitBytes: integer(env, 'TEMPLATE_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
      maxPerAccount: integer(env, 'MAX_TEMPLATES_PER_ACCOUNT', 1000, 1, 1_000_000),
      maxRenderItems: integer(env, 'TEMPLATE_RENDER_MAX_ITEMS', 20, 1, 1000),
      maxRenderOutputBytes: integer(
        env,
        'TEMPLATE_RENDER_MAX_OUTPUT_BYTES',
        4 * 1024 * 1024,
        64 * 1024,
        1024 * 1024 * 1024,
      ),
      renderBudget: integer(env, 'RENDER_BUDGET', 1200, 1, 100_000_000),
      renderThreads: integer(env, 'RENDER_THREADS', defaultWorkerThreads(), 1, 64),
    },
    images: {
      maxBytes: integer(env, 'IMAGE_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxPixels: integer(env, 'IMAGE_MAX_PIXELS', 50_000_000, 1, 1_000_000_000),
      quotaBytes: integer(env, 'IMAGE_QUOTA_BYTES', 1024 * 1024 * 1024, 1024, Number.MAX_SAFE_INTEGER),
      quotaCount: integer(env, 'IMAGE_QUOTA_COUNT', 10_000, 1, 100_000_000),
    },
    corsOrigins: corsOrigins(env),
    publicUrl: publicUrl(env),
    editorBlocks: editorBlocks(env),
    dkim: {
      secretKey: secretKey(env),
      keygenConcurrency: integer(env, 'DKIM_KEYGEN_CONCURRENCY', defaultWorkerThreads(), 1, 64),
      keygenNice: integer(env, 'DKIM_KEYGEN_NICE', 19, 0, 19),
      rotation: {
        enabled: boolean(env, 'DKIM_ROTATION_ENABLED', true),
        propagationMs: integer(env, 'DNS_TTL', 300, 1, 86_400) * 1000 + 2_000,
        intervalMs: integer(env, 'DKIM_ROTATION_INTERVAL_DAYS', 90, 5, 3650) * DAY_MS,
        retiredKeepMs: integer(env, 'DKIM_RETIRED_KEY_DAYS', 7, 1, 365) * DAY_MS,
      },
    },
    dns: {
      listen: env.DNS_LISTEN?.trim() ? hostPort('DNS_LISTEN', env.DNS_LISTEN.trim(), undefined) : undefined,
      secondaries: (env.DNS_SECONDARIES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => hostPort('DNS_SECONDARIES', s, 53)),
      nameServers: hostNames(env, 'DNS_NS', [`ns.${dkimProviderHost}`]),
      soaContact: hostName(env, 'DNS_SOA_CONTACT', `hostmaster.${dkimProviderHost}`),
      ttl: integer(env, 'DNS_TTL', 300, 1, 86_400),
      rateLimit: integer(env, 'DNS_RATE_LIMIT', 20, 0, 1_000_000),
      rateLimitSlip: integer(env, 'DNS_RATE_LIMIT_SLIP', 2, 0, 10),
      tcpMaxConnections: integer(env, 'DNS_TCP_MAX_CONNECTIONS', 256, 1, 100_000),
      tcpMaxPerClient: integer(env, 'DNS_TCP_MAX_PER_CLIENT', 16, 1, 100_000),
      keyCacheSize: integer(env, 'DNS_KEY_CACHE_SIZE', 100_000, 1, 100_000_000),
      udpBatch: boolean(env, 'DNS_UDP_BATCH', true),
    },
    webhooks: {
      enabled: boolean(env, 'WEBHOOKS_ENABLED', true),
      allowPrivateUrls: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
      maxPerAccount: integer(env, 'MAX_WEBHOOKS_PER_ACCOUNT', 10, 1, 1000),
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 5_000, 1, 86_400_000),
      retryMaxDelayMs: integer(env, 'WEBHOOK_RETRY_MAX_DELAY_MS', 6 * 3600_000, 1, 7 * 86_400_000),
      retryForMs: integer(env, 'WEBHOOK_RETRY_FOR_MS', 3 * 86_400_000, 0, 30 * 86_400_000),
      disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_MS', 5 * 86_400_000, 0, 365 * 86_400_000),
      intervalMs: integer(env, 'WEBHOOK_INTERVAL_MS', 1_000, 10, 3_600_000),
      batch: integer(env, 'WEBHOOK_BATCH', 50, 1, 10_000),
      leaseMs: integer(env, 'WEBHOOK_LEASE_MS', 60_000, 1_000, 3_600_000),
      retentionMs: integer(env, 'WEBHOOK_RETENTION_MS', 30 * 86_400_000, 0, 3650 * 86_400_000),
    },
    sending: {
      enabled: boolean(env, 'SENDING_ENABLED', true),
      relayUrl: relayUrl(env),
      relayCa: caFile(env, 'SMTP_RELAY_CA_FILE'),
      mxPort: integer(env, 'SMTP_MX_PORT', 25, 1, 65_535),
      allowPrivateMx: boolean(env, 'SMTP_ALLOW_PRIVATE_MX', false),
      heloName: hostName(env, 'SMTP_HELO_NAME', machineName()),
      timeoutMs: integer(env, 'SMTP_TIMEOUT_MS', 60_000, 100, 600_000),
      dataDoneTimeoutMs: integer(env, 'SMTP_DATA_DONE_TIMEOUT_MS', 600_000, 100, 3_600_000),
      connectionsPerHost: integer(env, 'SMTP_CONNECTIONS_PER_HOST', 20, 1, 100),
      messagesPerConnection: integer(env, 'SMTP_MESSAGES_PER_CONNECTION', 100, 1, 10_000),
      rates: destinationRates(env),
      mtaSts: boolean(env, 'SMTP_MTA_STS', true),
      tlsCa: caFile(env, 'SMTP_TLS_CA_FILE'),
      retryBaseMs: integer(env, 'SEND_RETRY_BASE_MS', 60_000, 1, 86_400_000),
      retryMaxDelayMs: integer(env, 'SEND_RETRY_MAX_DELAY_MS', 3 * 3600_000, 1, 86_400_000),
      retryForMs: integer(env, 'SEND_RETRY_FOR_MS', 72 * 3600_000, 0, 30 * 86_400_000),
      intervalMs: integer(env, 'SEND_INTERVAL_MS', 1_000, 10, 3_600_000),
      batch: integer(env, 'SEND_BATCH', 20, 1, 1_000),
      leaseMs: integer(env, 'SEND_LEASE_MS', 600_000, 1_000, 3_600_000),
      maxRecipients: integer(env, 'MAX_RECIPIENTS_PER_EMAIL', 50, 1, 1_000),
      maxMessageBytes: integer(env, 'MAX_EMAIL_BYTES', 5 * 1024 * 1024, 1024, 50 * 1024 * 1024),
      perMinute: integer(env, 'MAX_EMAILS_PER_MINUTE', 600, 1, 1_000_000),
      composeBudget: integer(env, 'EMAIL_COMPOSE_BUDGET', 2400, 1, 100_000_000),
      ...retention(env),
      returnPath: {
        sendingIps: sendingIps(env),
        inboundMxHost: env.INBOUND_MX_HOST?.trim() ? hostName(env, 'INBOUND_MX_HOST', '') : undefined,
        listen: env.SMTP_LISTEN?.trim()
          ? hostPort('SMTP_LISTEN', env.SMTP_LISTEN.trim(), undefined)
          : undefined,
      },
    },
    domainConnect: domainConnect(env, dkimProviderHost, Boolean(env.DNS_LISTEN?.trim()), publicUrl(env)),
    localDns: localDns(env),
    metrics: metrics(env),
    tracing: tracing(env),
    tracking: {
      cnameTarget: hostName(env, 'TRACKING_CNAME_TARGET', `track.${dkimProviderHost}`),
      listen: env.TRACKING_LISTEN?.trim()
        ? hostPort('TRACKING_LISTEN', env.TRACKING_LISTEN.trim(), 443)
        : undefined,
      acmeDirectoryUrl: acmeDirectoryUrl(env),
      acmeEmail: env.ACME_EMAIL?.trim() || undefined,
      acmeCa: caFile(env, 'ACME_CA_FILE'),
    },
  };
}

function domainConnect(
  env: Env,
  dkimProviderHost: string,
  servesDns: boolean,
  publicUrl: string | undefined,
): DomainConnectConfig {
  const providerId = hostName(env, 'DOMAIN_CONNECT_PROVIDER_ID', dkimProviderHost);
  const providerName = env.DOMAIN_CONNECT_PROVIDER_NAME?.trim() || providerId;
  const serviceId = env.DOMAIN_CONNECT_SERVICE_ID?.trim() || 'sending-domain';
  // the template's file name is `providerId.serviceId.json`: URL-safe, lowercase characters
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(serviceId))
    throw new ConfigError(
      `DOMAIN_CONNECT_SERVICE_ID must be lowercase letters, digits, ".", "_" or "-"; got "${serviceId}"`,
    );
  const keyHost = env.DOMAIN_CONNECT_KEY?.trim() || '_dck1';
  if (!/^_?[a-z0-9][a-z0-9-]{0,61}$/.test(keyHost))
    throw new ConfigError(`DOMAIN_CONNECT_KEY must be one DNS label such as _dck1; got "${keyHost}"`);
  const logoUrl = env.DOMAIN_CONNECT_LOGO_URL?.trim() || undefined;
  if (logoUrl !== undefined && !/^https:\/\/\S+$/.test(logoUrl))
    throw new ConfigError(`DOMAIN_CONNECT_LOGO_URL must be an https URL; got "${logoUrl}"`);
  const caFile = env.DOMAIN_CONNECT_CA_FILE?.trim();
  if (caFile && !existsSync(caFile))
    throw new ConfigError(`DOMAIN_CONNECT_CA_FILE names ${caFile}, which does not exist`);
  return {
    // On by default where providers can check our signatures: our responder serves the key.
    enabled: boolean(env, 'DOMAIN_CONNECT_ENABLED', servesDns),
    providerId,
    providerName,
    serviceId,
    serviceName: env.DOMAIN_CONNECT_SERVICE_NAME?.trim() || `${providerName} sending domain (DKIM and DMARC)`,
    keyHost,
    redirectDomains: hostNames(
      env,
      'DOMAIN_CONNECT_REDIRECT_DOMAINS',
      publicUrl === undefined ? [] : [new URL(publicUrl).hostname],
    ),
    logoUrl,
    timeoutMs: integer(env, 'DOMAIN_CONNECT_TIMEOUT_MS', 3_000, 100, 60_000),
    allowPrivateUrls: boolean(env, 'DOMAIN_CONNECT_ALLOW_PRIVATE_URLS', false),
    ca: caFile ? readFileSync(caFile, 'utf8') : undefined,
  };
}

/** This machine's name if it is a valid host name, for EHLO; `localhost` otherwise. */
function machineName(): string {
  const name = hostname().toLowerCase();
  return /^[a-z0-9]([a-z0-9.-]{0,198}[a-z0-9])?$/.test(name) ? name : 'localhost';
}

/**
 * `SENDING_IPS`: comma-separated addresses or CIDR ranges (`192.0.2.10`, `198.51.100.0/24`,
 * `2001:db8::/48`), as SPF's `ip4:` and `ip6:` take them. The record they make must fit one
 * TXT string (255 bytes): ranges, not long lists.
 */
function sendingIps(env: Env): string[] {
  const raw = env.SENDING_IPS?.trim();
  if (!raw) return [];
  const ips = raw.split(',').map((one) => one.trim().toLowerCase());
  for (const ip of ips) {
    const [address = '', prefix, ...rest] = ip.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0)
      throw new ConfigError(
        `SENDING_IPS must be comma-separated addresses or CIDR ranges such as 192.0.2.10,198.51.100.0/24; got "${ip.slice(0, 60)}"`,
      );
  }
  if (spfRecord(ips).length > 255)
    throw new ConfigError(
      `SENDING_IPS makes an SPF record of ${spfRecord(ips).length} bytes; one TXT string holds 255: give ranges (CIDR) instead of single addresses`,
    );
  return ips;
}

/** The SPF record (RFC 7208) that authorises exactly `ips` and fails everything else. */
/** `SMTP_MESSAGES_PER_MINUTE` and `SMTP_DESTINATION_RATES` (see {@link SendingConfig.rates}). */
function destinationRates(env: Env): DestinationRates {
  const perMinute = integer(env, 'SMTP_MESSAGES_PER_MINUTE', 0, 0, 1_000_000);
  try {
    return parseDestinationRates(env.SMTP_DESTINATION_RATES, perMinute);
  } catch (error) {
    throw new ConfigError(`SMTP_DESTINATION_RATES: ${(error as Error).message}`);
  }
}

export function spfRecord(ips: readonly string[]): string {
  return [
    'v=spf1',
    ...ips.map((ip) => `${isIP(ip.split('/')[0]!) === 6 ? 'ip6' : 'ip4'}:${ip}`),
    '-all',
  ].join(' ');
}

function acmeDirectoryUrl(env: Env): string {
  const raw = env.ACME_DIRECTORY_URL?.trim();
  if (!raw) return 'https://acme-v02.api.letsencrypt.org/directory';
  if (!URL.canParse(raw) || new URL(raw).protocol !== 'https:')
    throw new ConfigError(`ACME_DIRECTORY_URL must be an https:// URL of an ACME directory; got "${raw}"`);
  return raw;
}

function relayUrl(env: Env): URL | undefined {
  const raw = env.SMTP_RELAY_URL?.trim();
  if (!raw) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(
      `SMTP_RELAY_URL must be smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465; got "${raw.replace(/:[^:@/]*@/, ':…@')}"`,
    );
  }
  return url;
}

/** The PEM file `name` points at, read; unset: `undefined`. */
function caFile(env: Env, name: string): string | undefined {
  const file = env[name]?.trim();
  if (!file) return undefined;
  if (!existsSync(file)) throw new ConfigError(`${name} names ${file}, which does not exist`);
  return readFileSync(file, 'utf8');
}

function corsOrigins(env: Env): '*' | string[] {
  const raw = env.CORS_ORIGINS?.trim();
  if (!raw || raw === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim().replace(/\/$/, ''));
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new ConfigError(
        `CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com; got "${origin}"`,
      );
  }
  return origins;
}

/** `REDIS_URL` is never echoed in an error: it may hold a password. */
function redis(env: Env): RedisConfig | undefined {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  if (!/^rediss?:\/\/[^\s]+$/.test(url) || !URL.canParse(url))
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379');
  return { url, timeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 200, 10, 10_000) };
}

function editorBlocks(env: Env): string | undefined {
  const raw = env.EDITOR_BLOCKS?.trim();
  if (!raw) return undefined;
  const file = path.resolve(raw);
  if (!existsSync(file))
    throw new ConfigError(
      `EDITOR_BLOCKS must name an ES module file exporting \`blocks\`; "${raw}" does not exist`,
    );
  return pathToFileURL(file).href;
}

function publicUrl(env: Env): string | undefined {
  const raw = env.PUBLIC_URL?.trim().replace(/\/+$/, '');
  if (!raw) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw) || !URL.canParse(raw))
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL such as https://api.example.com; got "${raw}"`);
  return raw;
}

/**
 * Worker threads (key generation, rendering) by default: every core but one, so the event
 * loop keeps a core. Key generation runs at the lowest priority (keygen-pool.ts), yet on 2
 * cores a second generation thread still cost registration p99 (18 ms with one thread, 63 ms
 * with two, in the same benchmark run) for no faster burst.
 */
function defaultWorkerThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * `SECRET_KEY`: 32 bytes as 64 hex digits or as base64 (44 characters). Never echoed in errors.
 */
function secretKey(env: Env): Buffer | undefined {
  const raw = env.SECRET_KEY?.trim();
  if (!raw) return undefined;
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) key = Buffer.from(raw, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) key = Buffer.from(raw, 'base64');
  if (key?.length !== 32) {
    throw new ConfigError(
      `SECRET_KEY must be 32 bytes as 64 hex digits or 44 base64 characters (e.g. from "openssl rand -base64 32"); got ${raw.length} characters`,
    );
  }
  return key;
}

/** `ip:port` (`[v6]:port` for IPv6); the port may be omitted where `defaultPort` is given. */
function hostPort(name: string, raw: string, defaultPort: number | undefined): HostPort {
  const parts = splitHostPort(raw);
  const written = 'host' in parts ? parts.port : undefined;
  const port = written === undefined ? defaultPort : /^\d{1,5}$/.test(written) ? Number(written) : undefined;
  if (!('host' in parts) || port === undefined || port > 65535) {
    const form = defaultPort === undefined ? 'ip:port' : 'ip[:port]';
    throw new ConfigError(`${name} must be ${form} (e.g. 127.0.0.1:5300, [::1]:5300); got "${raw}"`);
  }
  return { host: parts.host, port };
}

/**
 * `METRICS_LISTEN` and `METRICS_TOKEN`. Metrics tell whoever reads them how busy the service is
 * and how its queues stand, so a listener reachable from other machines must ask for a token:
 * without `METRICS_TOKEN` only a loopback address is accepted.
 */
function metrics(env: Env): MetricsConfig {
  const raw = env.METRICS_LISTEN?.trim();
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  if (!raw) return { listen: undefined, token };
  const listen = hostPort('METRICS_LISTEN', raw, undefined);
  const loopback = listen.host === '::1' || (isIP(listen.host) === 4 && listen.host.startsWith('127.'));
  if (!loopback && token === undefined)
    throw new ConfigError(
      `METRICS_LISTEN on a non-loopback address (${listen.host}) needs METRICS_TOKEN, so that only your scraper reads the metrics`,
    );
  return { listen, token };
}

/** The `OTEL_*` variables (`telemetry/tracing-config.ts`), their mistakes as configuration errors. */
function tracing(env: Env): TracingConfig {
  try {
    return tracingConfig(env);
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError(error.message);
    throw error;
  }
}

/** The local DNS's default address, outside production mode. */
export const LOCAL_DNS_DEFAULT: HostPort = { host: '127.0.0.1', port: 5354 };

/**
 * `LOCAL_DNS_LISTEN`: a loopback address only (it answers whatever a user published, for this
 * machine's verification), `off`, or unset for {@link LOCAL_DNS_DEFAULT} outside production.
 * In production mode a value is kept so that `production.ts` can refuse it by name.
 */
function localDns(env: Env): LocalDnsConfig {
  const raw = env.LOCAL_DNS_LISTEN?.trim();
  const production = env.NODE_ENV?.trim() === 'production';
  if (raw === 'off') return { listen: undefined, defaulted: false };
  if (!raw)
    return production
      ? { listen: undefined, defaulted: false }
      : { listen: LOCAL_DNS_DEFAULT, defaulted: true };
  const listen = hostPort('LOCAL_DNS_LISTEN', raw, undefined);
  const loopback = listen.host === '::1' || (isIP(listen.host) === 4 && listen.host.startsWith('127.'));
  if (!loopback)
    throw new ConfigError(
      `LOCAL_DNS_LISTEN must be a loopback address (127.0.0.0/8 or [::1]), or off: it answers records for this machine's verification only; got "${raw}"`,
    );
  return { listen, defaulted: false };
}

function hostNames(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  return raw.split(',').map((one) => {
    if (one.trim() === '') throw new ConfigError(`${name} must be comma-separated host names; got "${raw}"`);
    return hostName({ [name]: one }, name, '');
  });
}

/**
 * `EMAIL_RETENTION_DAYS` (bodies, 30) and `EMAIL_EVENT_RETENTION_DAYS` (the rest, 365), in
 * days, fractions allowed (`0.5`: 12 hours); the events are kept at least as long as bodies.
 */
function retention(env: Env): { retentionMs: number; eventRetentionMs: number } {
  const days = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback * 86_400_000;
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || value <= 0 || value > 3650) {
      throw new ConfigError(
        `${name} must be a number of days above 0 and at most 3650 (0.5 is 12 hours); got "${raw}"`,
      );
    }
    return Math.round(value * 86_400_000);
  };
  const retentionMs = days('EMAIL_RETENTION_DAYS', 30);
  const eventRetentionMs = days('EMAIL_EVENT_RETENTION_DAYS', 365);
  if (eventRetentionMs < retentionMs) {
    throw new ConfigError(
      'EMAIL_EVENT_RETENTION_DAYS must be at least EMAIL_RETENTION_DAYS: a message outlives its body, not the reverse',
    );
  }
  return { retentionMs, eventRetentionMs };
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  }
  return Number(raw);
}

/** `DNS_RESOLVERS`: comma-separated `ip`, `ip:port` or `[ipv6]:port`, the forms Node's `Resolver#setServers` takes. */
function resolverList(env: Env, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const server = entry.trim();
    const parts = splitHostPort(server);
    const problem = 'problem' in parts ? parts.problem : portProblem(parts.port);
    if (problem !== undefined) {
      throw new ConfigError(
        `${name} must be a comma-separated list of ip, ip:port or [ipv6]:port; "${server}" ${problem}`,
      );
    }
    return server;
  });
}

/** A resolver port must be 1–65535: Node's `setServers` aborts the process on port 0. */
function portProblem(port: string | undefined): string | undefined {
  if (port === undefined) return undefined;
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535
    ? undefined
    : `has port "${port}", which is not from 1 to 65535`;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false; got "${raw}"`);
}

function oneOf(env: Env, name: string, fallback: string, allowed: string[]): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!allowed.includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got "${raw}"`);
  return raw;
}

function hostName(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim().toLowerCase().replace(/\.$/, '');
  if (!raw) return fallback;
  const labels = raw.split('.');
  if (raw.length > 200 || labels.some((l) => !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) {
    throw new ConfigError(`${name} must be a host name such as mail.example.com; got "${raw}"`);
  }
  return raw;
}

function dmarcPolicy(env: Env): string {
  const raw = env.DMARC_POLICY?.trim().replace(/^"|"$/g, '');
  if (!raw) return 'v=DMARC1; p=none;';
  if (!/^v=DMARC1\s*;/.test(raw) || /["\\\p{Cc}]/u.test(raw) || raw.length > 255) {
    throw new ConfigError(`DMARC_POLICY must be a DMARC record starting with "v=DMARC1;"; got "${raw}"`);
  }
  return raw;
}
