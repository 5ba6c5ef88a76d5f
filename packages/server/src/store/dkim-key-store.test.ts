/** The DKIM key SQL on both backends: SQLite (embedded default) and PostgreSQL. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import pg from 'pg';
import { newToken } from '../domain/token.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { waitUntil } from '../test-support/wait.js';
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

    // each registration a millisecond after the one before, so "oldest first" is well defined
    let clock = Date.now();
    const register = async (name: string) => {
      const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
        maxDomains: 100,
        now: clock++,
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
      // the order of one registration's three tokens does not matter; registrations' order does
      const waiting = await keys.tokensWithoutKeys(10);
      assert.deepEqual([waiting.slice(0, 3).sort(), waiting.slice(3).sort()], [first.sort(), second.sort()]);
      const two = await keys.tokensWithoutKeys(2);
      assert.equal(two.length, 2);
      assert.ok(two.every((token) => first.includes(token)));
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
      const revoked = domain!.selectors[0]!.token;
      const revokedAt = Date.now() + 60_000;
      const before = (await keys.changesSince(0)).keys.find((k) => k.token === revoked)!;
      assert.equal(await keys.revoke(revoked, revokedAt), true);
      const changes = await keys.changesSince(revokedAt - 1);
      assert.deepEqual(changes, {
        keys: [{ token: revoked, version: changes.keys[0]?.version, changedAt: revokedAt }],
        deleted: [],
        deletions: [],
        latest: revokedAt,
      });
      // a new version, whose text says revoked; the others' texts as stored
      assert.notEqual(changes.keys[0]!.version, before.version);
      const texts = await keys.publishedKeys([revoked, domain!.selectors[1]!.token, 'nosuchtoken']);
      assert.deepEqual(
        texts.sort((a, b) => (a.token === revoked ? -1 : b.token === revoked ? 1 : 0)),
        [
          { token: revoked, publicKey: null },
          { token: domain!.selectors[1]!.token, publicKey: `pub-${domain!.selectors[1]!.token}` },
        ],
      );
      // the full load, in pages by token
      const first = await keys.publishedPage('', 4);
      const rest = await keys.publishedPage(first.at(-1)!.token, 4);
      const published = [...first, ...rest];
      assert.deepEqual([first.length, rest.length], [4, 2]);
      assert.deepEqual(
        published.map((k) => k.token),
        published.map((k) => k.token).sort(),
      );
      assert.equal(published.find((k) => k.token === revoked)!.publicKey, null);
    });

    test('a name two accounts registered: both found without an account, one with it', async () => {
      const other = (
        await store.createApiKey({ name: 'o', keyHash: newToken(), keyPrefix: 'p', scopes: ['*'] })
      ).accountId;
      const [mine] = await keys.signingDomains('one.example.test');
      const [outcome] = await store.registerDomains(
        other,
        [{ name: 'one.example.test', type: 'Marketing' }],
        {
          maxDomains: 100,
          now: clock++,
          newToken: () => newToken(),
        },
      );
      assert.ok(outcome?.ok);
      const both = await keys.signingDomains('one.example.test');
      assert.deepEqual(both.map((d) => d.accountId).sort(), [accountId, other].sort());
      assert.deepEqual(
        (await keys.signingDomains('one.example.test', other)).map((d) => d.domainId),
        [outcome.domain.id],
      );
      assert.deepEqual(
        (await keys.signingDomains('one.example.test', accountId)).map((d) => d.domainId),
        [mine!.domainId],
      );
      assert.deepEqual(await keys.signingDomains('nobody.example.test'), []);
      await store.deleteDomains(other, ['one.example.test']);
    });

    test('signing by name alone (the CLI without --account) is one probe of domains_name, no read of the accounts', async () => {
      // every statement signingDomains runs, compiled as the database gets it
      const statements: CompiledQuery[] = [];
      const spy: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          statements.push(store.db.getExecutor().compileQuery(node, queryId));
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const [found] = await new DkimKeyStore(store.db.withPlugin(spy)).signingDomains('one.example.test');
      assert.equal(found?.name, 'one.example.test');
      assert.deepEqual(
        statements.filter((q) => /from "accounts"/.test(q.sql)).map((q) => q.sql),
        [],
        'no statement reads the accounts',
      );
      const byName = statements.find((q) => /from "domains"/.test(q.sql))!;
      // the plan as the database would run it at scale: PostgreSQL told a scan is dear (it
      // scans a table this small whatever its indexes)
      const plan = await store.db.transaction().execute(async (trx) => {
        if (backend === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
        const explain = backend === 'postgres' ? 'explain ' : 'explain query plan ';
        const result = await trx.executeQuery(
          CompiledQuery.raw(explain + byName.sql, [...byName.parameters]),
        );
        return JSON.stringify(result.rows);
      });
      assert.match(plan, /domains_name/, plan);
    });

    test('a connection the server ends mid-query fails that query, not the process; the next query works', async (t) => {
      if (backend !== 'postgres') return t.skip('PostgreSQL connections only');
      const admin = new pg.Client({ connectionString: postgres!.url });
      await admin.connect();
      try {
        const sleeping = sql`select pg_sleep(30)`.execute(store.db);
        const settled = sleeping.then(
          () => 'answered',
          () => 'failed',
        );
        // once it runs, the server ends its connection (as a restart ends every one)
        for (;;) {
          const { rows } = await admin.query(
            "select pg_terminate_backend(pid) as ended from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'",
          );
          if (rows.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(await settled, 'failed');
        // the pool may hand out that client once more before its end is read: then that query
        // fails too, and the one after gets a new connection
        await waitUntil('a query answered', () =>
          keys.latestChange().then(
            (at) => typeof at === 'number',
            () => false,
          ),
        );
      } finally {
        await admin.end();
      }
    });

    test('deleting a domain cascades to its keys and leaves their tombstones', async () => {
      const since = Date.now() - 1;
      const [two] = await keys.signingDomains('two.example.test');
      await store.deleteDomains(accountId, ['two.example.test']);
      assert.equal((await keys.publishedPage('', 100)).length, 3);
      assert.deepEqual(
        (await keys.changesSince(since)).deleted.sort(),
        two!.selectors.map((s) => s.token).sort(),
      );
      // with the time of each deletion, which the zone publisher digests
      for (const { token, deletedAt } of (await keys.changesSince(since)).deletions) {
        assert.ok(two!.selectors.some((s) => s.token === token));
        assert.ok(deletedAt >= since && deletedAt <= Date.now(), `${deletedAt}`);
      }
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

    test('accounts take turns: one account’s burst of keys does not hold back another’s (issue 33)', async () => {
      const newAccount = async () =>
        (await store.createApiKey({ name: 'o', keyHash: newToken(), keyPrefix: 'q', scopes: ['*'] }))
          .accountId;
      const bursting = await newAccount();
      // 400 registrations, 1,200 keys in one request: more than any window read at once
      const outcomes = await store.registerDomains(
        bursting,
        Array.from({ length: 400 }, (_, i) => ({
          name: `burst${i}.example.test`,
          type: 'Marketing' as const,
        })),
        { maxDomains: 1_000, now: clock++, newToken: () => newToken() },
      );
      const tokensOf = (outcome: (typeof outcomes)[number]) => {
        assert.ok(outcome.ok);
        return outcome.domain.records.flatMap((r) => (r.token ? [r.token] : []));
      };
      const burst = outcomes.map(tokensOf);
      const other = await newAccount();
      const register = (account: string, name: string) =>
        store
          .registerDomains(account, [{ name, type: 'Marketing' }], {
            maxDomains: 1_000,
            now: clock++,
            newToken: () => newToken(),
          })
          .then(([outcome]) => tokensOf(outcome!));
      const late = await register(other, 'late.example.test');
      // registered after the burst's 1,200 keys, its three are among the next six made, after
      // the burst's first registration (its three tokens share a turn, in any order)
      const next = await keys.tokensWithoutKeys(6);
      assert.deepEqual(next.slice(0, 3).sort(), [...burst[0]!].sort());
      assert.deepEqual(next.slice(3).sort(), [...late].sort());
      // the bursting account's own next registration waits behind its burst, not before it
      const own = await register(bursting, 'own.example.test');
      const queue = await keys.tokensWithoutKeys(2_000);
      assert.equal(queue.length, 1_206);
      assert.deepEqual(queue.slice(-3).sort(), [...own].sort());
      await fill(burst.flat());
      await fill(late);
      await fill(own);
      assert.deepEqual(await keys.tokensWithoutKeys(10), []);
    });
  });
}
