/**
 * The sending queue's shapes (issue 21): a message as accepted, stored and claimed, its recipients,
 * events and attempts' outcomes.
 */
import type { BounceClass } from '../../email/bounce.js';

export type RecipientKind = 'to' | 'cc' | 'bcc';

export type RecipientStatus =
  | 'queued'
  | 'sending'
  | 'sent'
  | 'deferred'
  | 'bounced'
  | 'failed'
  | 'suppressed'
  | 'scheduled'
  | 'canceled';

export type EmailEventType =
  | 'sent'
  | 'delivered'
  | 'deferred'
  | 'bounced'
  | 'failed'
  | 'suppressed'
  | 'complained'
  | 'canceled'
  | 'opened'
  | 'clicked';

/**
 * What came back after a recipient's server took the message (issue 34, `email/feedback-report.ts`):
 * a bounce (a DSN), or a complaint (an ARF report).
 */
export type Feedback =
  | { kind: 'bounce'; bounce: BounceClass; diagnostic: string; mxHost: string | null }
  | { kind: 'complaint'; feedbackType: string };

export interface NewEmail {
  id: string;
  accountId: string;
  domainId: string;
  fromAddress: string;
  subject: string;
  message: string;
  tags: { name: string; value: string }[];
  idempotencyKey: string | null;
  requestHash: string | null;
  createdAt: number;
  /** Hold it until then (ms); `null` to send at once. */
  scheduledAt: number | null;
  recipients: { address: string; kind: RecipientKind; suppressed: boolean }[];
  /** What is tracked (`opens`, `clicks`, `opens,clicks`), `null`/absent for nothing (issue 37). */
  tracking?: string | null;
}

/** An open or a click (issue 37), as the tracking routes saw it. */
export interface Engagement {
  type: 'opened' | 'clicked';
  /** The link followed, for a click. */
  url: string | null;
  at: number;
  /** Why it was a machine's, given the time the recipient's copy left (`null`: not sent yet). */
  machine: (sentAt: number | null) => string | null;
}

/** A message found by its Idempotency-Key. */
export interface IdempotentEmail {
  id: string;
  requestHash: string | null;
  scheduledAt: number | null;
}

export interface StoredEvent {
  type: EmailEventType;
  address: string;
  smtpCode: number | null;
  smtpText: string | null;
  mxHost: string | null;
  /** For `bounced`: what the refusal says about the address. */
  bounceType: string | null;
  /** For `clicked`: the link followed. */
  url: string | null;
  /** For `opened` and `clicked`: why it was a machine's (`email/tracking.ts`), `null` when nothing says so. */
  machine: string | null;
  at: number;
}

/** Which of an account's streams a suppression stops: every one, or the one the address left. */
export type SuppressionScope = 'all' | 'Marketing' | 'Transactional';

export interface StoredRecipient {
  id: string;
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  attempts: number;
  nextAttemptAt: number | null;
}

export interface StoredEmail {
  id: string;
  fromAddress: string;
  subject: string;
  tags: { name: string; value: string }[];
  createdAt: number;
  scheduledAt: number | null;
  /** The sending domain's registration id (or the sandbox's). */
  domainId: string;
  /** What is tracked (`opens`, `clicks`), empty for nothing. */
  tracking: ('opens' | 'clicks')[];
  recipients: StoredRecipient[];
  events: StoredEvent[];
}

/** A recipient claimed for one attempt, with what the attempt needs. */
export interface ClaimedRecipient {
  id: string;
  emailId: string;
  accountId: string;
  address: string;
  attempts: number;
  claimedUntil: number;
  createdAt: number;
  fromAddress: string;
  subject: string;
  tags: { name: string; value: string }[];
  message: string;
  /** The sending domain's type (`Marketing` adds List-Unsubscribe), `null` if it was deleted. */
  domainType: string | null;
  /** `bounces.<domain>` when the domain's return path is verified: the envelope sender's domain. */
  returnPathDomain: string | null;
  /** Whether its links and pixel are tracked: each copy gets its recipient's tokens. */
  tracked: boolean;
}

export type AttemptOutcome =
  | { kind: 'sent'; delivered: boolean; code: number | null; text: string | null; mxHost: string | null }
  | { kind: 'deferred'; nextAttemptAt: number; code: number | null; text: string; mxHost: string | null }
  | { kind: 'bounced'; bounce: BounceClass; code: number | null; text: string; mxHost: string | null }
  | { kind: 'failed'; code: number | null; text: string; mxHost: string | null }
  /**
   * Not attempted: the destination's pace (`SMTP_DESTINATION_RATES`) gives it a turn at
   * `nextAttemptAt`. No attempt is counted against the retry window, and no event is written.
   */
  | { kind: 'postponed'; nextAttemptAt: number; code: null; text: string; mxHost: string | null };
