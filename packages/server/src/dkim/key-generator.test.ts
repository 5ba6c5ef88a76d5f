import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { openTempStore, type TempStore } from '../test-support/dkim.js';
import { DkimKeyGenerator } from './key-generator.js';
import { type DkimKeyPair, generateDkimKeyPair } from './key-pair.js';
import { open } from './secret-box.js';

const secretKey = Buffer.alloc(32, 7);
let fixture: TempStore;
let keys: DkimKeyStore;
let samplePair: DkimKeyPair;
before(async () => {
  fixture = await openTempStore();
  keys = new DkimKeyStore(fixture.store.db);
  samplePair = await generateDkimKeyPair();
});
after(() => fixture.close());

/** A generator whose key pairs come instantly (a copy of one real pair), counting in-flight calls. */
function fastGenerator(options: { concurrency: number; onKeys?: (t: string[]) => void }) {
  const stats = { inFlight: 0, maxInFlight: 0 };
  const generator = new DkimKeyGenerator({
    keys,
    secretKey,
    concurrency: options.concurrency,
    ...(options.onKeys && { onKeys: options.onKeys }),
    generate: async () => {
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      stats.inFlight -= 1;
      return { publicKey: samplePair.publicKey, privateKey: Buffer.from(samplePair.privateKey) };
    },
  });
  return { generator, stats };
}

test('every DKIM token of a registration gets a key, sealed, with bounded concurrency', async () => {
  const domains = await fixture.register('a.example.test', 'b.example.test', 'c.example.test');
  const tokens = [...domains.values()].flatMap((d) => d.records.flatMap((r) => (r.token ? [r.token] : [])));
  assert.equal(tokens.length, 9);
  const stored: string[] = [];
  const { generator, stats } = fastGenerator({ concurrency: 2, onKeys: (t) => stored.push(...t) });
  generator.nudge();
  await generator.idle();
  assert.deepEqual(await keys.tokensWithoutKeys(100), []);
  assert.deepEqual(stored.sort(), [...tokens].sort());
  assert.equal(stats.maxInFlight, 2);
  for (const token of tokens) {
    const key = (await keys.findKey(token))!;
    assert.equal(key.publicKey, samplePair.publicKey);
    assert.ok(!key.privateKeyEnc.includes(samplePair.privateKey.toString('base64')));
    assert.deepEqual(open(secretKey, key.privateKeyEnc, token), samplePair.privateKey);
  }
  await generator.stop();
});

test('a restart finds tokens left without keys and generates real key pairs for them', async (t) => {
  await fixture.register('late.example.test');
  assert.equal((await keys.tokensWithoutKeys(100)).length, 3);
  const generator = new DkimKeyGenerator({ keys, secretKey, concurrency: 1 });
  const t0 = performance.now();
  generator.start();
  await generator.idle();
  const perKey = (performance.now() - t0) / 3;
  await generator.stop();
  assert.deepEqual(await keys.tokensWithoutKeys(100), []);
  // a figure, not a pass mark: tests never fail on timing (speed is `npm run bench`'s job)
  t.diagnostic(`${perKey.toFixed(0)} ms per key`);
});

test('deleting a domain destroys its keys (ON DELETE CASCADE) and leaves tombstones for the zones', async () => {
  const domains = await fixture.register('gone.example.test');
  const { generator } = fastGenerator({ concurrency: 1 });
  generator.nudge();
  await generator.idle();
  const tokens = domains.get('gone.example.test')!.records.flatMap((r) => (r.token ? [r.token] : []));
  assert.ok(await keys.findKey(tokens[0]!));
  const before = Date.now() - 1;
  await fixture.store.deleteDomains(fixture.accountId, ['gone.example.test']);
  for (const token of tokens) assert.equal(await keys.findKey(token), undefined);
  assert.deepEqual((await keys.changesSince(before)).deleted.sort(), [...tokens].sort());
});

test('a key generated for a domain deleted meanwhile is dropped, not an error', async () => {
  const domains = await fixture.register('racing.example.test');
  const [token] = domains.get('racing.example.test')!.records.flatMap((r) => (r.token ? [r.token] : []));
  await fixture.store.deleteDomains(fixture.accountId, ['racing.example.test']);
  const inserted = await keys.insertKey({
    token: token!,
    publicKey: 'x',
    privateKeyEnc: 'y',
    createdAt: Date.now(),
  });
  assert.equal(inserted, false);
});

test('revocation is kept, publishes an empty key, and is a change the zones read', async () => {
  const domains = await fixture.register('revoke.example.test');
  const { generator } = fastGenerator({ concurrency: 1 });
  generator.nudge();
  await generator.idle();
  const [token] = domains.get('revoke.example.test')!.records.flatMap((r) => (r.token ? [r.token] : []));
  const revokedAt = Date.now() + 60_000;
  assert.equal(await keys.revoke(token!, revokedAt), true);
  assert.equal(await keys.revoke(token!, revokedAt + 1000), true);
  assert.equal((await keys.findKey(token!))!.revokedAt, revokedAt);
  const changes = await keys.changesSince(revokedAt - 1);
  assert.deepEqual(
    changes.keys.map((k) => k.token),
    [token],
  );
  assert.deepEqual(await keys.publishedKeys([token!]), [{ token, publicKey: null }]);
  assert.equal(changes.latest, revokedAt);
  assert.equal(await keys.revoke('nosuchtoken', 1), false);
});

test('the zone serial rises once per content change, from any number of callers', async () => {
  const now = 1_700_000_000_000;
  const first = await keys.serialFor('dkim.z.test', 'd1', now);
  assert.equal(first, 1_700_000_000);
  assert.equal(await keys.serialFor('dkim.z.test', 'd1', now + 5000), first);
  const raised = await Promise.all([1, 2, 3].map(() => keys.serialFor('dkim.z.test', 'd2', now)));
  assert.deepEqual(raised, [first + 1, first + 1, first + 1]);
  // Never below the clock, so a recreated database still starts above old secondaries.
  assert.equal(await keys.serialFor('dkim.z.test', 'd3', now + 3_600_000), first + 3600);
});
