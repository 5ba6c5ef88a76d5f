import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { childImport } from './child-import.js';
import {
  addressesOnLoopback,
  claimLoopbackAddress,
  isLoopbackClaimed,
  LOOPBACK_POOL,
  type LoopbackClaim,
} from './loopback.js';

/** A child process that claims an address, prints it, and then exits or waits to be killed. */
function claimInChild(ending: 'exits' | 'waits') {
  const subject = childImport(import.meta.url, './loopback.ts');
  const script = `
    import { claimLoopbackAddress } from ${JSON.stringify(subject.href)};
    const claim = await claimLoopbackAddress();
    console.log(claim.address);
    if (process.env.ENDING === 'waits') setInterval(() => {}, 1000);
  `;
  const child = execFile(process.execPath, [...subject.nodeArgs, '--input-type=module', '-e', script], {
    env: { ...process.env, ENDING: ending },
  });
  const address = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before claiming`)));
  });
  return { child, address };
}

test('claims are one process at a time, within the pool, and given back as found', async () => {
  const heldBefore = addressesOnLoopback();
  const mine: LoopbackClaim[] = [await claimLoopbackAddress(), await claimLoopbackAddress()];
  try {
    const { child, address } = claimInChild('waits');
    const theirs = await address;
    try {
      const all = [...mine.map((c) => c.address), theirs];
      assert.equal(new Set(all).size, 3, `three different addresses: ${all.join(', ')}`);
      for (const a of all) {
        assert.ok(LOOPBACK_POOL.includes(a), `${a} is in the pool`);
        assert.ok(isLoopbackClaimed(a), `${a} is claimed`);
        assert.ok(addressesOnLoopback().has(a), `${a} is on lo`);
      }
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    // killed outright: its claim file stays, and counts for nothing; the address it added (alone,
    // outside the runner) is left for whoever killed it
    assert.equal(isLoopbackClaimed(theirs), false);
    if (!heldBefore.has(theirs)) execFileSync('ip', ['addr', 'del', `${theirs}/32`, 'dev', 'lo']);
    const takeover = await claimLoopbackAddress(async (a) => a === theirs);
    assert.equal(takeover.address, theirs);
    assert.ok(isLoopbackClaimed(theirs));
    mine.push(takeover);
  } finally {
    for (const claim of mine) claim.release();
  }
  for (const claim of mine) {
    assert.equal(isLoopbackClaimed(claim.address), false);
    // the test runner holds the pool on lo for the whole run; alone, a claim adds and removes
    assert.equal(addressesOnLoopback().has(claim.address), heldBefore.has(claim.address));
  }
});

test('a process that exits gives its claim back', async () => {
  const { child, address } = claimInChild('exits');
  const claimed = await address;
  await once(child, 'exit');
  assert.equal(isLoopbackClaimed(claimed), false);
});

test('a claim no address fits is refused with what to look at', async () => {
  await assert.rejects(
    claimLoopbackAddress(async () => false),
    /no address of 127\.0\.25\.1-254 is both unclaimed and usable/,
  );
});
