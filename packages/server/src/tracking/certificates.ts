/**
 * Certificates for the open/click-tracking hosts (`track.<customer domain>`): obtained on demand
 * from an ACME CA (RFC 8555) with the tls-alpn-01 challenge (RFC 8737), which the tracking HTTPS
 * listener answers itself, so no port 80 is needed.
 *
 * Every process serves from an in-memory LRU of `SecureContext`s and falls back to the shared
 * {@link CertificateStore}; pending challenges sit in the store too, because the CA's validation
 * connections (several, from different vantage points) may reach any process behind the port.
 */
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type acme from 'acme-client';
import { Lru } from '../lru.js';
import { loadAcme, trustAcmeServer } from './acme-client.js';
import { TrackingCertificateError } from './certificate-errors.js';
import type { CertificateStore, StoredCertificate } from './certificate-storage.js';

/** Options of {@link TrackingCertificates}. */
export interface TrackingCertificatesOptions {
  /** The ACME directory URL (e.g. `acme.directory.letsencrypt.production`). */
  directoryUrl: string;
  /** Given to the CA as `mailto:` contact of the account. */
  contactEmail?: string;
  store: CertificateStore;
  /** Only hosts this answers true for ever get an order (a verified tracking record); anything else gets no certificate. */
  allowHost: (host: string) => Promise<boolean>;
  /** Extra CA certificates (PEM) to trust for the ACME server's own HTTPS (pebble in tests). */
  acmeServerCa?: string;
  now?: () => number;
  /** Failed orders, failing stores and `allowHost` throwing; refused and invalid names are no errors. */
  onError?: (error: unknown, host: string) => void;
  /** How many hosts' `SecureContext`s stay in memory (LRU); 5000 by default. */
  cacheSize?: number;
  /** Renew when less than this is left of a certificate; 30 days by default, as Let's Encrypt advises for 90-day certificates. */
  renewBeforeMs?: number;
  /** After a failed order, no new one for the host for this long (1 hour by default), so a storm of handshakes cannot hammer the CA. */
  failedOrderRetryMs?: number;
  /** A host `allowHost` refused is refused without asking again for this long; 1 minute by default. */
  refusedHostCacheMs?: number;
  /** First delay between polls of a pending order (doubling up to 30 s); 5 s by default, as acme-client's. */
  pollIntervalMs?: number;
}

/** The ALPN protocol of tls-alpn-01 validation connections (RFC 8737 §6.2). */
export const ACME_TLS_ALPN = 'acme-tls/1';
/** What the tracking listener speaks to everyone else. */
const HTTP_ALPN = 'http/1.1';
/** An order that has not finished by then counts as failed (acme-client has no overall timeout). */
const ORDER_TIMEOUT_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

type SniCallback = (error: Error | null, context?: tls.SecureContext) => void;

/**
 * Serves `track.<customer domain>` hosts with certificates it orders itself, answering the
 * tls-alpn-01 challenge on the same listener.
 *
 * The first handshake for an allowed host with no certificate *waits* for the order (a few
 * seconds at Let's Encrypt) instead of failing: the first open or click of a campaign is not
 * lost, and the wait costs one pending socket per handshake, for verified hosts only (refused,
 * invalid and backed-off hosts fail at once). Concurrent handshakes share one order.
 *
 * @example
 * const certificates = new TrackingCertificates({ directoryUrl, store, allowHost });
 * https.createServer({ ...certificates.serverOptions() }, app).listen(443);
 */
export class TrackingCertificates {
  /**
   * For `https.createServer({ SNICallback })`: the host's certificate, or the challenge
   * certificate for a validation connection. Node calls it with the `TLSSocket` as `this`; pass
   * it on as it is (a wrapper must `.call(this, …)`). Never throws; errors fail the handshake.
   */
  readonly SNICallback: (this: tls.TLSSocket, servername: string, callback: SniCallback) => void;
  /**
   * For `https.createServer({ ALPNCallback })` (Node 20): picks `acme-tls/1` for
   * validation connections and `http/1.1` for everyone else. Node calls it with
   * the `TLSSocket` as `this`. It replaces `ALPNProtocols`, which Node refuses beside it.
   */
  readonly ALPNCallback: (
    this: tls.TLSSocket,
    offer: { servername: string; protocols: string[] },
  ) => string | undefined;

  readonly #options: Required<Omit<TrackingCertificatesOptions, 'contactEmail' | 'acmeServerCa'>> &
    Pick<TrackingCertificatesOptions, 'contactEmail'>;
  readonly #served: Lru<{ context: tls.SecureContext; renewAt: number }>;
  readonly #refused: Lru<{ until: number; error: TrackingCertificateError }>;
  readonly #failed: Lru<{ until: number; error: TrackingCertificateError }>;
  readonly #ordering = new Map<string, Promise<StoredCertificate>>();
  /** Challenge certificates of this process's orders in progress, by host. */
  readonly #challenges = new Map<string, tls.SecureContext>();
  /** Handshakes whose ALPN callback chose `acme-tls/1`, for `SNICallback`, which runs next. */
  readonly #validations = new WeakSet<tls.TLSSocket>();
  /**
   * Each process renews up to 1/30 of the renewal window (a day of 30) later than the threshold,
   * at random: the first one to renew stores the certificate, and the others find it there
   * instead of ordering again.
   */
  readonly #renewJitter = Math.random() / 30;
  #client: Promise<acme.Client> | undefined;

  constructor(options: TrackingCertificatesOptions) {
    if (!/^https?:\/\//.test(options.directoryUrl))
      throw new RangeError(
        `directoryUrl must be an http(s) URL, got ${JSON.stringify(options.directoryUrl)}`,
      );
    this.#options = {
      now: Date.now,
      onError: () => {},
      cacheSize: 5000,
      renewBeforeMs: 30 * DAY_MS,
      failedOrderRetryMs: 3_600_000,
      refusedHostCacheMs: 60_000,
      pollIntervalMs: 5000,
      ...options,
    };
    if (!Number.isInteger(this.#options.cacheSize) || this.#options.cacheSize < 1)
      throw new RangeError(`cacheSize must be a positive integer, got ${this.#options.cacheSize}`);
    if (options.acmeServerCa !== undefined) trustAcmeServer(options.directoryUrl, options.acmeServerCa);
    this.#served = new Lru(this.#options.cacheSize);
    this.#refused = new Lru(this.#options.cacheSize);
    this.#failed = new Lru(this.#options.cacheSize);
    const certificates = this;
    this.SNICallback = function (servername, callback) {
      certificates.#sni(this instanceof tls.TLSSocket ? this : undefined, servername, callback);
    };
    this.ALPNCallback = function (offer) {
      return certificates.#alpn(this instanceof tls.TLSSocket ? this : undefined, offer);
    };
  }

  /** The options to spread into `https.createServer`. */
  serverOptions(): {
    SNICallback: TrackingCertificates['SNICallback'];
    ALPNCallback: TrackingCertificates['ALPNCallback'];
  } {
    return { SNICallback: this.SNICallback, ALPNCallback: this.ALPNCallback };
  }

  /**
   * Obtain (or renew) now; resolves once the certificate is stored. A stored certificate that is
   * not yet due for renewal is returned as it is. Used by tests and by a warm-up when a tracking
   * record is verified. Rejects with a {@link TrackingCertificateError}.
   */
  ensure(servername: string): Promise<StoredCertificate> {
    const host = trackingHostName(servername);
    if (host === undefined) return Promise.reject(invalidHost(servername));
    let order = this.#ordering.get(host);
    if (order === undefined) {
      order = this.#obtain(host).finally(() => this.#ordering.delete(host));
      this.#ordering.set(host, order);
    }
    return order;
  }

  /**
   * RFC 8737 §3 wants the challenge certificate on exactly the connections that negotiate
   * `acme-tls/1`, but Node picks the certificate in `SNICallback`, which is told nothing of ALPN.
   * `SNICallback` is OpenSSL's certificate callback, not its servername callback, and where it
   * runs against ALPN selection depends on the version (measured with Node 20.20, OpenSSL 3):
   * - TLS 1.3: the ALPN callback runs first. It marks the socket (Node calls both callbacks with
   *   the `TLSSocket` as `this`) and `SNICallback` then serves the challenge certificate.
   * - TLS 1.2: `SNICallback` runs first, so the certificate is chosen before anyone knows the
   *   connection is a validation. Swapping the challenge in from the ALPN callback
   *   (`tlsSocket.setKeyCert`, Node ≥ 20.17) does not help: acme-client's challenge certificate
   *   carries only the keyCertSign and cRLSign key usages, and OpenSSL refuses to sign a TLS 1.2
   *   handshake with it ("no shared cipher"). So `acme-tls/1` is refused under TLS 1.2 (a fatal
   *   no_application_protocol alert, RFC 7301 §3.2), and validation needs a validator that speaks
   *   TLS 1.3, as Let's Encrypt's and pebble's (Go's crypto/tls) do with us.
   */
  #alpn(
    socket: tls.TLSSocket | undefined,
    { servername, protocols }: { servername: string; protocols: string[] },
  ) {
    if (!protocols.includes(ACME_TLS_ALPN)) return protocols.includes(HTTP_ALPN) ? HTTP_ALPN : undefined;
    if (socket?.getProtocol() !== 'TLSv1.3' || trackingHostName(servername) === undefined) return undefined;
    this.#validations.add(socket);
    return ACME_TLS_ALPN;
  }

  #sni(socket: tls.TLSSocket | undefined, servername: string, callback: SniCallback): void {
    let called = false;
    const reply = (error: Error | null, context?: tls.SecureContext) => {
      if (called) return;
      called = true;
      try {
        callback(error, context);
      } catch {}
    };
    const host = trackingHostName(servername);
    if (host === undefined) {
      reply(invalidHost(servername));
      return;
    }
    const context =
      socket && this.#validations.has(socket) ? this.#challengeContext(host) : this.#certificateContext(host);
    context.then(
      (context) => reply(null, context),
      (error) => reply(this.#report(error, host)),
    );
  }

  async #challengeContext(host: string): Promise<tls.SecureContext> {
    const own = this.#challenges.get(host);
    if (own) return own;
    const stored = await this.#options.store.getChallenge(host);
    if (!stored || stored.expiresAt <= this.#options.now())
      throw new TrackingCertificateError(
        'TRACKING_NO_CHALLENGE',
        `no tls-alpn-01 challenge is pending for ${host}`,
      );
    return secureContext(stored);
  }

  async #certificateContext(host: string): Promise<tls.SecureContext> {
    const { now, store } = this.#options;
    let served = this.#served.get(host);
    if (!served) {
      const refused = this.#refused.get(host);
      if (refused && refused.until > now()) throw refused.error;
      const stored = await store.getCertificate(host);
      served =
        stored && stored.expiresAt > now()
          ? this.#remember(host, stored)
          : (this.#served.get(host) ?? this.#remember(host, await this.ensure(host)));
    }
    if (now() >= served.renewAt && !this.#ordering.has(host)) {
      const failed = this.#failed.get(host);
      // reported where it failed; the old certificate serves meanwhile
      if (!failed || failed.until <= now()) this.ensure(host).catch(() => {});
    }
    return served.context;
  }

  /**
   * When less than `renewBeforeMs` is left, or a third of the lifetime for certificates shorter
   * than that allows (Let's Encrypt's advice for its 90-day ones, which gives the 30 days;
   * without it a 6-day certificate would be renewed at every handshake), plus this process's jitter.
   */
  #renewAt(certificate: StoredCertificate): number {
    const notBefore = Date.parse(new X509Certificate(certificate.certificatePem).validFrom);
    const window = Math.min(this.#options.renewBeforeMs, (certificate.expiresAt - notBefore) / 3);
    return certificate.expiresAt - window * (1 - this.#renewJitter);
  }

  async #obtain(host: string): Promise<StoredCertificate> {
    const { store, allowHost, now } = this.#options;
    const stored = await this.#guard(host, () => store.getCertificate(host));
    if (stored && stored.expiresAt > now() && now() < this.#renewAt(stored)) {
      this.#remember(host, stored);
      return stored;
    }
    const failed = this.#failed.get(host);
    if (failed && failed.until > now()) {
      const message = `the last order for ${host} failed recently`;
      throw new TrackingCertificateError('TRACKING_ORDER_BACKOFF', message, { cause: failed.error });
    }
    if (!(await this.#guard(host, () => allowHost(host)))) {
      const error = new TrackingCertificateError(
        'TRACKING_HOST_REFUSED',
        `${host} is not a verified tracking host`,
      );
      this.#refused.set(host, { until: now() + this.#options.refusedHostCacheMs, error });
      throw error;
    }
    this.#refused.delete(host);
    let certificate: StoredCertificate;
    try {
      certificate = await withTimeout(this.#order(host), ORDER_TIMEOUT_MS);
    } catch (cause) {
      const message = `no certificate for ${host}: ${cause instanceof Error ? cause.message : cause}`;
      const error = new TrackingCertificateError('TRACKING_ORDER_FAILED', message, { cause });
      this.#failed.set(host, { until: now() + this.#options.failedOrderRetryMs, error });
      throw this.#report(error, host);
    }
    this.#failed.delete(host);
    await this.#guard(host, () => store.putCertificate(host, certificate));
    this.#remember(host, certificate);
    return certificate;
  }

  /** One order through acme-client, answering its tls-alpn-01 challenge (RFC 8737 §3). */
  async #order(host: string): Promise<StoredCertificate> {
    const { store } = this.#options;
    const client = await this.#acmeClient();
    const acme = await loadAcme();
    // acme-client's X.509 helpers throw "Cannot get schema for '…' target" when npm installs two
    // copies of @peculiar/asn1-schema (mailauth pins an old one): package-lock.json keeps one.
    const keyPem = (await acme.crypto.createPrivateEcdsaKey()).toString();
    const [, csr] = await acme.crypto.createCsr({ commonName: host, altNames: [host] }, keyPem);
    const chain = await client.auto({
      csr,
      challengePriority: ['tls-alpn-01'],
      // acme-client would check the challenge by connecting to the host on port 443 itself.
      skipChallengeVerification: true,
      challengeCreateFn: async (authz, challenge, keyAuthorization) => {
        // acme-client's types list only http-01 and dns-01
        if ((challenge.type as string) !== 'tls-alpn-01')
          throw new Error(`the CA offers no tls-alpn-01 challenge for ${host}`);
        const [, certificate] = await acme.crypto.createAlpnCertificate(authz, keyAuthorization, keyPem);
        const stored = {
          certificatePem: certificate.toString(),
          keyPem,
          expiresAt: this.#options.now() + ORDER_TIMEOUT_MS,
        };
        await store.putChallenge(host, stored);
        this.#challenges.set(host, secureContext(stored));
      },
      challengeRemoveFn: async () => {
        this.#challenges.delete(host);
        await store.deleteChallenge(host);
      },
    });
    return { certificatePem: chain, keyPem, expiresAt: Date.parse(new X509Certificate(chain).validTo) };
  }

  /** The account key comes from the store, so every process orders under one account. */
  #acmeClient(): Promise<acme.Client> {
    this.#client ??= (async () => {
      const { store, directoryUrl, pollIntervalMs, contactEmail } = this.#options;
      const acme = await loadAcme();
      let accountKey = await store.getAccountKey();
      if (accountKey === undefined) {
        const fresh = (await acme.crypto.createPrivateEcdsaKey()).toString();
        await store.putAccountKey(fresh);
        accountKey = (await store.getAccountKey()) ?? fresh;
      }
      const client = new acme.Client({
        directoryUrl,
        accountKey,
        backoffMin: pollIntervalMs,
        backoffMax: Math.max(pollIntervalMs, 30_000),
      });
      // RFC 8555 §7.3.1: find the key's account first. Registering again would do, but
      // acme-client then sends the registration fields as an account update, which pebble
      // refuses ("use POST-as-GET ... instead of doing an empty update").
      try {
        await client.createAccount({ onlyReturnExisting: true });
      } catch {
        await client.createAccount({
          termsOfServiceAgreed: true,
          ...(contactEmail !== undefined && { contact: [`mailto:${contactEmail}`] }),
        });
      }
      return client;
    })();
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }

  #remember(host: string, certificate: StoredCertificate): { context: tls.SecureContext; renewAt: number } {
    const served = { context: secureContext(certificate), renewAt: this.#renewAt(certificate) };
    this.#served.set(host, served);
    return served;
  }

  /** Store and `allowHost` failures are reported (once, here) and passed on. */
  async #guard<T>(host: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw this.#report(error, host);
    }
  }

  #report(error: unknown, host: string): Error {
    const reported = error instanceof Error ? error : new Error(String(error));
    if (!REPORTED.has(reported)) {
      REPORTED.add(reported);
      const quiet = reported instanceof TrackingCertificateError && reported.code !== 'TRACKING_ORDER_FAILED';
      if (!quiet) {
        try {
          this.#options.onError(reported, host);
        } catch {}
      }
    }
    return reported;
  }
}

/** Errors already given to `onError`: the waiters of one order all see the same error. */
const REPORTED = new WeakSet<Error>();

/**
 * The host name a TLS client sent (RFC 6066 §3: ASCII, no trailing dot), lowercased; undefined
 * unless it is a DNS host name of two labels or more (RFC 1123 §2.1), which excludes IP addresses.
 */
export function trackingHostName(servername: string): string | undefined {
  const host = servername.toLowerCase();
  if (host.length > 253) return undefined;
  const labels = host.split('.');
  if (labels.length < 2 || /^\d+$/.test(labels[labels.length - 1]!)) return undefined;
  return labels.every((label) => HOST_LABEL.test(label)) ? host : undefined;
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function invalidHost(servername: string): TrackingCertificateError {
  return new TrackingCertificateError(
    'TRACKING_HOST_INVALID',
    `${JSON.stringify(servername.slice(0, 300))} is not a DNS host name`,
  );
}

function secureContext(certificate: StoredCertificate): tls.SecureContext {
  return tls.createSecureContext({ key: certificate.keyPem, cert: certificate.certificatePem });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the order took longer than ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
