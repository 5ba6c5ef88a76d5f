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
    html.includes(`<A href="https://track.shop.example/t/c/${RECIPIENT_MARK}/${b64('http://b.example/')}"`),
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
  assert.deepEqual(readClickToken(key, click[1]!, click[2]!, 'track.shop.example'), {
    recipientId: RECIPIENT,
    url: 'https://a.example/post',
  });
  assert.equal(readClickToken(key, click[1]!, click[2]!, 'track.other.example'), undefined, 'another host');
  const open = /\/t\/o\/([^"]+)"/.exec(html)!;
  assert.equal(readOpenToken(key, open[1]!), RECIPIENT);
  assert.ok(parsed.text?.includes(`/t/c/${click[1]}/${click[2]}`), 'the text part’s link has the same token');
  assert.equal(parsed.attachments[0]!.content.toString(), attached, 'the attachment is byte for byte');
  // another recipient, another token
  assert.notEqual(personalise(message, key, 'rcp_bbbbbbbbbbbbbbbbbbbb'), copy);
});

const compose = (html: string) =>
  composeMessage({
    id: 'eml_short',
    from: { name: 'Shop', address: 'hi@shop.example', domain: 'shop.example' },
    to: [{ name: '', address: 'ann@example.org', domain: 'example.org' }],
    cc: [],
    replyTo: [],
    subject: 'Hi',
    html,
    text: null,
    headers: {},
    date: Date.UTC(2026, 10, 27),
    attachments: [],
    tracking: { base: 'https://track.shop.example', opens: true, clicks: true, keep: [] },
  } as never);

test('a short message (its text part written as 7bit, not base64) gets its tokens in both parts', async () => {
  const parsed = await simpleParser(
    personalise(await compose('<p><a href="https://shop.example/p">p</a></p>'), key, RECIPIENT),
  );
  for (const part of [String(parsed.html), String(parsed.text)]) {
    assert.ok(!part.includes(RECIPIENT_MARK), part);
    const click = /\/t\/c\/([^/"\]\s]+)\/([A-Za-z0-9_-]+)/.exec(part)!;
    assert.equal(
      readClickToken(key, click[1]!, click[2]!, 'track.shop.example')?.url,
      'https://shop.example/p',
    );
  }
});

test('links are read as HTML reads attributes; odd pages stay whole; long or broken links stay as written', () => {
  const track = (html: string) =>
    addTracking(html, { base: 'https://t.example', opens: false, clicks: true, keep: [] });
  // `href=` inside another attribute's value is that value, not the link
  const tricky = track('<a title="see href=https://x.example/" href="https://real.example/">r</a>');
  assert.ok(tricky.startsWith('<a title="see href=https://x.example/" href="https://t.example/t/c/'), tricky);
  // the link is the URL standard's: an IDN host in punycode, a newline inside dropped
  const idn = track('<a href="https://例え.jp/a\nb">x</a>');
  const encoded = /\/t\/c\/RCPT~MARK\/([A-Za-z0-9_-]+)"/.exec(idn)![1]!;
  assert.equal(Buffer.from(encoded, 'base64url').toString(), 'https://xn--r8jz45g.jp/ab');
  const long = `<a href="https://a.example/${'x'.repeat(4_100)}">l</a>`;
  assert.equal(track(long), long);
  // a page of unclosed `<a ` is read once, not once per `<a` (it took minutes at 1 MB)
  const unclosed = '<a '.repeat(300_000);
  assert.equal(track(unclosed), unclosed);
  // the pixel goes before the real </body>, whatever the case of the letters before it
  const pixel = addTracking('<p>İSTANBUL İZMİR</p></BODY>', {
    base: 'https://t.example',
    opens: true,
    clicks: false,
    keep: [],
  });
  assert.match(
    pixel,
    /^<p>İSTANBUL İZMİR<\/p><img src="https:\/\/t\.example\/t\/o\/RCPT~MARK"[^>]*\/><\/BODY>$/,
  );
});
