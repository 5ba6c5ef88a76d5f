import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newToken, TOKEN_LENGTH } from './token.js';

test('tokens are 32 characters of lowercase base32', () => {
  for (let i = 0; i < 200; i++) assert.match(newToken(), /^[a-z2-7]{32}$/);
  assert.equal(TOKEN_LENGTH, 32);
});

test('tokens encode all 160 random bits', () => {
  assert.equal(
    newToken(() => new Uint8Array(20)),
    'a'.repeat(32),
  );
  assert.equal(
    newToken(() => new Uint8Array(20).fill(255)),
    '7'.repeat(32),
  );
  assert.notEqual(newToken(), newToken());
});
