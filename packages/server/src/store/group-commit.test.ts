/** Group commit: writes arriving together share a transaction; a bad one fails alone. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from './group-commit.js';

/** A writer that records its transactions, and fails any that holds `bad`. */
function recorder(bad?: number) {
  const transactions: number[][] = [];
  const commit = (items: number[]) => {
    if (bad !== undefined && items.includes(bad)) return Promise.reject(new Error(`cannot write ${bad}`));
    transactions.push(items);
    return Promise.resolve();
  };
  const group = new GroupCommit<number>({
    writeAll: (items) => commit(items),
    writeOne: (item) => commit([item]),
    maxItems: 4,
  });
  return { group, transactions };
}

test('writes made in one turn share transactions of at most maxItems, in order', async () => {
  const { group, transactions } = recorder();
  await Promise.all(Array.from({ length: 10 }, (_, i) => group.write(i)));
  assert.deepEqual(transactions, [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9],
  ]);
});

test('writes arriving while a transaction is written go together in the next one', async () => {
  const transactions: number[][] = [];
  let release: () => void = () => {};
  const group = new GroupCommit<number>({
    writeAll: async (items) => void transactions.push(items),
    writeOne: async (item) => {
      transactions.push([item]);
      // the first transaction waits, as a commit waits for the disk
      if (item === 0) await new Promise<void>((resolve) => (release = resolve));
    },
    maxItems: 100,
  });
  const first = group.write(0);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  const later = [1, 2, 3].map((i) => group.write(i));
  release();
  await Promise.all([first, ...later]);
  assert.deepEqual(transactions, [[0], [1, 2, 3]]);
});

test('a write that fails fails alone: its neighbours are written one by one and succeed', async () => {
  const { group, transactions } = recorder(2);
  const settled = await Promise.allSettled([0, 1, 2, 3].map((i) => group.write(i)));
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((settled[2] as PromiseRejectedResult).reason), /cannot write 2/);
  assert.deepEqual(transactions, [[0], [1], [3]]);
  // and the writer goes on afterwards
  await group.write(5);
  assert.deepEqual(transactions.at(-1), [5]);
});
