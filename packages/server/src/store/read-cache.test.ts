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
