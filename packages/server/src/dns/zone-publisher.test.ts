/**
 * The zone of two processes sharing one PostgreSQL database (two stores, two publishers): each
 * follows the other's changes by reading only what changed, drops what changed from its key
 * cache (issue 39), and both publish the same content under the same serial.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { after, before, test } from 'node:test';
import { newToken } from '../domain/token.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { DkimRotationStore } from '../store/dkim-rotation-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { waitUntil } from '../test-support/wait.js';
import { KeyCache } from './key-cache.js';
import { ZonePublisher } from './zone-publisher.js';

let postgres: PostgresServer;
const stores: KyselyStore[] = [];
const publishers: ZonePublisher[] = [];
let accountId: string;

before(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase();
  for (let i = 0; i < 2; i++) stores.push(await openStore({ dataDir: tmpdir(), databaseUrl }));
  accountId = (
    await stores[0]!.createApiKey({ name: 'z', keyHash: newToken(), keyPrefix: 'z', scopes: ['*'] })
  ).accountId;
});
after(async () => {
  for (const publisher of publishers) await publisher.stop();
  for (const store of stores) await store.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await postgres?.stop();
});

/**
 * Registers `name` through `store` (its tokens `chosen` when given) and gives each of its tokens
 * a key stamped `at`; returns the tokens.
 */
async function registerWithKeys(
  store: KyselyStore,
  name: string,
  at = Date.now(),
  chosen: string[] = [],
): Promise<string[]> {
  const next = [...chosen];
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 100,
    now: at,
    newToken: () => next.shift() ?? newToken(),
  });
  assert.ok(outcome?.ok);
  const tokens = outcome.domain.records.flatMap((r) => (r.token ? [r.token] : []));
  for (const token of tokens) {
    const publicKey = randomBytes(294).toString('base64');
    assert.ok(
      await new DkimKeyStore(store.db).insertKey({ token, publicKey, privateKeyEnc: 'x', createdAt: at }),
    );
  }
  return tokens;
}

/**
 * A publisher whose key cache holds `maxEntries` keys and remembers an absence for 10 minutes:
 * only the change feed can make it forget one in a test's time.
 */
const publisherOn = (store: KyselyStore, keys = new DkimKeyStore(store.db), maxEntries = 1_000) => {
  const publisher = new ZonePublisher({
    keys,
    cache: new KeyCache({ keys, maxEntries, negativeTtlMs: 600_000 }),
    zone: {
      origin: 'dkim.provider.test',
      nameServers: ['ns.provider.test'],
      soaContact: 'h.provider.test',
      ttl: 60,
    },
    secondaries: [],
    pollMs: 50,
    minReloadGapMs: 0,
  });
  publishers.push(publisher);
  return publisher;
};

/** What a resolver asking `token` now is answered: from the cache, or loaded first. */
const at = async (publisher: ZonePublisher, token: string) => {
  const name = `${token}.dkim.provider.test`;
  const match = publisher.current().match(name);
  if (match.at !== 'unknown') return match;
  assert.ok(await publisher.current().load(token), 'the key store answered');
  return publisher.current().match(name);
};
/** The key record's text served for `token`, or `undefined`. */
const served = async (publisher: ZonePublisher, token: string) => {
  const match = await at(publisher, token);
  return match.at === 'key' ? match.strings.join('') : undefined;
};

test('each process follows the other’s keys, revocations and deletions, under one serial', async () => {
  const first = await registerWithKeys(stores[0]!, 'one.example.test');
  const [a, b] = [publisherOn(stores[0]!), publisherOn(stores[1]!)];
  await Promise.all([a.start(), b.start()]);
  for (const token of first) assert.equal((await at(a, token)).at, 'key');
  assert.equal(a.current().serial, b.current().serial);
  const before = a.current().serial;

  // asked before they exist, the names are remembered as absent; a key stored through the
  // second process reaches the first's zone all the same
  const tokens = [newToken(), newToken(), newToken()];
  for (const token of tokens) assert.equal((await at(a, token)).at, 'none');
  const second = await registerWithKeys(stores[1]!, 'two.example.test', Date.now(), tokens);
  assert.deepEqual(second.toSorted(), tokens.toSorted(), 'the names asked before');
  await waitUntil('the new keys in the first zone', async () => (await at(a, second[0]!)).at === 'key');
  await waitUntil(
    'one serial',
    () => a.current().serial === b.current().serial && a.current().serial > before,
  );

  // cached by the second, then revoked through the first: the second publishes the empty key
  assert.equal((await served(b, second[1]!))?.endsWith('p='), false);
  await new DkimKeyStore(stores[0]!.db).revoke(second[1]!, Date.now());
  await waitUntil('the revocation in the second zone', async () =>
    (await served(b, second[1]!))?.endsWith('p='),
  );

  // deleted through the second (keys go by cascade), gone from the first, which had them cached
  await stores[1]!.deleteDomains(accountId, ['one.example.test']);
  await waitUntil('the deletion in the first zone', async () => {
    for (const token of first) if ((await at(a, token)).at !== 'none') return false;
    return true;
  });

  // a change stamped by a process whose clock is 10 s behind is still seen
  const lateTokens = [newToken(), newToken(), newToken()];
  for (const token of lateTokens) assert.equal((await at(a, token)).at, 'none');
  const late = await registerWithKeys(stores[1]!, 'late.example.test', Date.now() - 10_000, lateTokens);
  await waitUntil('the late-stamped keys', async () => {
    for (const token of late) if ((await at(a, token)).at !== 'key') return false;
    return true;
  });

  await waitUntil('one serial again', () => a.current().serial === b.current().serial);
  assert.ok(a.current().serial > before, 'the serial rose with the content');
  // a process started now agrees on the serial without having seen any change
  const c = publisherOn(stores[1]!);
  await c.start();
  assert.equal(c.current().serial, a.current().serial);
});

test('a serial another process set for an older digest, after the last change, is not left standing', async () => {
  const keys = new DkimKeyStore(stores[0]!.db);
  const [a, b] = [publisherOn(stores[0]!), publisherOn(stores[1]!)];
  await Promise.all([a.start(), b.start()]);
  const before = await keys.zoneState('dkim.provider.test');
  await registerWithKeys(stores[1]!, 'raced.example.test');
  const agreed = await waitUntil('one serial for the new keys', async () => {
    const state = await keys.zoneState('dkim.provider.test');
    const served = [a.current().serial, b.current().serial];
    return served.every((s) => s === state?.serial) && state!.serial > before!.serial ? state : undefined;
  });
  // A process whose compare-and-set of the digest it made before that change came last: the
  // database holds its older digest under a higher serial, and no change is left to read.
  await keys.serialFor('dkim.provider.test', 'an older digest', Date.now());
  const raced = await keys.zoneState('dkim.provider.test');
  assert.ok(raced!.serial > agreed.serial);
  // Both publishers serve again the serial the database holds, for a digest of the feed (the one
  // agreed above, or a later one if a publisher had read the new keys in two polls).
  const settled = await waitUntil(
    'the serial settled',
    async () => {
      const state = await keys.zoneState('dkim.provider.test');
      const served = [a.current().serial, b.current().serial];
      return served.every((s) => s === state?.serial) && state?.digest !== 'an older digest'
        ? state
        : undefined;
    },
    {
      seen: async () =>
        JSON.stringify({
          served: [a.current().serial, b.current().serial],
          state: await keys.zoneState('dkim.provider.test'),
        }),
    },
  );
  assert.ok(settled.serial > raced!.serial, 'raised past the one set for the older digest');
});

test('a key revoked and replaced in one millisecond is served as it ended; changes read again are not loaded again', async () => {
  const store = stores[0]!;
  const tokens = await registerWithKeys(store, 'twice.example.test');
  const fetched: string[] = [];
  const publisher = publisherOn(
    store,
    new (class extends DkimKeyStore {
      override publishedKeys(asked: string[]) {
        fetched.push(...asked);
        return super.publishedKeys(asked);
      }
    })(store.db),
  );
  await publisher.start();
  const token = tokens[0]!;
  const now = Date.now();
  // an operator revokes the key; the revocation is served once the publisher has it (its
  // serial moves then: a load may read the change before the feed does)
  const s0 = publisher.current().serial;
  await new DkimKeyStore(store.db).revoke(token, now);
  await waitUntil('the revocation applied', () => publisher.current().serial !== s0);
  await waitUntil('the revocation served', async () => (await served(publisher, token))?.endsWith('p='));
  const s1 = publisher.current().serial;
  // rotation gives the selector a new key, stamped the same millisecond
  const rotation = new DkimRotationStore(store.db, store.kind);
  const [domain] = await store
    .findDomains(accountId, ['twice.example.test'])
    .then((found) => [...found.values()]);
  const publicKey = randomBytes(294).toString('base64');
  assert.ok(
    await rotation.replaceKey(
      (await rotation.load(domain!.id))!,
      token,
      { publicKey, privateKeyEnc: 'y' },
      now,
    ),
  );
  await waitUntil('the new key applied', () => publisher.current().serial !== s1);
  await waitUntil('the new key served', async () =>
    (await served(publisher, token))?.endsWith(`p=${publicKey}`),
  );

  // the overlap reads these changes again at every poll (every 50 ms); the cached key stays
  const settled = fetched.length;
  for (const end = Date.now() + 500; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    assert.ok((await served(publisher, token))?.endsWith(`p=${publicKey}`));
  assert.equal(fetched.length, settled, `loaded again: ${fetched.slice(settled).join(', ')}`);
});

test('a cache of 7 keys answers each of 60 keys as the database holds it, revoked ones included', async () => {
  const store = stores[0]!;
  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) tokens.push(...(await registerWithKeys(store, `many${i}.example.test`)));
  const keys = new DkimKeyStore(store.db);
  for (const token of tokens.slice(0, 5)) await keys.revoke(token, Date.now());
  const publisher = publisherOn(store, keys, 7);
  await publisher.start();
  const expected = new Map((await keys.publishedKeys(tokens)).map((k) => [k.token, k.publicKey]));
  assert.equal(expected.size, 60);
  for (let round = 0; round < 2; round++)
    for (const token of tokens) {
      const text = await served(publisher, token);
      assert.equal(text, `v=DKIM1; k=rsa; p=${expected.get(token) ?? ''}`, token);
    }
  assert.ok(publisher.current().size <= 7, `the cache holds ${publisher.current().size}`);
});
