import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextAttemptAt } from './retry-schedule.js';

const DAY = 86_400_000;
const policy = { baseMs: 5_000, maxDelayMs: 6 * 3600_000, retryForMs: 3 * DAY };

test('delays double from the base, jittered between half and all of the delay, up to the maximum', () => {
  assert.equal(
    nextAttemptAt(policy, 1, 0, 0, () => 0),
    2_500,
  );
  assert.equal(
    nextAttemptAt(policy, 1, 0, 0, () => 1),
    5_000,
  );
  assert.equal(
    nextAttemptAt(policy, 3, 0, 0, () => 1),
    20_000,
  );
  assert.equal(
    nextAttemptAt(policy, 40, 0, 0, () => 1),
    policy.maxDelayMs,
  );
});

test('no attempt after the retry window; the last one lands at its end', () => {
  assert.equal(
    nextAttemptAt(policy, 20, 0, 3 * DAY, () => 1),
    null,
  );
  assert.equal(
    nextAttemptAt(policy, 20, 0, 3 * DAY - 1000, () => 1),
    3 * DAY,
  );
});
