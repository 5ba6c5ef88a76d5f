import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshRecord } from './model.js';
import {
  applyObservation,
  domainStatusOf,
  NO_SCHEDULED_CHECK,
  nextScheduledCheck,
  type Observation,
} from './verification.js';

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

describe('nextScheduledCheck', () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const created = Date.parse('2026-11-22T12:00:00Z');
  const pendingAt = (age: number) =>
    nextScheduledCheck({ status: 'pending', createdAt: created }, created + age);

  test('a pending domain: 1, 2, 5, 10, 15, 30 minutes, hourly to 72 hours, then daily', () => {
    // Each check run exactly when due: the points of the schedule, as ages.
    const points: number[] = [];
    for (let at = 0; points.length < 80; ) {
      at = pendingAt(at) - created;
      points.push(at);
    }
    assert.deepEqual(
      points.slice(0, 8),
      [1, 2, 5, 10, 15, 30, 60, 120].map((m) => m * MINUTE),
    );
    assert.deepEqual(
      points.slice(76, 80),
      [71, 72, 96, 120].map((h) => h * HOUR),
    );
  });

  test('the next point is the first after now, however many checks ran before', () => {
    assert.equal(pendingAt(0), created + MINUTE);
    assert.equal(pendingAt(59_999), created + MINUTE);
    assert.equal(pendingAt(MINUTE), created + 2 * MINUTE, 'a check on a point moves to the next');
    assert.equal(pendingAt(MINUTE + 500), created + 2 * MINUTE, 'a late check keeps the schedule');
    assert.equal(pendingAt(3 * MINUTE), created + 5 * MINUTE);
    assert.equal(pendingAt(45 * MINUTE), created + HOUR);
    assert.equal(pendingAt(5 * HOUR + 1), created + 6 * HOUR);
    assert.equal(pendingAt(72 * HOUR - 1), created + 72 * HOUR);
    assert.equal(pendingAt(80 * HOUR), created + 96 * HOUR);
    assert.equal(pendingAt(29 * 24 * HOUR + 1), created + 30 * 24 * HOUR, 'the last scheduled check');
  });

  test('a domain pending for 30 days is checked only when its status is requested', () => {
    assert.equal(pendingAt(30 * 24 * HOUR), NO_SCHEDULED_CHECK);
    assert.equal(pendingAt(400 * 24 * HOUR), NO_SCHEDULED_CHECK);
    const points: number[] = [];
    for (let at = 0; at !== NO_SCHEDULED_CHECK - created; ) {
      at = pendingAt(at) - created;
      points.push(at);
    }
    // 6 early points, 72 hourly ones, then daily from day 4 to day 30, then none
    assert.equal(points.length, 6 + 72 + 27 + 1);
    assert.equal(points.at(-2), 30 * 24 * HOUR);
  });

  test('regression: status polls every 5 s do not use up the early checks', () => {
    // The dashboard and `sendctl domains wait` poll every 5 s, and each poll checks; the
    // schedule used to advance per check, reaching hourly checks 35 s after registering.
    for (let age = 5_000; age <= 6 * MINUTE; age += 5_000) {
      const expected = [1, 2, 5, 10].map((m) => m * MINUTE).find((p) => p > age)!;
      assert.equal(pendingAt(age), created + expected, `poll ${age / 1000} s after registering`);
    }
  });

  test('never in the past, even for a registration stamped ahead of this clock', () => {
    assert.equal(pendingAt(-10_000), created + MINUTE);
  });

  test('a verified domain is re-checked a day after its last check', () => {
    const now = created + 10 * HOUR + 123;
    assert.equal(nextScheduledCheck({ status: 'verified', createdAt: created }, now), now + 24 * HOUR);
  });
});

describe('persistent DNS errors', () => {
  const error = (server?: string): Observation => ({
    outcome: 'error',
    detail: 'ns1.example.test (192.0.2.1) answered SERVFAIL',
    ...(server && { server }),
  });
  test('an error met on every check for an hour says so and whose server to fix; the status never moves', () => {
    const HOUR = 3600_000;
    let state = applyObservation(pending, error('ns1.example.test (192.0.2.1)'), 1000, GRACE);
    assert.deepEqual(
      [state.reason, state.errorSince, state.detail],
      ['dns_error', 1000, 'ns1.example.test (192.0.2.1) answered SERVFAIL'],
    );
    state = applyObservation(state, error('ns1.example.test (192.0.2.1)'), 1000 + HOUR - 1, GRACE);
    assert.equal(state.detail, 'ns1.example.test (192.0.2.1) answered SERVFAIL', 'under an hour: transient');
    state = applyObservation(state, error('ns1.example.test (192.0.2.1)'), 1000 + HOUR, GRACE);
    assert.equal(
      state.detail,
      'ns1.example.test (192.0.2.1) answered SERVFAIL on every check since 1970-01-01T00:00:01.000Z: not a passing outage; fix ns1.example.test (192.0.2.1) at your DNS provider (it should answer for this zone)',
    );
    assert.equal(state.status, 'pending');
  });
  test('a definitive answer in between starts the count again', () => {
    let state = applyObservation(pending, error(), 0, GRACE);
    state = applyObservation(state, miss, 10, GRACE);
    assert.equal(state.errorSince, null);
    state = applyObservation(state, error(), 3600_000 * 5, GRACE);
    assert.equal(state.errorSince, 3600_000 * 5);
    assert.doesNotMatch(state.detail!, /every check/);
  });
});
