import type { DomainType } from './domain-type.js';

/** The two states of the spec, for a domain and for each of its records. */
export type VerificationStatus = 'pending' | 'verified';

/**
 * The records we ask a customer to publish: three DKIM CNAMEs, then one DMARC TXT, then, when
 * asked for, the return-path domain's CNAME (`returnPath`, issue 34) and the tracking host's
 * CNAME (`tracking`, issue 37).
 */
export type RecordKind = 'dkim' | 'dmarc' | 'return_path' | 'tracking';

/** The return-path label used when a registration asks for `returnPath: true`. */
export const DEFAULT_RETURN_PATH_LABEL = 'bounces';
/** The tracking host's label used when a registration asks for `tracking: true`. */
export const DEFAULT_TRACKING_LABEL = 'track';
/** The kinds of record named `<label>.<domain>`, one of each at most per domain. */
export type LabelledKind = 'return_path' | 'tracking';

/**
 * Why a record is not (or no longer) as we expect, from the last check:
 * `not_found` (NXDOMAIN or no record of the type), `wrong_type` (the name holds other
 * records), `wrong_value` (a record of the right type with another value, or a DMARC record
 * that does not parse), `dns_error` (no definitive answer: timeout, SERVFAIL, REFUSED).
 */
export const CHECK_REASONS = ['not_found', 'wrong_type', 'wrong_value', 'dns_error'] as const;
export type CheckReason = (typeof CHECK_REASONS)[number];

/** What the last check of one record saw, and how its status has moved. */
export interface RecordCheckState {
  status: VerificationStatus;
  /** `null` when the last check found the record as expected (or none ran yet). */
  reason: CheckReason | null;
  /** What DNS answered instead, when it answered something. */
  found: string | null;
  /** A sentence for humans on what is wrong and what to do. */
  detail: string | null;
  checkedAt: number | null;
  /** Since when a verified record has been definitively missing (grace period). */
  missingSince: number | null;
  /** Since when every check of the record has ended without a definitive answer. */
  errorSince: number | null;
  verifiedAt: number | null;
}

/**
 * A DKIM selector's role in rotation (see `dkim/rotation-plan.ts`): `active` signs, `next` has
 * its key published and waits to sign, `retired` signed before and keeps its key published
 * for mail in flight.
 */
export const KEY_STATES = ['active', 'next', 'retired'] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** The key behind a DKIM selector, as rotation sees it. */
export interface SelectorKey {
  state: KeyState;
  /**
   * When the selector took its role. For `next`: when its key was seen served everywhere we
   * serve, `null` until then.
   */
  since: number | null;
  /** When the current key was made. */
  createdAt: number;
}

/** A DNS record of a registration as the store keeps it. */
export interface StoredRecord extends RecordCheckState {
  kind: RecordKind;
  /** Position in the response: 0–2 DKIM, 3 DMARC, 4 the return path, 5 the tracking host. */
  position: number;
  /** The DKIM selector token; `null` for the others. */
  token: string | null;
  /** The return path's or tracking host's label (`bounces` for `bounces.<domain>`); `null` for the others. */
  label?: string | null;
  /** DKIM: its key, once made; `null` before, and for DMARC. */
  key: SelectorKey | null;
}

/** Where a domain stands in DKIM rotation. */
export interface DkimRotation {
  /** The last switch of the active selector; `null` before the first. */
  rotatedAt: number | null;
  /** When the next switch is planned; `null` until the keys exist and the worker planned it. */
  nextRotationAt: number | null;
  /** A rotation asked for through the API and not done yet. */
  requestedAt: number | null;
}

/** What a check found about setting a domain up through Domain Connect (issue 23). */
export interface DomainConnectSetup {
  /** The DNS provider as its Domain Connect settings name it; `null` when none answered. */
  providerName: string | null;
  /** The provider's synchronous flow URL prefix, when it supports our template. */
  urlSyncUX: string | null;
  supported: boolean;
  /** Why not, in a sentence; `null` when supported. */
  detail: string | null;
  /** The signed apply URL (no `redirect_uri`), when supported. */
  applyUrl: string | null;
  /** The zone discovery was made for, which setup links name as `domain`. */
  zone: string;
}

/** A registration as the store keeps it. */
export interface StoredDomain {
  id: string;
  accountId: string;
  /** ASCII (punycode) form, lowercase, no trailing dot. */
  name: string;
  type: DomainType;
  status: VerificationStatus;
  createdAt: number;
  lastCheckedAt: number | null;
  nextCheckAt: number;
  checkCount: number;
  /** The zone the records belong to, as the last check found it in DNS; `null` before. */
  zone: string | null;
  /**
   * The DNS providers serving the zone (ids of `dns-providers.ts`), the one with the most name
   * servers first, as the last check named them; empty when none is known. (A webhook event
   * queued before migration 0026 keeps a snapshot with `dnsProvider`, one id or `null`, instead.)
   */
  dnsProviders: string[];
  /** What the last check found about setting the domain up through Domain Connect; `null` before. */
  domainConnect: DomainConnectSetup | null;
  dkimRotation: DkimRotation;
  records: StoredRecord[];
}

/** A fresh record: pending, never checked. */
export function freshRecord(
  kind: RecordKind,
  position: number,
  token: string | null,
  label: string | null = null,
): StoredRecord {
  return {
    kind,
    position,
    token,
    label,
    status: 'pending',
    reason: null,
    found: null,
    detail: null,
    checkedAt: null,
    missingSince: null,
    errorSince: null,
    verifiedAt: null,
    key: null,
  };
}
