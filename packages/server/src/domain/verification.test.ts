import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshRecord } from './model.js';
import { applyObservation, domainStatusOf, nextCheckDelay, type Observation } from './verification.js';

const GRACE = 72 * 3600_000;
const miss: Observation = { outcome: 'miss', reason: 'not_found', found: null, detail: 'no CNAME' };
const pending = freshRecord('dkim', 0, 't');

describe('applyObservation', () => {
  test('a match verifies and clears the diagnostics', () => {
    const state = applyObservation(
      { ...pending, reason: 'not_found', detail: 'x' },
      { outcome: 'match' },
      10,
      GRACE,
    );
    assert.deepEqual(
      [state.status, state.reason, state.detail, state.checkedAt, state.verifiedAt],
      ['verified', null, null, 10, 10],
    );
  });

  test('a miss on a pending record keeps it pending with the reason', () => {
    const state = applyObservation(
      pending,
      { ...miss, reason: 'wrong_value', found: 'other.example' },
      5,
      GRACE,
    );
    assert.deepEqual([state.status, state.reason, state.found], ['pending', 'wrong_value', 'other.example']);
  });

  test('a DNS error never changes a status', () => {
    const verified = applyObservation(pending, { outcome: 'match' }, 1, GRACE);
    for (const before of [pending, verified]) {
      const after = applyObservation(before, { outcome: 'error', detail: 'timeout' }, 2, GRACE);
      assert.equal(after.status, before.status);
      assert.equal(after.reason, 'dns_error');
      assert.equal(after.missingSince, before.missingSince);
    }
  });

  test('a verified record goes back to pending only after the whole grace period', () => {
    let state = applyObservation(pending, { outcome: 'match' }, 0, GRACE);
    state = applyObservation(state, miss, 1000, GRACE);
    assert.deepEqual([state.status, state.missingSince, state.reason], ['verified', 1000, 'not_found']);
    assert.match(state.detail!, /grace period/);
    state = applyObservation(state, { outcome: 'error', detail: 'timeout' }, 2000, GRACE);
    assert.equal(state.missingSince, 1000, 'an error does not reset the clock');
    state = applyObservation(state, miss, 1000 + GRACE - 1, GRACE);
    assert.equal(state.status, 'verified');
    state = applyObservation(state, miss, 1000 + GRACE, GRACE);
    assert.deepEqual([state.status, state.missingSince, state.verifiedAt], ['pending', null, null]);
  });

  test('a record that reappears within the grace period stays verified and the clock resets', () => {
    let state = applyObservation(pending, { outcome: 'match' }, 0, GRACE);
    state = applyObservation(state, miss, 100, GRACE);
    state = applyObservation(state, { outcome: 'match' }, 200, GRACE);
    assert.deepEqual([state.status, state.missingSince, state.verifiedAt], ['verified', null, 0]);
  });
});

test('the domain is verified when its three DKIM records are, whatever DMARC says', () => {
  const dkim = (status: 'pending' | 'verified') => ({ kind: 'dkim' as const, status });
  assert.equal(
    domainStatusOf([
      dkim('verified'),
      dkim('verified'),
      dkim('verified'),
      { kind: 'dmarc', status: 'pending' },
    ]),
    'verified',
  );
  assert.equal(
    domainStatusOf([
      dkim('verified'),
      dkim('pending'),
      dkim('verified'),
      { kind: 'dmarc', status: 'verified' },
    ]),
    'pending',
  );
});

test('checks back off: minutes, then hourly for 72 hours, then daily; verified daily', () => {
  const created = 0;
  const delays = [1, 2, 3, 4, 5, 6, 7].map(
    (n) => nextCheckDelay({ status: 'pending', createdAt: created, checkCount: n }, 3600_000) / 60_000,
  );
  assert.deepEqual(delays, [1, 2, 5, 10, 15, 30, 60]);
  assert.equal(
    nextCheckDelay({ status: 'pending', createdAt: 0, checkCount: 50 }, 73 * 3600_000),
    24 * 3600_000,
  );
  assert.equal(nextCheckDelay({ status: 'verified', createdAt: 0, checkCount: 1 }, 1), 24 * 3600_000);
});
