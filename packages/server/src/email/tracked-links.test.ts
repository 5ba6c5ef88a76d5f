/**
 * Tracked links and their personalisation (issue 37) on composed messages, read back by
 * mailparser as a recipient's client would: links and pixel rewritten, the mark replaced by one
 * recipient's signed tokens in the HTML and text parts, attachments (an HTML file among them)
 * left byte for byte.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simpleParser } from 'mailparser';
import { composeMessage } from './compose.js';
import { addTracking, personalise, RECIPIENT_MARK } from './tracked-links.js';
import { readClickToken, readOpenToken, trackingKey } from './tracking.js';

const key = trackingKey(Buffer.alloc(32, 7));
const RECIPIENT = 'rcp_abcdefghijklmnopqrst';

test('links are rewritten unless not http(s), our unsubscribe page or marked; the pixel closes the body', () => {
  const html = addTracking(
    '<html><body><a href="https://a.example/x?y=1&amp;z=2">a</a> <A HREF=\'http://b.example/\'>b</A> <a href="mailto:m@example.com">m</a> <a href="https://svc.example/unsubscribe/t">u</a> <a clicktracking=off href="https://c.example/">c</a></body></html>',
    {
      base: 'https://track.shop.example',
      opens: true,
      clicks: true,
      keep: ['https://svc.example/unsubscribe/'],
    },
  );
  const b64 = (url: string) => Buffer.from(url).toString('base64url');
  assert.ok(
    html.includes(
      `href="https://track.shop.example/t/c/${RECIPIENT_MARK}/${b64('https://a.example/x?y=1&z=2')}"`,
    ),
  );
  assert.ok(
    html.includes(`HREF="https://track.shop.example/t/c/${RECIPIENT_MARK}/${b64('http://b.example/')}"`),
  );
  for (const kept of ['mailto:m@example.com', 'https://svc.example/unsubscribe/t', 'https://c.example/'])
    assert.ok(html.includes(`href="${kept}"`), kept);
  assert.match(html, /<img src="https:\/\/track\.shop\.example\/t\/o\/RCPT~MARK"[^>]*\/><\/body>/);
});

test('a copy gets its recipient’s tokens in HTML and text; an HTML attachment is left as it was', async () => {
  const attached = `<p>${RECIPIENT_MARK} https://track.shop.example/t/o/${RECIPIENT_MARK}</p>`;
  const message = await composeMessage({
    id: 'eml_test',
    from: { name: 'Shop', address: 'hi@shop.example', domain: 'shop.example' },
    to: [{ name: '', address: 'ann@example.org', domain: 'example.org' }],
    cc: [],
    replyTo: [],
    subject: 'News',
    html: `<p>Read <a href="https://a.example/post">the post</a> ${'and more '.repeat(2000)}</p>`,
    text: null,
    headers: {},
    date: Date.UTC(2026, 10, 27),
    attachments: [
      { filename: 'page.html', content: Buffer.from(attached).toString('base64'), contentType: 'text/html' },
    ],
    tracking: { base: 'https://track.shop.example', opens: true, clicks: true, keep: [] },
  } as never);
  const copy = personalise(message, key, RECIPIENT);
  const parsed = await simpleParser(copy);
  const html = String(parsed.html);
  assert.ok(!html.includes(RECIPIENT_MARK), 'the HTML part holds no mark');
  const click = /\/t\/c\/([^/"]+)\/([A-Za-z0-9_-]+)"/.exec(html)!;
  assert.deepEqual(readClickToken(key, click[1]!, click[2]!), {
    recipientId: RECIPIENT,
    url: 'https://a.example/post',
  });
  const open = /\/t\/o\/([^"]+)"/.exec(html)!;
  assert.equal(readOpenToken(key, open[1]!), RECIPIENT);
  assert.ok(parsed.text?.includes(`/t/c/${click[1]}/${click[2]}`), 'the text part’s link has the same token');
  assert.equal(parsed.attachments[0]!.content.toString(), attached, 'the attachment is byte for byte');
  // another recipient, another token
  assert.notEqual(personalise(message, key, 'rcp_bbbbbbbbbbbbbbbbbbbb'), copy);
});
