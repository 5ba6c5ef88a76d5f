/**
 * Unsubscribe tokens (`unsubscribe.ts`). Issue 33: tokens with a changed unused low bit, an
 * inserted `!` or a trailing NUL were accepted as the real one; only the canonical form is.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { readUnsubscribeToken, unsubscribeKey, unsubscribeToken } from './unsubscribe.js';

const key = unsubscribeKey(randomBytes(32));
const recipient = 'rcp_01JD8Z3Q5W7Y9A1C3E5G7J9K1M';

test('the token names its recipient; another key or recipient does not read it', () => {
  const token = unsubscribeToken(key, recipient);
  assert.equal(readUnsubscribeToken(key, token), recipient);
  assert.equal(readUnsubscribeToken(unsubscribeKey(randomBytes(32)), token), undefined);
  const [, mac] = token.split('.');
  assert.equal(readUnsubscribeToken(key, `rcp_other.${mac}`), undefined);
});

test('only the canonical encoding is accepted', () => {
  const token = unsubscribeToken(key, recipient);
  const dot = token.lastIndexOf('.');
  const mac = token.slice(dot + 1);
  // 16 bytes are 22 base64url characters: the last one carries 2 bits and 4 unused ones.
  assert.equal(mac.length, 22);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(mac.at(-1)!);
  const lowBitChanged = `${token.slice(0, -1)}${alphabet[last ^ 1]}`;
  assert.deepEqual(Buffer.from(lowBitChanged.slice(dot + 1), 'base64url'), Buffer.from(mac, 'base64url'));
  const variants = [
    lowBitChanged,
    `${token.slice(0, dot + 5)}!${token.slice(dot + 5)}`,
    `${token}\0`,
    `${token}=`,
    `${token.slice(0, dot + 1)}${Buffer.from(mac, 'base64url').toString('base64')}`,
  ];
  for (const variant of variants) assert.equal(readUnsubscribeToken(key, variant), undefined, variant);
});
