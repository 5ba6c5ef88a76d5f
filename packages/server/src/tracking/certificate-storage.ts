/**
 * What the tracking hosts' certificates are kept in: the stored form of a certificate, and
 * the store every process shares (`store/certificate-store.ts` gives the database-backed one).
 */

/** A certificate with its key, as stored and served. */
export interface StoredCertificate {
  /** The chain: leaf first, then the intermediates (PEM). */
  certificatePem: string;
  keyPem: string;
  /** The leaf's notAfter, in ms since the epoch. */
  expiresAt: number;
}

/**
 * Where certificates, pending tls-alpn-01 challenge certificates and the ACME account key live;
 * the service gives a database-backed one, shared by all processes.
 */
export interface CertificateStore {
  getCertificate(host: string): Promise<StoredCertificate | undefined>;
  putCertificate(host: string, certificate: StoredCertificate): Promise<void>;
  /** PEM. */
  getAccountKey(): Promise<string | undefined>;
  /** PEM. A store where the first key written wins is fine: the key is read back after writing. */
  putAccountKey(pem: string): Promise<void>;
  /** The self-signed challenge certificate (RFC 8737 §3) of an order in progress, minutes long. */
  getChallenge(host: string): Promise<StoredCertificate | undefined>;
  putChallenge(host: string, challenge: StoredCertificate): Promise<void>;
  deleteChallenge(host: string): Promise<void>;
}

/** A {@link CertificateStore} in this process's memory, for tests and for development. */
export function memoryCertificateStore(): CertificateStore {
  const certificates = new Map<string, StoredCertificate>();
  const challenges = new Map<string, StoredCertificate>();
  let accountKey: string | undefined;
  return {
    getCertificate: async (host) => certificates.get(host),
    putCertificate: async (host, certificate) => void certificates.set(host, certificate),
    getAccountKey: async () => accountKey,
    // the first key written wins, as a database insert that ignores conflicts would
    putAccountKey: async (pem) => {
      if (accountKey === undefined) accountKey = pem;
    },
    getChallenge: async (host) => challenges.get(host),
    putChallenge: async (host, challenge) => void challenges.set(host, challenge),
    deleteChallenge: async (host) => void challenges.delete(host),
  };
}
