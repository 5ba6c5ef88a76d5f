import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ZoneKeys } from './zone-keys.js';

const keyText = (n: number) =>
  `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${n.toString(36).padStart(200, 'x')}IDAQAB`;

test('a key is published, replaced, revoked and deleted, by token in any case', () => {
  const keys = new ZoneKeys();
  assert.equal(keys.set({ token: 'AbC', publicKey: keyText(1) }), true);
  assert.equal(keys.get('abc'), keyText(1));
  assert.equal(
    keys.set({ token: 'abc', publicKey: keyText(1) }),
    false,
    'the same key again changes nothing',
  );
  assert.equal(keys.set({ token: 'abc', publicKey: keyText(2) }), true);
  assert.equal(keys.get('abc'), keyText(2));
  assert.equal(keys.set({ token: 'abc', publicKey: null }), true);
  assert.equal(keys.get('abc'), null, 'revoked: published as an empty p=');
  assert.equal(keys.delete('ABC'), true);
  assert.equal(keys.get('abc'), undefined);
  assert.equal(keys.delete('abc'), false);
  assert.equal(keys.size, 0);
});

test('thousands of changes keep every key intact across the buffer growing and compacting', () => {
  const keys = new ZoneKeys();
  const expected = new Map<string, string | null>();
  let seed = 7;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  for (let i = 0; i < 20_000; i++) {
    const token = `t${Math.floor(random() * 3_000)}`;
    const action = random();
    if (action < 0.6) {
      const publicKey = random() < 0.1 ? null : keyText(i).slice(0, 100 + Math.floor(random() * 300));
      keys.set({ token, publicKey });
      expected.set(token, publicKey);
    } else if (action < 0.8) {
      keys.delete(token);
      expected.delete(token);
    }
  }
  assert.equal(keys.size, expected.size);
  for (const [token, publicKey] of expected) assert.equal(keys.get(token), publicKey, token);
  assert.deepEqual(keys.tokens(), [...expected.keys()].sort());
});

test('the digest depends on the content, not on the order it was learnt in', () => {
  const records = Array.from({ length: 50 }, (_, i) => ({
    token: `k${i}`,
    publicKey: i % 7 ? keyText(i) : null,
  }));
  const forward = ZoneKeys.of(records);
  const backward = ZoneKeys.of([...records].reverse());
  assert.equal(forward.digest(), backward.digest());
  // a change and its undoing come back to the same digest
  const before = forward.digest();
  forward.set({ token: 'k1', publicKey: keyText(99) });
  assert.notEqual(forward.digest(), before);
  forward.set({ token: 'k1', publicKey: keyText(1) });
  assert.equal(forward.digest(), before);
  forward.delete('k2');
  forward.set({ token: 'k2', publicKey: keyText(2) });
  assert.equal(forward.digest(), before);
});

test('after any history of changes the zone equals one built from scratch with its content', () => {
  // Tokens shaped like ours (32 characters of base32, some sent in capitals), and enough churn
  // that the off-heap token table grows, shifts runs back on deletion and compacts its arena.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let seed = 13;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const newToken = () => Array.from({ length: 32 }, () => alphabet[Math.floor(random() * 32)]).join('');
  const keys = new ZoneKeys();
  const expected = new Map<string, string | null>();
  const live: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    const action = random();
    if (action < 0.45 || live.length === 0) {
      const token = newToken();
      const publicKey = random() < 0.1 ? null : keyText(i).slice(0, 50 + Math.floor(random() * 100));
      assert.equal(keys.set({ token: random() < 0.2 ? token.toUpperCase() : token, publicKey }), true);
      expected.set(token, publicKey);
      live.push(token);
    } else if (action < 0.85) {
      const at = Math.floor(random() * live.length);
      assert.equal(keys.delete(live[at]!), true);
      expected.delete(live[at]!);
      live[at] = live[live.length - 1]!;
      live.pop();
    } else {
      const token = live[Math.floor(random() * live.length)]!;
      const publicKey = random() < 0.5 ? null : keyText(-i);
      keys.set({ token, publicKey });
      expected.set(token, publicKey);
    }
  }
  const scratch = ZoneKeys.of([...expected].map(([token, publicKey]) => ({ token, publicKey })));
  assert.equal(keys.size, expected.size);
  for (const [token, publicKey] of expected) assert.equal(keys.get(token), publicKey, token);
  const tokens = keys.tokens();
  assert.deepEqual(tokens, [...expected.keys()].sort());
  assert.ok(
    tokens.every((token, i) => i === 0 || tokens[i - 1]! < token),
    'sorted',
  );
  assert.deepEqual(scratch.tokens(), tokens);
  assert.equal(keys.digest(), scratch.digest());
});

test('a token outside latin1 is kept as given, lowercased like any other', () => {
  const keys = new ZoneKeys();
  keys.set({ token: 'ΩMEGA', publicKey: keyText(1) });
  keys.set({ token: 'omega', publicKey: keyText(2) });
  assert.equal(keys.get('ωmega'), keyText(1));
  assert.equal(keys.get('omega'), keyText(2));
  assert.deepEqual(keys.tokens(), ['omega', 'ωmega']);
  assert.equal(
    keys.digest(),
    ZoneKeys.of([
      { token: 'omega', publicKey: keyText(2) },
      { token: 'ωmega', publicKey: keyText(1) },
    ]).digest(),
  );
  assert.equal(keys.delete('ΩMEGA'), true);
  assert.deepEqual(keys.tokens(), ['omega']);
});
