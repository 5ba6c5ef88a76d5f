import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenTable } from './token-table.js';

/** A seeded generator (Park–Miller), so a failure can be replayed. */
const randomFrom = (seed: number) => () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};

const shuffled = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

/** Asserts that `table` holds exactly what `model` holds, through every public read. */
const assertSame = (table: TokenTable, model: Map<string, number>) => {
  assert.equal(table.size, model.size);
  for (const [key, value] of model) assert.equal(table.get(key), value, key);
  const keys = [...table.keys()];
  const values = [...table.values()];
  assert.deepEqual([...keys].sort(), [...model.keys()].sort());
  assert.deepEqual(
    values,
    keys.map((key) => model.get(key)),
    'values() follows the order of keys()',
  );
};

test('a key is added, found, replaced and deleted', () => {
  const table = new TokenTable();
  assert.equal(table.get('abc'), undefined);
  table.set('abc', 7);
  assert.equal(table.get('abc'), 7);
  assert.equal(table.get('ABC'), undefined, 'keys are case-sensitive: the caller lowercases');
  table.set('abc', -1);
  assert.equal(table.get('abc'), -1);
  assert.equal(table.size, 1);
  assert.equal(table.delete('abc'), true);
  assert.equal(table.delete('abc'), false);
  assert.equal(table.get('abc'), undefined);
  assert.equal(table.size, 0);
  table.set('', 3);
  assert.equal(table.get(''), 3, 'the empty string is a key like any other');
});

test('a value that is not a 32-bit signed integer is refused with a RangeError', () => {
  const table = new TokenTable();
  for (const value of [2 ** 31, -(2 ** 31) - 1, 1.5, Number.NaN]) {
    assert.throws(() => table.set('k', value), RangeError);
  }
  table.set('k', 2 ** 31 - 1);
  table.set('j', -(2 ** 31));
  assert.equal(table.get('k'), 2 ** 31 - 1);
  assert.equal(table.get('j'), -(2 ** 31));
});

test('random operations agree with a Map through growth, deletion and reuse of entries', () => {
  const table = new TokenTable();
  const model = new Map<string, number>();
  const random = randomFrom(11);
  const keys = Array.from({ length: 6_000 }, (_, i) => `k${i.toString(36)}`);
  const sizes = [table.byteSize];
  // First mostly adding (the index and entries grow several times), then mostly deleting (long
  // runs of shifted entries), then balanced churn (freed entries reused).
  for (const addShare of [0.9, 0.3, 0.5]) {
    for (let i = 0; i < 30_000; i++) {
      const key = keys[Math.floor(random() * keys.length)]!;
      const action = random();
      if (action < addShare) {
        const value = Math.floor(random() * 2 ** 32) - 2 ** 31;
        table.set(key, value);
        model.set(key, value);
      } else if (action < 0.95) {
        assert.equal(table.delete(key), model.delete(key), key);
      } else {
        assert.equal(table.get(key), model.get(key), key);
      }
      if (i % 1_000 === 0) assert.equal(table.size, model.size);
    }
    assertSame(table, model);
    sizes.push(table.byteSize);
  }
  assert.ok(sizes[1]! > sizes[0]! * 2, `the table grew: ${sizes.join(' → ')} bytes`);
});

test('deleting keys from full probe runs leaves every other key findable (backward shift)', () => {
  // The index is kept at most half full; filled to just under a power of two, the table is as
  // crowded as it gets: long runs of keys that collided, some wrapping round the end of the index. Deleting from the middle of
  // such runs must shift the keys behind the hole back without moving any before its home.
  const random = randomFrom(5);
  for (const count of [1_023, 2_047, 4_095]) {
    const table = new TokenTable();
    const model = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const key = `run-${count}-${i}`;
      table.set(key, i);
      model.set(key, i);
    }
    const order = shuffled([...model.keys()], random);
    for (const [n, key] of order.entries()) {
      assert.equal(table.delete(key), true, key);
      model.delete(key);
      if (n % 97 === 0) assertSame(table, model);
      // and back in now and then, into whatever hole the shifts left
      if (n % 3 === 0) {
        table.set(key, -n - 1);
        assert.equal(table.get(key), -n - 1, key);
        table.delete(key);
      }
    }
    assertSame(table, model);
  }
});

test('churn compacts the key arena: the size stays bounded and every key survives', () => {
  // 1,000 live keys of 32 characters (32 kB), then 200,000 replacements by new keys: 6.4 MB of
  // key bytes go through the arena. Without compaction it would have to grow past that; with it,
  // it keeps its size and moves the live keys to new places many times over, and a key moved
  // wrongly would be lost or read back as another.
  const table = new TokenTable();
  const model = new Map<string, number>();
  const key = (n: number) => `t${n.toString(32).padStart(31, 'a')}`;
  for (let n = 0; n < 1_000; n++) {
    table.set(key(n), n);
    model.set(key(n), n);
  }
  const before = table.byteSize;
  const random = randomFrom(3);
  const live = [...model.keys()];
  for (let n = 1_000; n < 201_000; n++) {
    const at = Math.floor(random() * live.length);
    const old = live[at]!;
    assert.equal(table.delete(old), true);
    model.delete(old);
    live[at] = key(n);
    table.set(key(n), n);
    model.set(key(n), n);
    if (n % 10_007 === 0) assertSame(table, model);
  }
  assertSame(table, model);
  assert.ok(table.byteSize <= before * 2, `${before} → ${table.byteSize} bytes`);
});

test('keys with characters above U+00FF are kept exactly, beside latin1 keys of the same length', () => {
  const table = new TokenTable();
  const keys = [
    'ab',
    'éü', // latin1: one byte a character
    'aĀ', // U+0100: two bytes a character
    'Āa',
    'a\ud800', // a lone surrogate
    '😀', // a surrogate pair, as long as 'ab'
    'ā'.repeat(300),
    'a'.repeat(300),
  ];
  const model = new Map(keys.map((key, i) => [key, i]));
  for (const [key, value] of model) table.set(key, value);
  assertSame(table, model);
  assert.equal(table.get('aā'), undefined, 'a wide string that is not there');
  assert.equal(table.get('Ā'), undefined);
  // churn them through a compaction of the arena
  for (let n = 0; n < 5_000; n++) {
    const key = `${n % 2 ? 'Ω' : 'o'}${'x'.repeat(40)}${n}`;
    table.set(key, n);
    table.delete(key);
  }
  assertSame(table, model);
  for (const key of keys.slice(0, 4)) {
    table.delete(key);
    model.delete(key);
  }
  assertSame(table, model);
});
