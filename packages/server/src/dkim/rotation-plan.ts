/**
 * DKIM rotation, decided: given a domain's three selectors, what to do next and when to look
 * again. Pure, so every rule is tested without a clock or a database; the worker
 * (`key-rotation.ts`) carries the steps out one at a time and asks again after each.
 *
 * The three selectors take turns, so the customer's three CNAMEs never change:
 *
 *   active ──(interval passed, or asked for)──▶ retired ──(kept for mail in flight)──▶ new key: next
 *     ▲                                                                                     │
 *     └──────────────(its key served everywhere for longer than the old answer's TTL)───────┘
 *
 * - The `active` selector signs. After `intervalMs` (or when a rotation is asked for) signing
 *   switches to the `next` one, and the active one becomes `retired`.
 * - A `next` key signs only once it is served everywhere we serve (our responder and every
 *   secondary), and `propagationMs` (the longest TTL of what resolvers may still hold for that
 *   name: the old key, or "no such name") has passed since: before that a receiver could
 *   still get the old answer and fail the signature.
 * - A `retired` key stays published `retiredKeepMs` (mail signed just before the switch is
 *   verified after it, sometimes days later); then the selector gets a new key and becomes the
 *   `next` one. A revoked key (an operator's `dkim revoke`) needs no keeping.
 *
 * Signing never stops: with no selector ready the active one keeps signing past its interval.
 */
import type { SelectorKey } from '../domain/model.js';

export interface RotationSettings {
  /** How long a selector signs before signing moves on. */
  intervalMs: number;
  /** How long a retired key stays published. */
  retiredKeepMs: number;
  /** From a key served everywhere to signing with it: the longest TTL of the answer before. */
  propagationMs: number;
}

/** One DKIM selector as the plan reads it. */
export interface PlanSelector {
  token: string;
  /** `null` while its first key is being made. */
  key: SelectorKey | null;
  revoked: boolean;
  /** Its CNAME is in the customer's DNS, so receivers reach its key. */
  inCustomerDns: boolean;
}

export type RotationStep =
  /** See whether the `next` key is served everywhere; if so its `since` becomes now. */
  | { kind: 'confirm'; token: string }
  /** Sign with `to` from now on; `from` (the active one, if any) retires. */
  | { kind: 'switch'; from: string | null; to: string }
  /** Give the selector a new key: it becomes `next`. */
  | { kind: 'replace'; token: string };

export interface RotationPlan {
  /** What to do now, or `null`: nothing until `wakeAt`. */
  step: RotationStep | null;
  /** When to plan again (when nothing is to be done now). */
  wakeAt: number;
  /** When signing is planned to switch next, as the customer is told; `null` while unknown. */
  nextRotationAt: number | null;
}

/** While a key is being made (seconds after registration): look again in a minute. */
export const KEYS_PENDING_RETRY_MS = 60_000;
/** A next key not served everywhere yet: look again after this. */
export const UNCONFIRMED_RETRY_MS = 30_000;
/** A selector whose CNAME is not in the customer's DNS cannot take over: look again daily. */
export const NOT_PUBLISHED_RETRY_MS = 24 * 3_600_000;

export function planRotation(
  selectors: readonly PlanSelector[],
  at: { now: number; requestedAt: number | null },
  settings: RotationSettings,
): RotationPlan {
  const { now } = at;
  if (selectors.some((s) => s.key === null))
    return { step: null, wakeAt: now + KEYS_PENDING_RETRY_MS, nextRotationAt: null };
  const live = selectors.filter((s) => !s.revoked);
  const active = live.find((s) => s.key!.state === 'active');
  const nexts = live
    .filter((s) => s.key!.state === 'next')
    .sort((a, b) => a.key!.createdAt - b.key!.createdAt);
  const unconfirmed = nexts.find((s) => s.key!.since === null);
  if (unconfirmed !== undefined) {
    return {
      step: { kind: 'confirm', token: unconfirmed.token },
      wakeAt: now,
      nextRotationAt: active ? Math.max(dueAt(active, at, settings), now + settings.propagationMs) : null,
    };
  }
  // The one served longest takes over.
  const next = nexts.sort((a, b) => a.key!.since! - b.key!.since!)[0];
  if (next !== undefined) {
    const readyAt = next.key!.since! + settings.propagationMs;
    // Without an active selector (its key revoked) the next one takes over as soon as it can.
    const switchAt = Math.max(active ? dueAt(active, at, settings) : now, readyAt);
    if (!next.inCustomerDns)
      return { step: null, wakeAt: Math.max(switchAt, now + NOT_PUBLISHED_RETRY_MS), nextRotationAt: null };
    if (switchAt <= now)
      return {
        step: { kind: 'switch', from: active?.token ?? null, to: next.token },
        wakeAt: now,
        nextRotationAt: now,
      };
    return { step: null, wakeAt: switchAt, nextRotationAt: switchAt };
  }

  // No next key: the selector retired longest ago (or revoked) takes one when its keeping ends.
  const free = selectors
    .filter((s) => s !== active)
    .map((s) => ({ token: s.token, at: s.revoked ? now : s.key!.since! + settings.retiredKeepMs }))
    .sort((a, b) => a.at - b.at)[0];
  if (free === undefined) return { step: null, wakeAt: now + NOT_PUBLISHED_RETRY_MS, nextRotationAt: null };
  const nextRotationAt = active
    ? Math.max(dueAt(active, at, settings), Math.max(free.at, now) + settings.propagationMs)
    : null;
  if (free.at <= now) return { step: { kind: 'replace', token: free.token }, wakeAt: now, nextRotationAt };
  return { step: null, wakeAt: free.at, nextRotationAt };
}

/** When the active selector is due to hand over: its interval is up, or a rotation was asked for. */
function dueAt(active: PlanSelector, at: { requestedAt: number | null }, settings: RotationSettings): number {
  const scheduled = (active.key!.since ?? active.key!.createdAt) + settings.intervalMs;
  return at.requestedAt === null ? scheduled : Math.min(scheduled, at.requestedAt);
}
