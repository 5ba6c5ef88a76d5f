/** Bounce classification (issue 34): replies real receivers send, and what each says about the address. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyRefusal, enhancedStatus, replyText } from './bounce.js';

test('the enhanced status code decides: 5.1.x hard, 5.2.2 soft, 5.7.x block, 4.x.x soft', () => {
  const cases: [number | null, string, string, string | null][] = [
    [
      550,
      '550 5.1.1 <bob@example.com>: Recipient address rejected: User unknown in local recipient table',
      'hard',
      '5.1.1',
    ],
    [
      550,
      '550-5.1.1 The email account that you tried to reach does not exist. Please try\n550 5.1.1 double-checking',
      'hard',
      '5.1.1',
    ],
    [550, '550 5.2.1 The email account that you tried to reach is disabled.', 'hard', '5.2.1'],
    [552, '552 5.2.2 <ann@example.com>: Recipient address rejected: mailbox full', 'soft', '5.2.2'],
    [
      554,
      '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
      'block',
      '5.7.1',
    ],
    [
      550,
      '550 5.7.26 This mail is unauthenticated, which poses a security risk to the sender and Gmail users',
      'block',
      '5.7.26',
    ],
    [550, "550 5.7.1 Unfortunately, messages from [192.0.2.1] weren't sent. (S3140)", 'block', '5.7.1'],
    [553, '553 5.1.8 <noreply@sender.example>: Sender address rejected: Domain not found', 'block', '5.1.8'],
    [550, '550 5.6.0 content rejected', 'block', '5.6.0'],
    [452, '452 4.2.2 The email account that you tried to reach is over quota', 'soft', '4.2.2'],
    [421, '421 4.7.0 Try again later, closing connection.', 'soft', '4.7.0'],
    // Exchange Online's answer for an address that does not exist
    [550, '550 5.4.1 Recipient address rejected: Access denied. AS(201806281)', 'hard', '5.4.1'],
    [451, '451 4.4.0 DNS resolution failed', 'soft', '4.4.0'],
    [550, '550 5.4.4 Unable to route', 'soft', '5.4.4'],
  ];
  for (const [code, text, type, status] of cases) {
    assert.deepEqual(classifyRefusal(code, text), { type, status }, text);
  }
});

test('without an enhanced code, the words decide, and a 5xx that says nothing is undetermined', () => {
  const cases: [number | null, string, string][] = [
    [550, '550 Requested action not taken: mailbox unavailable', 'hard'],
    [550, '550 No such user here', 'hard'],
    [550, '550 <x@example.com>... User unknown', 'hard'],
    [
      554,
      "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation",
      'block',
    ],
    [550, '550 Message rejected as spam', 'block'],
    [552, '552 Requested mail action aborted: exceeded storage allocation', 'soft'],
    [550, '550 Mailbox quota exceeded', 'soft'],
    [554, '554 Transaction failed', 'undetermined'],
    [450, '450 Requested mail action not taken: mailbox busy', 'soft'],
  ];
  for (const [code, text, type] of cases) {
    assert.equal(classifyRefusal(code, text).type, type, text);
  }
});

test('a status given beside the text (a DNS route, a DSN field) wins over the text', () => {
  assert.deepEqual(classifyRefusal(null, 'example.invalid does not exist in DNS', '5.1.2'), {
    type: 'hard',
    status: '5.1.2',
  });
  assert.deepEqual(classifyRefusal(null, 'a null MX (RFC 7505)', '5.1.10'), {
    type: 'hard',
    status: '5.1.10',
  });
  // our own refusal to deliver to a private address says nothing against the recipient
  assert.equal(classifyRefusal(null, 'would go to 10.0.0.1', '5.4.4').type, 'soft');
});

test('the enhanced code is read only where RFC 3463 puts it, leading zeros dropped', () => {
  assert.equal(enhancedStatus('550 5.1.1 user unknown'), '5.1.1');
  assert.equal(enhancedStatus('550-5.7.26 unauthenticated'), '5.7.26');
  assert.equal(enhancedStatus('5.1.10 null MX'), '5.1.10');
  assert.equal(enhancedStatus('550 5.01.001 odd but valid'), '5.1.1');
  assert.equal(enhancedStatus('550 user 5.1.1 unknown'), null);
  assert.equal(enhancedStatus('550 version 1.2.3'), null);
});

test('the reply shown and stored carries its code once', () => {
  assert.equal(replyText(550, '550 5.1.1 no such user'), '550 5.1.1 no such user');
  assert.equal(replyText(550, '5.1.1 no such user'), '550 5.1.1 no such user');
  assert.equal(replyText(null, 'connection refused'), 'connection refused');
});
