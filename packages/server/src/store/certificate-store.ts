/**
 * The tracking hosts' certificates, their pending ACME challenges and the ACME account key, in
 * the database (`certificates`, migration 0025), so every process serves one certificate per
 * host and any of them answers the authority's challenge connection. Rows are keyed by what
 * they hold: `<host>` for a certificate, `challenge:<host>` for a challenge, `acme-account` for
 * the account key. Private keys are sealed under `SECRET_KEY`, bound to their row's key.
 */
import type { Kysely } from 'kysely';
import { open, seal } from '../dkim/secret-box.js';
import type { CertificateStore, StoredCertificate } from '../tracking/certificate-storage.js';
import type { Database } from './tables.js';

const ACCOUNT = 'acme-account';
const challengeRow = (host: string) => `challenge:${host}`;

export class DatabaseCertificateStore implements CertificateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly secretKey: () => Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  getCertificate(host: string): Promise<StoredCertificate | undefined> {
    return this.read(host);
  }

  putCertificate(host: string, certificate: StoredCertificate): Promise<void> {
    return this.write(host, certificate, 'replace');
  }

  async getAccountKey(): Promise<string | undefined> {
    return (await this.read(ACCOUNT))?.keyPem;
  }

  /** The first key written wins: two processes creating an account at once keep one. */
  putAccountKey(pem: string): Promise<void> {
    return this.write(ACCOUNT, { certificatePem: '', keyPem: pem, expiresAt: 0 }, 'keep');
  }

  getChallenge(host: string): Promise<StoredCertificate | undefined> {
    return this.read(challengeRow(host));
  }

  putChallenge(host: string, challenge: StoredCertificate): Promise<void> {
    return this.write(challengeRow(host), challenge, 'replace');
  }

  async deleteChallenge(host: string): Promise<void> {
    await this.db.deleteFrom('certificates').where('host', '=', challengeRow(host)).execute();
  }

  private async read(row: string): Promise<StoredCertificate | undefined> {
    const found = await this.db
      .selectFrom('certificates')
      .select(['certificate_pem', 'key_sealed', 'expires_at'])
      .where('host', '=', row)
      .executeTakeFirst();
    if (found === undefined) return undefined;
    return {
      certificatePem: found.certificate_pem,
      keyPem: open(this.secretKey(), found.key_sealed, row).toString('utf8'),
      expiresAt: Number(found.expires_at),
    };
  }

  private async write(row: string, value: StoredCertificate, onConflict: 'replace' | 'keep'): Promise<void> {
    const values = {
      certificate_pem: value.certificatePem,
      key_sealed: seal(this.secretKey(), Buffer.from(value.keyPem), row),
      expires_at: value.expiresAt,
      updated_at: this.now(),
    };
    await this.db
      .insertInto('certificates')
      .values({ host: row, ...values })
      .onConflict((oc) =>
        onConflict === 'keep' ? oc.column('host').doNothing() : oc.column('host').doUpdateSet(values),
      )
      .execute();
  }
}

/**
 * Whether `host` is a verified tracking host of some registration (`<label>.<domain>`, its
 * record verified): only those may have a certificate ordered. Read by the domain's name
 * (indexed, migration 0025), so a stream of made-up names costs an index lookup each.
 */
export async function isVerifiedTrackingHost(db: Kysely<Database>, host: string): Promise<boolean> {
  const dot = host.indexOf('.');
  if (dot <= 0) return false;
  const found = await db
    .selectFrom('domains as d')
    .innerJoin('domain_records as r', 'r.domain_id', 'd.id')
    .select('d.id')
    .where('d.name', '=', host.slice(dot + 1))
    .where('r.kind', '=', 'tracking')
    .where('r.label', '=', host.slice(0, dot))
    .where('r.status', '=', 'verified')
    .executeTakeFirst();
  return found !== undefined;
}
