/**
 * Hosted DKIM assembled for the server process: the key generator, the signer, and (when
 * `DNS_LISTEN` is set) the zone publisher and the authoritative responder with AXFR/NOTIFY, in a
 * thread of their own (`dns/responder-thread.ts`).
 * The composition root (`server.ts`) starts it and tells it when domains change.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { cookieSecret } from '../dns/cookie.js';
import { type ResponderThread, startResponderThread } from '../dns/responder-thread.js';
import type { MxData } from '../dns/zone.js';
import { dkimZoneOrigin } from '../domain/records.js';
import { dnsCounterBuffer } from '../metrics/dns-counters.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { DkimRotationStore } from '../store/dkim-rotation-store.js';
import type { DomainCache } from '../store/domain-cache.js';
import type { Database } from '../store/tables.js';
import { DkimKeyGenerator } from './key-generator.js';
import type { DkimKeyPair } from './key-pair.js';
import { publicationCheck } from './key-publication.js';
import { DkimKeyRotator } from './key-rotation.js';
import { KeygenPool } from './keygen-pool.js';
import { resolveSecretKey } from './secret-key.js';
import { DkimSigner } from './signer.js';

/** Where hosted DKIM reports; pino's `app.log` fits. Never handed secrets. */
export interface DkimLog {
  info(obj: object, msg: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object, msg: string): void;
}

export interface HostedDkim {
  keys: DkimKeyStore;
  generator: DkimKeyGenerator;
  /** Automatic rotation (issue 23); absent with `DKIM_ROTATION_ENABLED=false`. */
  rotator: DkimKeyRotator | undefined;
  signer: DkimSigner;
  /** The zone publisher and responder, in a thread of their own; present when `DNS_LISTEN` is set. */
  responder: ResponderThread | undefined;
  /** A registration or deletion committed: generate missing keys, republish the zone. */
  domainsChanged(): void;
  close(): Promise<void>;
}

export interface HostedDkimOptions {
  kind: 'sqlite' | 'postgres';
  /** Other TXT records the zone serves (the Domain Connect signing key), by label. */
  extraTxt?: ReadonlyMap<string, readonly string[]> | undefined;
  /** MX records of our zone by label (the return paths' `return-path`). */
  extraMx?: ReadonlyMap<string, readonly MxData[]> | undefined;
  /** The server's domain cache: a rotation step drops the domain from it. */
  domainCache?: DomainCache;
  /** Signing switched for a domain (its `domain.dkim_rotated` event is in the outbox). */
  onRotated?: () => void;
  /**
   * Where new key pairs come from; by default, generated on low-priority threads. The tests'
   * servers take keys generated once per test run (`test-support/dkim-test-keys.ts`).
   */
  generateKey?: () => Promise<DkimKeyPair>;
}

/** How long after a registration or deletion key generation and the zone reload start. */
const NUDGE_DELAY_MS = 100;
/** The rotation worker's pause between claims when nothing was due: a claim is one index probe. */
export const ROTATION_TICK_MS = 1_000;
/**
 * Domains rotated at once (a claim's size). Each switch holds a database connection for a
 * transaction of six round trips: with 50 at once on the default pool of 10, signing waited
 * behind them (PostgreSQL, 100,000 due at once: p99 3.2 → 38.8 ms); with 8, signing's p99 rose
 * 1.26× for 17 % fewer switches per second (`BENCH_ONLY=rotation`).
 */
export const ROTATION_BATCH = 8;
/** A rotation claim expires after this: a crashed process's domains come back then. */
export const ROTATION_LEASE_MS = 120_000;

export async function startHostedDkim(
  config: Config,
  db: Kysely<Database>,
  log: DkimLog,
  options: HostedDkimOptions,
): Promise<HostedDkim> {
  const { extraTxt, extraMx } = options;
  const secret = resolveSecretKey(config.dkim.secretKey, config.dataDir);
  if (secret.warning) log.warn(secret.warning);
  const keys = new DkimKeyStore(db);
  const dns = config.dns;
  let responder: ResponderThread | undefined;
  if (dns.listen) {
    responder = await startResponderThread(
      {
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        zone: {
          origin: dkimZoneOrigin(config.dkimProviderHost),
          nameServers: dns.nameServers,
          soaContact: dns.soaContact,
          ttl: dns.ttl,
          ...(extraTxt && { extraTxt: [...extraTxt].map(([label, texts]) => [label, [...texts]]) }),
          ...(extraMx && { extraMx: [...extraMx].map(([label, records]) => [label, [...records]]) }),
        },
        secondaries: dns.secondaries,
        listen: dns.listen,
        keyCacheSize: dns.keyCacheSize,
        udpBatch: dns.udpBatch,
        tcp: { max: dns.tcpMaxConnections, maxPerClient: dns.tcpMaxPerClient },
        rateLimit: dns.rateLimit === 0 ? false : { perSecond: dns.rateLimit, slip: dns.rateLimitSlip },
        // from SECRET_KEY, which every process shares: a server cookie from one is good at all
        cookieSecret: cookieSecret(secret.key).toString('hex'),
        counters: dnsCounterBuffer(),
      },
      log,
      (zone, digest, now) => keys.serialFor(zone, digest, now),
    );
  }
  const zoneThread = responder;
  const pool = new KeygenPool(config.dkim.keygenConcurrency, config.dkim.keygenNice);
  const generate = options.generateKey ?? (() => pool.generate());
  const generator = new DkimKeyGenerator({
    keys,
    secretKey: secret.key,
    concurrency: config.dkim.keygenConcurrency,
    generate,
    onKeys: () => zoneThread?.nudge(),
    onError: (error) => log.error({ err: error }, 'DKIM key generation failed; the next sweep retries'),
  });
  generator.start();
  const rotation = config.dkim.rotation;
  const rotator = rotation.enabled
    ? new DkimKeyRotator({
        store: new DkimRotationStore(db, options.kind, options.domainCache),
        settings: rotation,
        secretKey: secret.key,
        generate,
        isServed: publicationCheck({
          servedHere: zoneThread && ((token, record) => zoneThread.serves(token, record)),
          origin: dkimZoneOrigin(config.dkimProviderHost),
          secondaries: dns.secondaries,
        }),
        intervalMs: ROTATION_TICK_MS,
        batchSize: ROTATION_BATCH,
        leaseMs: ROTATION_LEASE_MS,
        onKeyReplaced: () => zoneThread?.nudge(),
        onRotated: () => options.onRotated?.(),
        onError: (error) => log.error({ err: error }, 'DKIM rotation failed; the domain is retried later'),
      })
    : undefined;
  rotator?.start();
  return {
    keys,
    generator,
    rotator,
    signer: new DkimSigner({ keys, secretKey: secret.key }),
    responder,
    domainsChanged() {
      // Background work: let the request's own follow-ups (the verification check a new
      // registration starts at once) reach the database first.
      setTimeout(() => {
        generator.nudge();
        zoneThread?.nudge();
      }, NUDGE_DELAY_MS).unref();
    },
    async close() {
      await rotator?.stop();
      await generator.stop();
      await pool.close();
      await responder?.close();
    },
  };
}
