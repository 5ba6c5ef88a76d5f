import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadCache } from './read-cache.js';

test('entries expire after the TTL', () => {
  let now = 1000;
  const cache = new ReadCache<string>(50, 10, () => now);
  cache.set('a', 'A');
  assert.equal(cache.get('a'), 'A');
  now += 49;
  assert.equal(cache.get('a'), 'A');
  now += 1;
  assert.equal(cache.get('a'), undefined);
});

test('the oldest entry is evicted past the size bound', () => {
  const cache = new ReadCache<number>(1000, 2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('b'), 2);
  assert.equal(cache.get('c'), 3);
});

test('a TTL of 0 disables caching', () => {
  const cache = new ReadCache<number>(0);
  cache.set('a', 1);
  assert.equal(cache.get('a'), undefined);
});

test('a read through the cache loads a miss once and caches what it found', async () => {
  const cache = new ReadCache<string>(1000);
  let loads = 0;
  const load = async () => {
    loads += 1;
    return 'A';
  };
  assert.equal(await cache.read('a', load), 'A');
  assert.equal(await cache.read('a', load), 'A');
  assert.equal(loads, 1);
  assert.equal(await cache.read('missing', async () => undefined), undefined);
  assert.equal(cache.get('missing'), undefined, 'a miss is never cached');
});

test('a read that overlapped an invalidation does not cache its answer, which may predate it', async () => {
  const cache = new ReadCache<string>(1000);
  let release!: () => void;
  const slow = cache.read('a', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
  cache.delete('a'); // another process's change arrives while the read is under way
  release();
  assert.equal(await slow, 'old');
  assert.equal(cache.get('a'), undefined);
});

test('deleteWhere drops the entries whose value matches', () => {
  const cache = new ReadCache<{ id: string }>(1000);
  cache.set('h1', { id: 'key_1' });
  cache.set('h2', { id: 'key_2' });
  cache.deleteWhere((value) => value.id === 'key_1');
  assert.equal(cache.get('h1'), undefined);
  assert.deepEqual(cache.get('h2'), { id: 'key_2' });
});
