/**
 * Fixtures for the hosted-DKIM tests (issue 4): a temporary SQLite store with registered
 * domains, and the stand-in for DNS verification.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DomainType } from '../domain/domain-type.js';
import type { StoredDomain } from '../domain/model.js';
import { newToken } from '../domain/token.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';
import type { Database } from '../store/tables.js';

export interface TempStore {
  store: KyselyStore;
  dataDir: string;
  accountId: string;
  /** Register domains for the account; returns them by name. */
  register(...names: string[]): Promise<Map<string, StoredDomain>>;
  close(): Promise<void>;
}

/** A fresh SQLite store in a temporary DATA_DIR with one account. */
export async function openTempStore(): Promise<TempStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dkim-test-'));
  const store = await openStore({ dataDir });
  const key = await store.createApiKey({
    name: 'dkim-test',
    keyHash: newToken(),
    keyPrefix: 'sk_test',
    scopes: ['*'],
  });
  return {
    store,
    dataDir,
    accountId: key.accountId,
    async register(...names) {
      const outcomes = await store.registerDomains(
        key.accountId,
        names.map((name) => ({ name, type: 'Transactional' as DomainType })),
        { maxDomains: 10_000, now: Date.now(), newToken: () => newToken() },
      );
      return new Map(outcomes.flatMap((o) => (o.ok ? [[o.domain.name, o.domain] as const] : [])));
    },
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Stands in for DNS verification (issue 3): marks the domain and its DKIM records `verified`
 * directly in the database. When the verification engine lands, tests should publish the
 * CNAMEs in BIND and let the engine verify them instead.
 */
export async function markVerifiedForTest(db: Kysely<Database>, domainName: string): Promise<void> {
  const domains = await db.selectFrom('domains').select('id').where('name', '=', domainName).execute();
  if (domains.length === 0) throw new Error(`no registration of ${domainName}`);
  const ids = domains.map((d) => d.id);
  await db
    .updateTable('domains')
    .set({ status: 'verified', updated_at: Date.now() })
    .where('id', 'in', ids)
    .execute();
  await db
    .updateTable('domain_records')
    .set({ status: 'verified' })
    .where('domain_id', 'in', ids)
    .where('kind', '=', 'dkim')
    .execute();
}
