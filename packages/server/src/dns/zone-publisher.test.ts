/**
 * The zone of two processes sharing one PostgreSQL database (two stores, two publishers): each
 * follows the other's changes by reading only what changed, and both publish the same content
 * under the same serial.
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

/** Registers `name` through `store` and gives each of its tokens a key stamped `at`; returns the tokens. */
async function registerWithKeys(store: KyselyStore, name: string, at = Date.now()): Promise<string[]> {
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 100,
    now: at,
    newToken: () => newToken(),
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

const publisherOn = (store: KyselyStore, keys = new DkimKeyStore(store.db)) => {
  const publisher = new ZonePublisher({
    keys,
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

const at = (publisher: ZonePublisher, token: string) =>
  publisher.current().match(`${token}.dkim.provider.test`);
/** The key record's text served for `token`, or `undefined`. */
const served = (publisher: ZonePublisher, token: string) => {
  const match = at(publisher, token);
  return match.at === 'key' ? match.strings.join('') : undefined;
};

test('each process follows the other’s keys, revocations and deletions, under one serial', async () => {
  const first = await registerWithKeys(stores[0]!, 'one.example.test');
  const [a, b] = [publisherOn(stores[0]!), publisherOn(stores[1]!)];
  await Promise.all([a.start(), b.start()]);
  assert.equal(a.current().size, 3);
  assert.equal(a.current().serial, b.current().serial);

  // a key stored through the second process reaches the first's zone
  const second = await registerWithKeys(stores[1]!, 'two.example.test');
  await waitUntil('the new keys in the first zone', () => at(a, second[0]!).at === 'key');
  await waitUntil(
    'one serial',
    () => a.current().size === 6 && b.current().size === 6 && a.current().serial === b.current().serial,
  );
  const before = a.current().serial;

  // revoked through the first, the second publishes the empty key
  await new DkimKeyStore(stores[0]!.db).revoke(second[1]!, Date.now());
  await waitUntil('the revocation in the second zone', () => {
    const match = at(b, second[1]!);
    return match.at === 'key' && match.strings.join('').endsWith('p=');
  });

  // deleted through the second (keys go by cascade), gone from the first
  await stores[1]!.deleteDomains(accountId, ['one.example.test']);
  await waitUntil('the deletion in the first zone', () => first.every((token) => at(a, token).at === 'none'));

  // a change stamped by a process whose clock is 10 s behind is still seen
  const late = await registerWithKeys(stores[1]!, 'late.example.test', Date.now() - 10_000);
  await waitUntil('the late-stamped keys', () => late.every((token) => at(a, token).at === 'key'));

  await waitUntil(
    'one serial again',
    () => a.current().serial === b.current().serial && a.current().size === 6,
  );
  assert.ok(a.current().serial > before, 'the serial rose with the content');
});

test('a key revoked and replaced in one millisecond is served as it ended; keys read again unchanged are not fetched again', async () => {
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
  // an operator revokes the key; the revocation is served
  await new DkimKeyStore(store.db).revoke(token, now);
  await waitUntil('the revocation served', () => served(publisher, token)?.endsWith('p=') === true);
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
  await waitUntil('the new key served', () => served(publisher, token)?.endsWith(`p=${publicKey}`) === true);

  // the overlap reads these changes again at every poll (every 50 ms); their text is not
  const settled = fetched.length;
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(fetched.length, settled, `fetched again: ${fetched.slice(settled).join(', ')}`);
});
