/**
 * A delivery status notification (RFC 3464) as an MTA writes one: a text part, the
 * `message/delivery-status` part (per message, then per recipient), and optionally the
 * returned message's headers. For tests and benchmarks of the inbound listener (issue 34).
 */
export interface DsnOptions {
  /** The envelope recipient it is sent to (a return-path address). */
  to: string;
  /** `Reporting-MTA` and the From's domain. */
  mta: string;
  /** `Final-Recipient`. */
  recipient: string;
  /** `Action` (`failed` by default). */
  action?: string;
  /** `Status`, an RFC 3463 code. */
  status: string;
  /** `Diagnostic-Code` without its `smtp;` type; left out when absent. */
  diagnostic?: string;
  /** The returned message's header block (`text/rfc822-headers`); left out when absent. */
  originalHeaders?: string;
}

/** The DSN's text, CRLF line endings. */
export function deliveryStatusReport(o: DsnOptions): string {
  return [
    `From: MAILER-DAEMON@${o.mta}`,
    `To: ${o.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
    '',
    '--B',
    'Content-Type: text/plain',
    '',
    'Your message could not be delivered.',
    '',
    '--B',
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${o.mta}`,
    '',
    `Final-Recipient: rfc822; ${o.recipient}`,
    `Action: ${o.action ?? 'failed'}`,
    `Status: ${o.status}`,
    ...(o.diagnostic === undefined ? [] : [`Diagnostic-Code: smtp; ${o.diagnostic}`]),
    '',
    ...(o.originalHeaders === undefined
      ? []
      : ['--B', 'Content-Type: text/rfc822-headers', '', o.originalHeaders.trimEnd(), '']),
    '--B--',
    '',
  ].join('\r\n');
}
