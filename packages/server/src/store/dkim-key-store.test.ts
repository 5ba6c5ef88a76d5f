/** The DKIM key SQL on both backends: SQLite (embedded default) and PostgreSQL. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newToken } from '../domain/token.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { DkimKeyStore } from './dkim-key-store.js';
import type { KyselyStore } from './kysely-store.js';
import { openStore } from './open.js';

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`DkimKeyStore on ${backend}`, () => {
    let store: KyselyStore;
    let keys: DkimKeyStore;
    let accountId: string;
    let postgres: PostgresServer | undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'dkim-store-'));
    before(async () => {
      if (backend === 'postgres') postgres = await startPostgres();
      const databaseUrl = await postgres?.createDatabase();
      store = await openStore({ dataDir, databaseUrl });
      keys = new DkimKeyStore(store.db);
      accountId = (
        await store.createApiKey({ name: 't', keyHash: newToken(), keyPrefix: 'p', scopes: ['*'] })
      ).accountId;
    });
    after(async () => {
      await store?.close();
      // pg-pool's end() resolves before its sockets have closed; a fast shutdown right after
      // can reach a client that lost its error listener (an uncaught "terminating connection").
      if (postgres) await new Promise((resolve) => setTimeout(resolve, 200));
      await postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const register = async (name: string) => {
      const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
        maxDomains: 100,
        now: Date.now(),
        newToken: () => newToken(),
      });
      assert.ok(outcome?.ok);
      return outcome.domain.records.flatMap((r) => (r.token ? [r.token] : []));
    };
    const fill = async (tokens: string[], createdAt = Date.now()) => {
      for (const token of tokens) {
        assert.equal(
          await keys.insertKey({
            token,
            publicKey: `pub-${token}`,
            privateKeyEnc: `enc-${token}`,
            createdAt,
          }),
          true,
        );
      }
    };

    test('tokens without keys, oldest first; a second insert for a token is ignored', async () => {
      const first = await register('one.example.test');
      const second = await register('two.example.test');
      assert.deepEqual(await keys.tokensWithoutKeys(10), [...first, ...second]);
      assert.deepEqual(await keys.tokensWithoutKeys(2), first.slice(0, 2));
      await fill(first);
      assert.equal(
        await keys.insertKey({ token: first[0]!, publicKey: 'x', privateKeyEnc: 'y', createdAt: 1 }),
        false,
      );
      assert.equal((await keys.findKey(first[0]!))!.publicKey, `pub-${first[0]}`);
      assert.deepEqual(await keys.tokensWithoutKeys(10), second);
      await fill(second);
    });

    test('signing lookups, revocation, and the fingerprint', async () => {
      const [domain] = await keys.signingDomains('one.example.test');
      assert.equal(domain!.status, 'pending');
      assert.deepEqual(
        domain!.selectors.map((s) => [s.position, s.key?.revokedAt]),
        [
          [0, null],
          [1, null],
          [2, null],
        ],
      );
      assert.deepEqual(await keys.signingDomains('one.example.test', 'acc_nobody'), []);
      const before = await keys.fingerprint();
      assert.equal(await keys.revoke(domain!.selectors[0]!.token, 5000), true);
      assert.notEqual(await keys.fingerprint(), before);
      const published = await keys.publishedKeys();
      assert.equal(published.length, 6);
      assert.equal(published.find((k) => k.token === domain!.selectors[0]!.token)!.publicKey, null);
    });

    test('deleting a domain cascades to its keys', async () => {
      const before = await keys.fingerprint();
      await store.deleteDomains(accountId, ['two.example.test']);
      assert.equal((await keys.publishedKeys()).length, 3);
      assert.notEqual(await keys.fingerprint(), before);
      // A key generated for a token deleted meanwhile is dropped (foreign key), not an error.
      assert.equal(
        await keys.insertKey({ token: 'gone', publicKey: 'x', privateKeyEnc: 'y', createdAt: 1 }),
        false,
      );
    });

    test('the zone serial is raised once per change by concurrent callers', async () => {
      const now = 1_800_000_000_000;
      const first = await keys.serialFor('dkim.p.test', 'a', now);
      const raised = await Promise.all([1, 2, 3, 4].map(() => keys.serialFor('dkim.p.test', 'b', now)));
      assert.deepEqual(raised, [first + 1, first + 1, first + 1, first + 1]);
      assert.deepEqual(await keys.zoneState('dkim.p.test'), { serial: first + 1, digest: 'b' });
    });
  });
}
