// test-backends: sqlite
/**
 * The key cache on a real store: bounded, absences remembered for a while only, a change that
 * lands during a load never cached as the old value, and what it holds still answered when the
 * database is gone.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { newToken } from '../domain/token.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { openStore } from '../store/open.js';
import { TRANSFER_MESSAGE_BYTES, transferStream } from './axfr.js';
import { KeyCache, MAX_LOADING, NOT_CACHED } from './key-cache.js';
import { dkimKeyRecord } from './key-record.js';
import { DkimZone } from './zone.js';

let dataDir: string;
let store: KyselyStore;
let accountId: string;

before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'key-cache-'));
  store = await openStore({ dataDir, databaseUrl: undefined });
  accountId = (await store.createApiKey({ name: 'k', keyHash: newToken(), keyPrefix: 'k', scopes: ['*'] }))
    .accountId;
});
after(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A registration with keys; returns its tokens and their public keys. */
async function withKeys(name: string, chosen: string[] = []): Promise<Map<string, string>> {
  const next = [...chosen];
  const [outcome] = await store.registerDomains(accountId, [{ name, type: 'Marketing' }], {
    maxDomains: 1000,
    now: Date.now(),
    newToken: () => next.shift() ?? newToken(),
  });
  assert.ok(outcome?.ok);
  const keys = new Map<string, string>();
  for (const record of outcome.domain.records) {
    if (!record.token) continue;
    const publicKey = randomBytes(294).toString('base64');
    assert.ok(
      await new DkimKeyStore(store.db).insertKey({
        token: record.token,
        publicKey,
        privateKeyEnc: 'x',
        createdAt: Date.now(),
      }),
    );
    keys.set(record.token, publicKey);
  }
  return keys;
}

test('never more than its size: the least recently used go first, and are read again when asked', async () => {
  const keys = new Map([...(await withKeys('a.example.test')), ...(await withKeys('b.example.test'))]);
  const cache = new KeyCache({ keys: new DkimKeyStore(store.db), maxEntries: 4 });
  const tokens = [...keys.keys()];
  for (const token of tokens) {
    assert.equal(cache.get(token), NOT_CACHED);
    assert.equal(await cache.load(token), true);
    assert.equal(cache.get(token.toUpperCase()), keys.get(token));
    assert.ok(cache.size <= 4);
  }
  assert.equal(cache.get(tokens[0]!), NOT_CACHED, 'the first, least recently used, went');
  assert.equal(cache.get(tokens[5]!), keys.get(tokens[5]!));
});

test('a name without a key is absent until the negative TTL ends or it is invalidated', async () => {
  let now = 1_000_000;
  const cache = new KeyCache({ keys: new DkimKeyStore(store.db), negativeTtlMs: 30_000, now: () => now });
  const [first, second] = [newToken(), newToken()];
  for (const token of [first, second]) {
    assert.equal(await cache.load(token), true);
    assert.equal(cache.get(token), undefined);
  }
  const keys = await withKeys('later.example.test', [first, second]);
  // unknown to the cache until it is told or the absence expires
  assert.equal(cache.get(first), undefined);
  cache.invalidate([first]);
  assert.equal(cache.get(first), NOT_CACHED);
  now += 29_999;
  assert.equal(cache.get(second), undefined);
  now += 1;
  assert.equal(cache.get(second), NOT_CACHED);
  assert.equal(await cache.load(second), true);
  assert.equal(cache.get(second), keys.get(second));
});

test('a load that a change overtakes is read again, never cached with the old value', async () => {
  const keys = await withKeys('race.example.test');
  const token = [...keys.keys()][0]!;
  let release: (() => void) | undefined;
  let reads = 0;
  const slow = new (class extends DkimKeyStore {
    override async publishedKeys(tokens: string[]) {
      const read = await super.publishedKeys(tokens);
      // the first read waits, with the old value, until the test has changed the key
      if (reads++ === 0) await new Promise<void>((resolve) => (release = resolve));
      return read;
    }
  })(store.db);
  const cache = new KeyCache({ keys: slow });
  const loaded = cache.load(token);
  while (release === undefined) await new Promise((r) => setImmediate(r));
  await new DkimKeyStore(store.db).revoke(token, Date.now());
  cache.invalidate([token]);
  release();
  assert.equal(await loaded, true);
  assert.equal(reads, 2, 'read again after the change');
  assert.equal(cache.get(token), null, 'revoked');
});

test('the database gone: what is held is answered, anything else fails to load', async () => {
  const keys = await withKeys('gone.example.test');
  const [held, other] = [...keys.keys()];
  // a connection of its own to the same file, closed under the cache
  const own = await openStore({ dataDir, databaseUrl: undefined });
  const cache = new KeyCache({ keys: new DkimKeyStore(own.db) });
  assert.equal(await cache.load(held!), true);
  await own.close();
  assert.equal(cache.get(held!), keys.get(held!));
  assert.equal(await cache.load(other!), false);
  assert.equal(cache.get(other!), NOT_CACHED);
});

test(`a flood of misses: past ${MAX_LOADING} tokens loading at once, the next fails at once`, async () => {
  let release: (() => void) | undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = new (class extends DkimKeyStore {
    override async publishedKeys(tokens: string[]) {
      await gate;
      return super.publishedKeys(tokens);
    }
  })(store.db);
  const cache = new KeyCache({ keys: held, timeoutMs: 60_000 });
  const loads = Array.from({ length: MAX_LOADING }, () => cache.load(newToken()));
  assert.equal(await cache.load(newToken()), false, 'refused while the others wait');
  release!();
  assert.deepEqual(new Set(await Promise.all(loads)), new Set([true]));
  assert.equal(await cache.load(newToken()), true, 'taken again once they are done');
});

test('a zone transfer streams every key from the database, page by page, between two SOAs', async () => {
  for (let i = 0; i < 40; i++) await withKeys(`axfr${i}.example.test`);
  await new DkimKeyStore(store.db).revoke(
    (await new DkimKeyStore(store.db).publishedPage('', 1))[0]!.token,
    1,
  );
  const all = new Map<string, string | null>();
  for (let after = ''; ; ) {
    const page = await new DkimKeyStore(store.db).publishedPage(after, 1000);
    for (const key of page) all.set(key.token, key.publicKey);
    if (page.length < 1000) break;
    after = page.at(-1)!.token;
  }
  assert.ok(all.size >= 120);
  const reads: number[] = [];
  const counting = new (class extends DkimKeyStore {
    override publishedPage(after: string, limit: number) {
      reads.push(limit);
      return super.publishedPage(after, limit);
    }
  })(store.db);
  // a page size that divides nothing in particular, and one that divides the count exactly
  for (const pageSize of [7, all.size]) {
    reads.length = 0;
    const zone = new DkimZone({
      origin: 'dkim.provider.test',
      serial: 7,
      nameServers: ['ns.provider.test'],
      soaContact: 'h.provider.test',
      ttl: 60,
      keys: new KeyCache({ keys: counting, maxEntries: 3, pageSize }),
    });
    const question = { name: 'dkim.provider.test', type: 'AXFR' as const };
    const messages: Buffer[] = [];
    for await (const message of transferStream(zone, 99, question)) messages.push(message);
    assert.ok(messages.length > 1, 'several messages');
    const records = messages.flatMap((m) => {
      assert.ok(m.length <= TRANSFER_MESSAGE_BYTES + 600, `${m.length} bytes`);
      const decoded = dnsPacket.decode(m);
      assert.equal(decoded.id, 99);
      return decoded.answers ?? [];
    });
    assert.equal(records[0]?.type, 'SOA');
    assert.equal(records.at(-1)?.type, 'SOA');
    const served = new Map(
      records
        .filter((r) => r.type === 'TXT')
        .map((r) => [r.name.split('.')[0]!, (r.data as Buffer[]).map((b) => b.toString()).join('')]),
    );
    assert.equal(served.size, all.size);
    for (const [token, publicKey] of all) assert.equal(served.get(token), dkimKeyRecord(publicKey), token);
    assert.ok(reads.length >= Math.ceil(all.size / pageSize), `${reads.length} page reads of ${pageSize}`);
  }
});
