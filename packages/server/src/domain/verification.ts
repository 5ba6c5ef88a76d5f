/**
 * How a check's observations move statuses (the fault rules of the design file). Pure: the
 * clock and the grace period are inputs.
 *
 * - Only a definitive answer (NXDOMAIN, NODATA, a wrong value) changes a status; a DNS
 *   error (timeout, SERVFAIL, REFUSED) leaves it as it was.
 * - A verified record returns to pending only once it has been definitively missing for
 *   the whole grace period, so a DNS provider's hiccup never un-verifies a domain.
 * - The domain is verified when its three DKIM records are; DMARC is independent.
 */
import type { CheckReason, RecordCheckState, StoredRecord, VerificationStatus } from './model.js';

/** What one check saw for one record. */
export type Observation =
  | { outcome: 'match' }
  | { outcome: 'miss'; reason: Exclude<CheckReason, 'dns_error'>; found: string | null; detail: string }
  | { outcome: 'error'; detail: string };

/** The state of a record after an observation at `now`. */
export function applyObservation(
  previous: RecordCheckState,
  observation: Observation,
  now: number,
  graceMs: number,
): RecordCheckState {
  switch (observation.outcome) {
    case 'match':
      return {
        status: 'verified',
        reason: null,
        found: null,
        detail: null,
        checkedAt: now,
        missingSince: null,
        verifiedAt: previous.status === 'verified' ? previous.verifiedAt : now,
      };
    case 'error':
      return { ...previous, reason: 'dns_error', found: null, detail: observation.detail, checkedAt: now };
    case 'miss': {
      const base = { reason: observation.reason, found: observation.found, checkedAt: now };
      if (previous.status === 'pending') {
        return { ...previous, ...base, detail: observation.detail, missingSince: null };
      }
      const missingSince = previous.missingSince ?? now;
      if (now - missingSince >= graceMs) {
        return {
          ...previous,
          ...base,
          status: 'pending',
          detail: observation.detail,
          missingSince: null,
          verifiedAt: null,
        };
      }
      const until = new Date(missingSince + graceMs).toISOString();
      return {
        ...previous,
        ...base,
        missingSince,
        detail: `${observation.detail}; still counted as verified until ${until} (grace period)`,
      };
    }
  }
}

/** The domain is verified when its three DKIM records are (spec: DMARC is independent). */
export function domainStatusOf(records: Pick<StoredRecord, 'kind' | 'status'>[]): VerificationStatus {
  const dkim = records.filter((r) => r.kind === 'dkim');
  return dkim.length > 0 && dkim.every((r) => r.status === 'verified') ? 'verified' : 'pending';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Delays after the first checks of a new registration: a customer usually publishes soon. */
const EARLY_DELAYS = [1, 2, 5, 10, 15, 30].map((m) => m * MINUTE);

/**
 * When to check a domain next, after a check: at once on registration (not here), then
 * minutes apart, then hourly until it is 72 hours old, then daily; verified domains daily.
 */
export function nextCheckDelay(
  domain: { status: VerificationStatus; createdAt: number; checkCount: number },
  now: number,
): number {
  if (domain.status === 'verified') return DAY;
  const early = EARLY_DELAYS[domain.checkCount - 1];
  if (early !== undefined) return early;
  return now - domain.createdAt < 72 * HOUR ? HOUR : DAY;
}
