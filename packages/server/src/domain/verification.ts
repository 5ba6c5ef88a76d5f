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
  | { outcome: 'match'; found?: string | null; detail?: string | null }
  | { outcome: 'miss'; reason: Exclude<CheckReason, 'dns_error'>; found: string | null; detail: string }
  /** `server`: the customer's name server that gave the error, when it was one of theirs. */
  | { outcome: 'error'; detail: string; server?: string };

/**
 * An error that every check has met for this long is no passing outage: the customer's DNS
 * needs fixing (a lame delegation, a server that lost the zone), and the detail says so.
 */
export const PERSISTENT_ERROR_MS = 60 * 60_000;

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
        // a verified record can still carry a note: the policy it inherits, reports that are lost
        found: observation.found ?? null,
        detail: observation.detail ?? null,
        checkedAt: now,
        missingSince: null,
        errorSince: null,
        verifiedAt: previous.status === 'verified' ? previous.verifiedAt : now,
      };
    case 'error': {
      const errorSince = previous.errorSince ?? now;
      const persistent = now - errorSince >= PERSISTENT_ERROR_MS;
      const where = observation.server
        ? `fix ${observation.server} at your DNS provider (it should answer for this zone)`
        : 'check the name servers of this domain at your DNS provider';
      const detail = persistent
        ? `${observation.detail} on every check since ${new Date(errorSince).toISOString()}: not a passing outage; ${where}`
        : observation.detail;
      return { ...previous, reason: 'dns_error', found: null, detail, checkedAt: now, errorSince };
    }
    case 'miss': {
      const base = { reason: observation.reason, found: observation.found, checkedAt: now, errorSince: null };
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
/** The early checks, as offsets from registration: a customer usually publishes soon. */
const EARLY_CHECKS = [1, 2, 5, 10, 15, 30].map((m) => m * MINUTE);
/** Until this age a pending domain is checked hourly, then daily. */
const HOURLY_UNTIL = 72 * HOUR;
/**
 * From this age a pending domain is checked only when its status is requested: nobody proved
 * they own it, so the service must not keep sending DNS queries at it on anyone's behalf.
 */
export const DORMANT_AFTER = 30 * DAY;
/** The `nextCheckAt` of a dormant domain: later than any clock reaches (the largest Date). */
export const NO_SCHEDULED_CHECK = 8_640_000_000_000_000;

/**
 * When the scheduler checks a domain next, after a check at `now`. A pending domain follows
 * a schedule fixed by its registration time: at once (the registration is due when created),
 * then 1, 2, 5, 10, 15 and 30 minutes after registering, then on each hour of its age until
 * it is 72 hours old, then daily until it is 30 days old, then never ({@link NO_SCHEDULED_CHECK}:
 * only status requests check it). The answer is the first point of that schedule after
 * `now`, so checks run sooner (a status poll re-checks every few seconds) never move the
 * schedule on. A verified domain is re-checked a day after its last check.
 *
 * @example
 * nextScheduledCheck({ status: 'pending', createdAt: 0 }, 90_000); // 120_000: the 2-minute point
 */
export function nextScheduledCheck(
  domain: { status: VerificationStatus; createdAt: number },
  now: number,
): number {
  if (domain.status === 'verified') return now + DAY;
  const age = now - domain.createdAt;
  const early = EARLY_CHECKS.find((offset) => offset > age);
  if (early !== undefined) return domain.createdAt + early;
  const [start, step] = age < HOURLY_UNTIL ? [0, HOUR] : [HOURLY_UNTIL, DAY];
  const next = domain.createdAt + start + (Math.floor((age - start) / step) + 1) * step;
  return next - domain.createdAt > DORMANT_AFTER ? NO_SCHEDULED_CHECK : next;
}
