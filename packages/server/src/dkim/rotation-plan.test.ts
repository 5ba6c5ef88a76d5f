import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyState } from '../domain/model.js';
import {
  KEYS_PENDING_RETRY_MS,
  NOT_PUBLISHED_RETRY_MS,
  type PlanSelector,
  planRotation,
  type RotationSettings,
} from './rotation-plan.js';

const DAY = 86_400_000;
const settings: RotationSettings = { intervalMs: 90 * DAY, retiredKeepMs: 7 * DAY, propagationMs: 302_000 };
const T0 = Date.UTC(2026, 0, 1);

function selector(
  token: string,
  state: KeyState | null,
  since: number | null,
  extra: Partial<PlanSelector> = {},
): PlanSelector {
  return {
    token,
    key: state === null ? null : { state, since, createdAt: since ?? T0 },
    revoked: false,
    inCustomerDns: true,
    ...extra,
  };
}

const plan = (selectors: PlanSelector[], now: number, requestedAt: number | null = null, s = settings) =>
  planRotation(selectors, { now, requestedAt }, s);

describe('planRotation', () => {
  test('waits while a key is still being made', () => {
    const result = plan(
      [selector('a', 'active', T0), selector('b', null, null), selector('c', 'next', T0)],
      T0,
    );
    assert.deepEqual(result, { step: null, wakeAt: T0 + KEYS_PENDING_RETRY_MS, nextRotationAt: null });
  });

  test('a next key not yet seen served everywhere is confirmed first', () => {
    const result = plan(
      [selector('a', 'active', T0), selector('b', 'next', null), selector('c', 'next', null)],
      T0,
    );
    assert.deepEqual(result.step, { kind: 'confirm', token: 'b' });
    assert.equal(result.nextRotationAt, T0 + 90 * DAY);
  });

  test('signing switches when the interval is up, to the next key served longest', () => {
    const selectors = [
      selector('a', 'active', T0),
      selector('b', 'next', T0 + 2000),
      selector('c', 'next', T0 + 1000),
    ];
    const before = plan(selectors, T0 + 90 * DAY - 1);
    assert.deepEqual(before, { step: null, wakeAt: T0 + 90 * DAY, nextRotationAt: T0 + 90 * DAY });
    const due = plan(selectors, T0 + 90 * DAY);
    assert.deepEqual(due.step, { kind: 'switch', from: 'a', to: 'c' });
  });

  test('a requested rotation switches at once when the next key was served longer than the TTL', () => {
    const selectors = [selector('a', 'active', T0), selector('b', 'next', T0), selector('c', 'next', T0)];
    const now = T0 + DAY;
    assert.deepEqual(plan(selectors, now, now).step, { kind: 'switch', from: 'a', to: 'b' });
  });

  test('never before the old answer’s TTL has passed since the key was served everywhere', () => {
    const now = T0 + 91 * DAY;
    const servedAt = now - 1000;
    const selectors = [
      selector('a', 'active', T0),
      selector('b', 'next', servedAt),
      selector('c', 'retired', T0),
    ];
    const result = plan(selectors, now, now);
    assert.deepEqual(result, {
      step: null,
      wakeAt: servedAt + settings.propagationMs,
      nextRotationAt: servedAt + settings.propagationMs,
    });
    assert.deepEqual(plan(selectors, servedAt + settings.propagationMs).step, {
      kind: 'switch',
      from: 'a',
      to: 'b',
    });
  });

  test('a retired key is kept for mail in flight, then its selector gets a new key', () => {
    const switchedAt = T0 + 90 * DAY;
    const selectors = [
      selector('a', 'retired', switchedAt),
      selector('b', 'active', switchedAt),
      selector('c', 'retired', T0 + 10 * DAY),
    ];
    // c retired longer ago: it is freed first
    const early = plan(selectors, switchedAt + DAY);
    assert.deepEqual(early.step, { kind: 'replace', token: 'c' });
    const kept = plan([selectors[0]!, selectors[1]!], switchedAt + DAY);
    assert.deepEqual(kept, {
      step: null,
      wakeAt: switchedAt + 7 * DAY,
      nextRotationAt: switchedAt + 90 * DAY,
    });
    assert.deepEqual(plan([selectors[0]!, selectors[1]!], switchedAt + 7 * DAY).step, {
      kind: 'replace',
      token: 'a',
    });
  });

  test('with an interval shorter than the keeping, the switch waits for a selector to be free', () => {
    const short = { ...settings, intervalMs: 5 * DAY };
    const now = T0 + 16 * DAY;
    const selectors = [
      selector('a', 'retired', T0 + 15 * DAY),
      selector('b', 'active', T0 + 15 * DAY),
      selector('c', 'retired', T0 + 10 * DAY),
    ];
    const result = plan(selectors, now, null, short);
    // c is free on day 17 (10 + 7): a new key then, the switch once it has been served
    assert.deepEqual(result, { step: null, wakeAt: T0 + 17 * DAY, nextRotationAt: T0 + 20 * DAY });
    // kept 12 days, c is free only on day 22: the switch is due on day 20 but waits
    assert.equal(
      plan(selectors, now, null, { ...short, retiredKeepMs: 12 * DAY }).nextRotationAt,
      T0 + 22 * DAY + short.propagationMs,
    );
  });

  test('a revoked key needs no keeping: its selector is freed at once', () => {
    const now = T0 + DAY;
    const selectors = [
      selector('a', 'active', T0),
      selector('b', 'retired', now - 1000, { revoked: true }),
      selector('c', 'retired', now - 1000),
    ];
    assert.deepEqual(plan(selectors, now).step, { kind: 'replace', token: 'b' });
  });

  test('a revoked active key hands signing to the next one as soon as it has been served', () => {
    const now = T0 + DAY;
    const selectors = [
      selector('a', 'active', T0, { revoked: true }),
      selector('b', 'next', T0),
      selector('c', 'next', T0),
    ];
    assert.deepEqual(plan(selectors, now).step, { kind: 'switch', from: null, to: 'b' });
  });

  test('a next selector whose CNAME is not in the customer’s DNS cannot take over', () => {
    const selectors = [
      selector('a', 'active', T0),
      selector('b', 'next', T0, { inCustomerDns: false }),
      selector('c', 'retired', T0),
    ];
    const now = T0 + 100 * DAY;
    assert.deepEqual(plan(selectors, now, now), {
      step: null,
      wakeAt: now + NOT_PUBLISHED_RETRY_MS,
      nextRotationAt: null,
    });
  });
});
