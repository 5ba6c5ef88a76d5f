/**
 * Reports that come back to a return path (issue 34), written as real senders write them:
 * Postfix's DSN, a Gmail-style DSN with a multi-line diagnostic, ARF reports as Yahoo's and
 * Microsoft's feedback loops send them, an auto-reply, and a bounce written as plain text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFeedbackReport } from './feedback-report.js';

const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

const ORIGINAL_HEADERS = `From: Shop <orders@mail.customer.test>
To: gone@recipient.test
Subject: Your order
Message-ID: <eml_abc@mail.customer.test>
`;

function dsn(action: string, status: string, diagnostic: string) {
  return crlf(`From: MAILER-DAEMON@mx.recipient.test (Mail Delivery System)
To: rcp_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbb@bounces.mail.customer.test
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="B1"

--B1
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.recipient.test.
I'm sorry to have to inform you that your message could not be delivered.

--B1
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.recipient.test
X-Postfix-Queue-ID: 4F1A2B
Arrival-Date: Fri, 27 Nov 2026 07:00:00 +0000 (UTC)

Final-Recipient: rfc822; gone@recipient.test
Original-Recipient: rfc822;gone@recipient.test
Action: ${action}
Status: ${status}
Diagnostic-Code: smtp; ${diagnostic}

--B1
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

${ORIGINAL_HEADERS}
--B1--
`);
}

test('a DSN: action, status, the diagnostic without its type, the reporting MTA and the original id', async () => {
  const report = await readFeedbackReport(
    dsn('failed', '5.1.1', '550 5.1.1 <gone@recipient.test>: Recipient address rejected: User unknown'),
  );
  assert.deepEqual(report, {
    kind: 'bounce',
    action: 'failed',
    bounce: { type: 'hard', status: '5.1.1' },
    diagnostic: '550 5.1.1 <gone@recipient.test>: Recipient address rejected: User unknown',
    reportingMta: 'mx.recipient.test',
    recipient: 'gone@recipient.test',
    originalMessageId: 'eml_abc@mail.customer.test',
  });
});

test('the Status field decides the kind: a full mailbox and a blocklist do not suppress', async () => {
  const full = await readFeedbackReport(dsn('failed', '5.2.2', '552 5.2.2 mailbox full'));
  assert.deepEqual(full.kind === 'bounce' && full.bounce, { type: 'soft', status: '5.2.2' });
  const listed = await readFeedbackReport(dsn('failed', '5.7.1', '554 5.7.1 blocked using zen.spamhaus.org'));
  assert.deepEqual(listed.kind === 'bounce' && listed.bounce, { type: 'block', status: '5.7.1' });
  const delayed = await readFeedbackReport(dsn('delayed', '4.4.1', '421 4.4.1 connection timed out'));
  assert.equal(delayed.kind === 'bounce' && delayed.action, 'delayed');
  const delivered = await readFeedbackReport(dsn('delivered', '2.0.0', '250 2.0.0 ok'));
  assert.equal(delivered.kind, 'none');
});

function arf(feedbackType: string, userAgent: string) {
  return crlf(`From: feedback@arf.mail.yahoo.test
To: rcp_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbb@bounces.mail.customer.test
Subject: FW: Your order
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="A1"

--A1
Content-Type: text/plain; charset="US-ASCII"

This is an email abuse report for an email message received from IP 192.0.2.10.

--A1
Content-Type: message/feedback-report

Feedback-Type: ${feedbackType}
User-Agent: ${userAgent}
Version: 1
Original-Mail-From: <rcp_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbb@bounces.mail.customer.test>
Original-Rcpt-To: <Gone@recipient.test>
Arrival-Date: Fri, 27 Nov 2026 07:00:00 +0000
Source-IP: 192.0.2.10
Reported-Domain: mail.customer.test

--A1
Content-Type: message/rfc822
Content-Disposition: inline

${ORIGINAL_HEADERS}
Thank you for your order.
--A1--
`);
}

test('ARF reports as Yahoo’s and Microsoft’s loops send them are complaints; not-spam is none', async () => {
  assert.deepEqual(await readFeedbackReport(arf('abuse', 'Yahoo!-Mail-Feedback/2.0')), {
    kind: 'complaint',
    feedbackType: 'abuse',
    recipient: 'gone@recipient.test',
    originalMessageId: 'eml_abc@mail.customer.test',
  });
  const microsoft = await readFeedbackReport(arf('abuse', 'Microsoft JMR Service/1.0'));
  assert.equal(microsoft.kind, 'complaint');
  assert.equal((await readFeedbackReport(arf('not-spam', 'Yahoo!-Mail-Feedback/2.0'))).kind, 'none');
});

test('mail that is no report: a permanent status in its text is a bounce, else nothing', async () => {
  const text = await readFeedbackReport(
    crlf(`From: postmaster@old-mta.test
To: rcp_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbb@bounces.mail.customer.test
Subject: failure notice

Sorry, we were unable to deliver your message to the following address.

<gone@old-mta.test>:
550 5.1.1 mailbox does not exist
`),
  );
  assert.equal(text.kind, 'bounce');
  assert.deepEqual(text.kind === 'bounce' && [text.action, text.bounce], [
    'failed',
    { type: 'hard', status: '5.1.1' },
  ]);
  const autoReply = await readFeedbackReport(
    crlf(`From: ann@recipient.test
To: rcp_aaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbb@bounces.mail.customer.test
Subject: Out of office

I am away until Monday, version 2.1.0 of the plan is attached.
`),
  );
  assert.equal(autoReply.kind, 'none');
});
