import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { privateKeyObject } from './key-pair.js';
import { KeygenPool } from './keygen-pool.js';

/** Nice values of this process's threads (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test('the pool generates matching RSA-2048 pairs on threads at nice 19, at most `size` at once', async () => {
  const pool = new KeygenPool(2);
  try {
    const pairs = await Promise.all([pool.generate(), pool.generate(), pool.generate()]);
    for (const pair of pairs) {
      const derived = createPublicKey(privateKeyObject(pair.privateKey)).export({
        format: 'der',
        type: 'spki',
      });
      assert.equal(derived.toString('base64'), pair.publicKey);
      assert.equal(
        createPublicKey(privateKeyObject(pair.privateKey)).asymmetricKeyDetails?.modulusLength,
        2048,
      );
    }
    assert.equal(new Set(pairs.map((p) => p.publicKey)).size, 3);
    const niced = threadNiceValues().filter((n) => n === 19).length;
    assert.equal(niced, 2, 'two worker threads at the lowest priority; the event loop keeps its own');
    assert.equal(threadNiceValues()[0], 0);
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.generate(), /closed/);
  assert.throws(() => new KeygenPool(0), RangeError);
  assert.throws(() => new KeygenPool(1, 20), RangeError);
});

test('DKIM_KEYGEN_NICE sets the threads’ niceness (a loaded machine can trade latency for keys)', async () => {
  const pool = new KeygenPool(1, 5);
  try {
    await pool.generate();
    assert.equal(threadNiceValues().filter((n) => n === 5).length, 1);
  } finally {
    await pool.close();
  }
});
