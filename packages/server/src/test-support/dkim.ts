/**
 * Fixtures for the hosted-DKIM tests (issue 4): a temporary SQLite store with registered
 * domains.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DkimKeyGenerator } from '../dkim/key-generator.js';
import type { DomainType } from '../domain/domain-type.js';
import type { StoredDomain } from '../domain/model.js';
import { newToken } from '../domain/token.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';

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
 * A new account holding one Marketing domain registered at `now`, with its three DKIM keys
 * made (the first selector active, the others next): for the rotation tests, on any store.
 */
export async function registerWithKeys(
  store: KyselyStore,
  name: string,
  now: number,
  secretKey: Buffer,
): Promise<{ accountId: string; domainId: string; tokens: string[] }> {
  const { accountId } = await store.createApiKey({
    name: 'dkim-test',
    keyHash: newToken(),
    keyPrefix: 'sk_test',
    scopes: ['*'],
  });
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 10,
    now,
    newToken: () => newToken(),
  });
  if (!outcome?.ok) throw new Error(`${name} was not registered`);
  const keys = new DkimKeyStore(store.db);
  await new DkimKeyGenerator({ keys, secretKey, concurrency: 1, now: () => now }).idle();
  const tokens = outcome.domain.records.flatMap((r) => (r.token ? [r.token] : []));
  return { accountId, domainId: outcome.domain.id, tokens };
}
