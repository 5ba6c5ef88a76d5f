/** Reading the `dkim` of domain results in the rotation tests. */
import assert from 'node:assert/strict';
import type { DkimStatusView } from '../views.js';

export type { DkimStatusView };

/** Each selector's state, in record order. */
export const states = (dkim: DkimStatusView) => dkim.selectors.map((s) => s.state);

/** The selector that signs. */
export const activeOf = (dkim: DkimStatusView) => dkim.selectors.find((s) => s.state === 'active')!.selector;

/**
 * The position of the selector the next switch goes to, as `rotation-plan.ts` picks it: the
 * next one confirmed served longest (then the older key, then record order). Keys are made
 * two at a time, so which one that is is not fixed in advance.
 */
export function switchTarget(dkim: DkimStatusView): number {
  const nexts = dkim.selectors
    .map((s, position) => ({ ...s, position }))
    .filter((s) => s.state === 'next')
    .sort(
      (a, b) =>
        Date.parse(a.since!) - Date.parse(b.since!) ||
        Date.parse(a.keyCreatedAt!) - Date.parse(b.keyCreatedAt!) ||
        a.position - b.position,
    );
  assert.ok(nexts.length > 0, JSON.stringify(dkim));
  return nexts[0]!.position;
}
