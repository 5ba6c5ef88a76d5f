/**
 * Webhook events (issues 20 and 21): their types, the snapshot the outbox keeps, and the body
 * built from it. Pure: the body depends only on the snapshot and the record settings, so a
 * retry days later sends what the first attempt sent. Domain events keep the domain and build
 * its view at delivery; email events keep their data as it is sent.
 */
import type { StoredDomain, VerificationStatus } from '../domain/model.js';
import { domainView, type RecordSettings, recordFqdn } from '../domain/records.js';
import type { DomainView } from '../views.js';

export const DOMAIN_EVENT_TYPES = [
  'domain.created',
  'domain.updated',
  'domain.verified',
  'domain.deleted',
  'domain.dkim_rotated',
] as const;
export const EMAIL_EVENT_TYPES = [
  'email.sent',
  'email.delivered',
  'email.deferred',
  'email.bounced',
  'email.failed',
  'email.complained',
  'email.opened',
  'email.clicked',
] as const;
export const WEBHOOK_EVENT_TYPES = [...DOMAIN_EVENT_TYPES, ...EMAIL_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

/** Statuses before a change: the domain's and each record's, in record order. */
export interface PreviousStatuses {
  status: VerificationStatus;
  records: { fqdn: string; status: VerificationStatus }[];
}

/** What the outbox stores for a domain event: the domain as it was, and its statuses before. */
export interface DomainSnapshot {
  domain: StoredDomain;
  previous: PreviousStatuses | null;
}

/** The data of an email event: one recipient's attempt of one message. */
export interface EmailEventData {
  /** The message's id (`GET /api/public/emails/{id}`). */
  id: string;
  from: string;
  subject: string;
  tags: { name: string; value: string }[];
  recipient: string;
  smtpCode: number | null;
  smtpText: string | null;
  mxHost: string | null;
  attempts: number;
  /** `email.bounced` only: what the refusal says about the address (`email/bounce.ts`). */
  bounceType?: string;
  /** `email.bounced` only: the enhanced status code (RFC 3463), such as `5.1.1`, or `null`. */
  diagnosticCode?: string | null;
  /** `email.bounced` and `email.complained`: whether the address was put on the suppression list. */
  suppressed?: boolean;
  /** `email.complained` only: the report's `Feedback-Type` (`abuse`, `fraud`, …). */
  feedbackType?: string;
  /** `email.clicked` only: the link followed. */
  url?: string;
  /** `email.opened` and `email.clicked`: whether a machine did it (`email/tracking.ts`). */
  machine?: boolean;
  /** Why it was a machine: `apple_privacy_protection`, `security_scanner`, `head_request`, `too_soon`; `null` for none. */
  machineReason?: string | null;
}

/** What the outbox stores for one event. */
export type EventSnapshot = DomainSnapshot | { email: EmailEventData };

/** A domain event about to be written to the outbox. */
export interface DomainEvent {
  type: DomainEventType;
  snapshot: DomainSnapshot;
}

/** Any event about to be written: its stream (a domain's or a message's id) keeps its order. */
export interface OutboxEvent {
  type: WebhookEventType;
  stream: string;
  snapshot: EventSnapshot;
}

/** The body every endpoint receives. */
export interface WebhookBody {
  type: WebhookEventType;
  createdAt: string;
  data: (DomainView & { previous: PreviousStatuses | null }) | EmailEventData;
}

/** The statuses of `domain`, to keep as an event's `previous`. */
export function statusesOf(domain: StoredDomain): PreviousStatuses {
  return {
    status: domain.status,
    records: domain.records.map((r) => ({ fqdn: recordFqdn(domain.name, r), status: r.status })),
  };
}

/**
 * The events of one check: `domain.updated` when the domain's or a record's status changed,
 * and `domain.verified` too when the domain itself became verified.
 */
export function checkEvents(before: StoredDomain, after: StoredDomain): DomainEvent[] {
  const changed =
    before.status !== after.status ||
    after.records.some((r) => before.records.find((b) => b.position === r.position)?.status !== r.status);
  if (!changed) return [];
  const snapshot = { domain: after, previous: statusesOf(before) };
  const events: DomainEvent[] = [{ type: 'domain.updated', snapshot }];
  if (before.status !== 'verified' && after.status === 'verified')
    events.push({ type: 'domain.verified', snapshot });
  return events;
}

/** The JSON body of an event, exactly as every attempt sends it. */
export function webhookBody(
  type: WebhookEventType,
  createdAt: number,
  snapshot: EventSnapshot,
  settings: RecordSettings,
): string {
  const body: WebhookBody = {
    type,
    createdAt: new Date(createdAt).toISOString(),
    data:
      'email' in snapshot
        ? snapshot.email
        : { ...domainView(snapshot.domain, settings), previous: snapshot.previous },
  };
  return JSON.stringify(body);
}
