/**
 * A message's status from its recipients' (suppressed ones aside while others remain): what
 * `GET /api/public/emails/{id}` answers, and what `emails.status` keeps for listing and
 * filtering (kept in step by every write that changes a recipient's status).
 */
export const EMAIL_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'deferred',
  'bounced',
  'failed',
  'canceled',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export function emailStatus(recipientStatuses: readonly string[]): EmailStatus {
  const live = recipientStatuses.filter((s) => s !== 'suppressed');
  if (live.length === 0) return 'failed';
  if (live.every((s) => s === 'canceled')) return 'canceled';
  // A cancel that met a recipient already taken for sending stops the rest: those went on.
  const going = live.filter((s) => s !== 'canceled');
  const has = (s: string) => going.includes(s);
  if (going.every((s) => s === 'scheduled')) return 'scheduled';
  if (going.every((s) => s === 'queued')) return 'queued';
  if (has('scheduled') || has('queued') || has('sending')) return 'sending';
  if (has('deferred')) return 'deferred';
  if (has('sent')) return 'sent';
  if (has('bounced')) return 'bounced';
  return 'failed';
}
