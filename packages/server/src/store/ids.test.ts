/** Ids (issue 37: made without `rfc4648` and one CSPRNG call each): the same spelling, never repeated. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base32 } from 'rfc4648';
import { base32Lower, newId } from './ids.js';

test('base32Lower spells bytes as rfc4648 does (lower case, no padding), whatever their length', () => {
  for (let length = 0; length <= 40; length++)
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(length);
      assert.equal(base32Lower(bytes), base32.stringify(bytes, { pad: false }).toLowerCase());
    }
  assert.equal(base32Lower(Buffer.alloc(12, 0xff)), `${'7'.repeat(19)}q`);
});

test('an id is its prefix and 20 base32 characters (96 bits), and 100,000 of them never repeat', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 100_000; i++) {
    const id = newId('eml');
    assert.match(id, /^eml_[a-z2-7]{20}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 100_000);
});
