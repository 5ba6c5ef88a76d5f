/** API key hashing and the constant-time comparison every authenticated request makes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey, hashesEqual } from './api-key.js';

test('a key hashes to the hash stored for it, and only that hash compares equal', () => {
  const key = generateApiKey();
  const other = generateApiKey();
  assert.equal(hashApiKey(key.secret), key.hash);
  assert.equal(hashesEqual(hashApiKey(key.secret), key.hash), true);
  assert.equal(hashesEqual(hashApiKey(other.secret), key.hash), false);
  // one character apart, first and last
  const flip = (hash: string, at: number) =>
    hash.slice(0, at) + (hash[at] === '0' ? '1' : '0') + hash.slice(at + 1);
  assert.equal(hashesEqual(flip(key.hash, 0), key.hash), false);
  assert.equal(hashesEqual(key.hash, flip(key.hash, 63)), false);
});

test('hashes of another length are never equal, even to themselves', () => {
  const { hash } = generateApiKey();
  assert.equal(hashesEqual(hash.slice(0, 32), hash.slice(0, 32)), false);
  assert.equal(hashesEqual(`${hash}00`, `${hash}00`), false);
  assert.equal(hashesEqual('', ''), false);
});

test('a comparison leaves nothing behind for the next one', () => {
  const a = generateApiKey().hash;
  const b = generateApiKey().hash;
  assert.equal(hashesEqual(a, a), true);
  assert.equal(hashesEqual(a, b), false);
  assert.equal(hashesEqual(b, b), true);
});
