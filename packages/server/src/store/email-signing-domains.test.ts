/**
 * One read of a registration's keys for the signing requests of one turn: never a cached one
 * (a key revoked before a request is never used for it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SigningDomain } from './dkim-key-store.js';
import { signingDomainsOncePerTurn } from './email-signing-domains.js';

/** A store whose answer is `state` at the moment each read is sent; the reads are counted. */
function countingStore() {
  const reads: string[] = [];
  let state = 'active';
  return {
    reads,
    revoke: () => {
      state = 'revoked';
    },
    keys: {
      signingDomains(name: string, accountId?: string): Promise<SigningDomain[]> {
        reads.push(`${name}/${accountId}`);
        const seen = state;
        return new Promise((resolve) =>
          setTimeout(() => resolve([{ name, accountId, status: seen } as unknown as SigningDomain]), 5),
        );
      },
    },
  };
}

test('the requests of one turn share one read per registration; each gets the answer', async () => {
  const store = countingStore();
  const keys = signingDomainsOncePerTurn(store.keys);
  const answers = await Promise.all([
    ...Array.from({ length: 100 }, () => keys.signingDomains('mail.example.com', 'acc_1')),
    keys.signingDomains('mail.example.com', 'acc_2'),
    keys.signingDomains('news.example.com', 'acc_1'),
  ]);
  assert.deepEqual(store.reads, [
    'mail.example.com/acc_1',
    'mail.example.com/acc_2',
    'news.example.com/acc_1',
  ]);
  assert.equal(answers.length, 102);
  assert.equal(answers[99]![0]!.name, 'mail.example.com');
  assert.equal(answers[101]![0]!.name, 'news.example.com');
});

test('a request made once the read is sent gets a read of its own: a revocation in between is seen', async () => {
  const store = countingStore();
  const keys = signingDomainsOncePerTurn(store.keys);
  const first = keys.signingDomains('mail.example.com', 'acc_1');
  // the read goes out within this turn's microtasks
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(store.reads.length, 1);
  store.revoke();
  const second = keys.signingDomains('mail.example.com', 'acc_1');
  assert.equal(((await first)[0] as unknown as { status: string }).status, 'active');
  assert.equal(((await second)[0] as unknown as { status: string }).status, 'revoked');
  assert.equal(store.reads.length, 2);
  // and nothing is kept: later, another read
  await keys.signingDomains('mail.example.com', 'acc_1');
  assert.equal(store.reads.length, 3);
});
