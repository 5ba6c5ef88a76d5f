/**
 * Open and click tracking (issue 37) through HTTP, on a development server (no
 * `TRACKING_LISTEN`: tracked links and the pixel go through the service's own URL) sending
 * from the sandbox, whose capture inbox keeps each recipient's copy as it left. The copy is
 * opened in Chromium: the pixel loads, a link is followed to a page of ours, and the message's
 * events and `email.opened` / `email.clicked` webhooks say so. Tokens are per recipient and
 * signed: an altered one goes nowhere.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { loggedUrl } from './http/request-log.js';
import { launchChromium } from './test-support/browser.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from './test-support/webhook-receiver.js';

const FROM = 'Acme <onboarding@sandbox.test>';

describe('open and click tracking', () => {
  let t: TestServer;
  let key: string;
  let receiver: WebhookReceiver;
  let secret: string;
  let landing: Server;
  let landingUrl: string;
  let browser: Browser;

  before(async () => {
    t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SEND_INTERVAL_MS: '50' });
    ({ key } = await t.createKey());
    receiver = await startWebhookReceiver();
    const endpoint = await t.request('POST', '/api/public/webhooks', { key, body: { url: receiver.url } });
    assert.equal(endpoint.status, 200, JSON.stringify(endpoint.body));
    secret = endpoint.body.data.secret;
    landing = createServer((request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>Landed</title><p id="landed">${request.url}</p>`);
    });
    await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
    landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    landing?.close();
    await receiver?.close();
    await t?.close();
  });

  /** Sends, waits until every copy left, and returns the message and its copies' HTML and text. */
  const sendTracked = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: { from: FROM, subject: 'Our news', ...body },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    const id = res.body.data.id as string;
    const email = await waitUntil(`${id} sent`, async () => {
      const one = await t.request('GET', `/api/public/emails/${id}`, { key });
      return one.body.data.status === 'sent' ? one.body.data : undefined;
    });
    const inbox = await t.request('GET', '/api/public/sandbox/messages', { key });
    const copies = [];
    for (const listed of inbox.body.data.messages.filter((m: any) => m.emailId === id)) {
      const one = await t.request('GET', `/api/public/sandbox/messages/${listed.id}`, { key });
      copies.push(one.body.data);
    }
    return { id, email, copies };
  };
  const eventsOf = (id: string) =>
    verifiedEvents(receiver.received, secret)
      .map((e) => e.event)
      .filter((e) => e.data?.id === id && /^email\.(opened|clicked)$/.test(e.type));

  test('each copy carries its recipient’s signed links and pixel; DKIM still passes', async () => {
    const { email, copies } = await sendTracked({
      to: ['delivered@sandbox.test', 'delivered+two@sandbox.test'],
      html: `<html><body><p>Read <a href="${landingUrl}/post?a=1&amp;b=2">the post</a>, <a href="mailto:hi@example.com">write</a> or <a data-track="false" href="${landingUrl}/private">this</a>.</p></body></html>`,
      tracking: { opens: true, clicks: true },
    });
    assert.deepEqual(email.tracking, { opens: true, clicks: true });
    assert.equal(copies.length, 2);
    const tokens = copies.map((copy) => {
      assert.equal(copy.authentication.dkim[0].result, 'pass', JSON.stringify(copy.authentication));
      const link = new RegExp(
        `href="${t.url}/t/c/(rcp_[a-z2-7]{20}\\.[A-Za-z0-9_-]{22})/([A-Za-z0-9_-]+)"`,
      ).exec(copy.html);
      assert.ok(link, copy.html);
      assert.equal(Buffer.from(link[2]!, 'base64url').toString(), `${landingUrl}/post?a=1&b=2`);
      assert.match(copy.html, new RegExp(`<img src="${t.url}/t/o/rcp_[a-z2-7]{20}\\.[A-Za-z0-9_-]{22}"`));
      // links that are not http(s), or ask not to be tracked, stay as written
      assert.match(copy.html, /href="mailto:hi@example\.com"/);
      assert.ok(copy.html.includes(`href="${landingUrl}/private"`));
      // the text part's links are tracked too, with the same token; the pixel is not there
      assert.ok(copy.text.includes(`${t.url}/t/c/${link[1]}/`), copy.text);
      assert.doesNotMatch(copy.text, /\/t\/o\//);
      return link[1]!;
    });
    assert.notEqual(tokens[0], tokens[1], 'each recipient has a token of their own');
  });

  test('the content API shows a tracked message as written: its links lead where they did, no pixel (they showed the recipient mark, RCPT~MARK)', async () => {
    const { email } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: `<html><body><p>Read <a href="${landingUrl}/post?a=1&amp;b=2">the post</a>.</p></body></html>`,
      tracking: { opens: true, clicks: true },
    });
    const content = await t.request('GET', `/api/public/emails/${email.id}/content`, { key });
    assert.equal(content.status, 200, JSON.stringify(content.body));
    assert.deepEqual(content.contractProblems, []);
    const { html, text } = content.body.data;
    for (const part of [html, text]) {
      assert.doesNotMatch(part, /RCPT~MARK|\/t\/[oc]\//, part);
    }
    assert.ok(html.includes(`href="${landingUrl}/post?a=1&amp;b=2"`), html);
    assert.doesNotMatch(html, /width="1" height="1"/);
    assert.ok(text.includes(`${landingUrl}/post?a=1&b=2`), text);
  });

  test('one copy opened many times at once is one open event (on PostgreSQL each request saw no earlier one and wrote its own)', async () => {
    const { email, copies } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: '<html><body><p>Hello</p></body></html>',
      tracking: { opens: true, clicks: false },
    });
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(copies[0]!.html)?.[1];
    assert.ok(pixel, copies[0]!.html);
    const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(pixel)));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(8).fill(200),
    );
    const recorded = (await t.request('GET', `/api/public/emails/${email.id}`, { key })).body.data;
    const opens = recorded.recipients[0].events.filter((e: { type: string }) => e.type === 'opened');
    assert.equal(opens.length, 1, JSON.stringify(recorded.recipients[0].events));
  });

  test('opened in Chromium: the pixel and a followed link become events and webhooks, a person’s', async () => {
    const { id, copies } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: `<html><body><p>Read <a id="post" href="${landingUrl}/post">the post</a>.</p></body></html>`,
      tracking: { opens: true, clicks: true },
    });
    // a desktop Chrome's user agent: headless Chromium names itself, as scanners' browsers do
    const context = await browser.newContext({
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    const page = await context.newPage();
    try {
      await page.setContent(copies[0].html, { waitUntil: 'load' });
      await page.click('#post');
      await page.waitForSelector('#landed');
      assert.equal(await page.textContent('#landed'), '/post');
    } finally {
      await context.close();
    }
    const email = await waitUntil('opened and clicked events', async () => {
      const one = await t.request('GET', `/api/public/emails/${id}`, { key });
      const types = one.body.data.recipients[0].events.map((e: any) => e.type);
      return types.includes('opened') && types.includes('clicked') ? one : undefined;
    });
    assert.deepEqual(email.contractProblems, []);
    const events = email.body.data.recipients[0].events;
    const opened = events.find((e: any) => e.type === 'opened');
    const clicked = events.find((e: any) => e.type === 'clicked');
    assert.equal(opened.machineReason, null);
    assert.equal(clicked.url, `${landingUrl}/post`);
    // a click within 10 s of the copy leaving is a scanner's pace, and this one may be that quick
    assert.ok(clicked.machineReason === null || clicked.machineReason === 'too_soon', clicked.machineReason);
    const hooks = await waitUntil('email.opened and email.clicked webhooks', () => {
      const got = eventsOf(id);
      return got.length >= 2 ? got : undefined;
    });
    const byType = Object.fromEntries(hooks.map((e) => [e.type, e.data]));
    assert.equal(byType['email.opened'].recipient, 'delivered@sandbox.test');
    assert.equal(byType['email.opened'].machine, false);
    assert.equal(byType['email.clicked'].url, `${landingUrl}/post`);
  });

  test('machines are flagged: Apple’s privacy proxy, a scanner’s user agent, a HEAD', async () => {
    const { id, copies } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: `<p><a href="${landingUrl}/a">a</a> <a href="${landingUrl}/b">b</a></p>`,
      tracking: { opens: true, clicks: true },
    });
    const pixel = /<img src="([^"]+)"/.exec(copies[0].html)![1]!;
    const [a, b] = [...copies[0].html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => m[1]!);
    const apple = await fetch(pixel, { headers: { 'user-agent': 'Mozilla/5.0' } });
    assert.equal(apple.status, 200);
    assert.equal(apple.headers.get('content-type'), 'image/gif');
    assert.match(apple.headers.get('cache-control')!, /no-store/);
    const scanner = await fetch(a!, {
      redirect: 'manual',
      headers: { 'user-agent': 'python-requests/2.31' },
    });
    assert.equal(scanner.status, 302);
    assert.equal(scanner.headers.get('location'), `${landingUrl}/a`);
    const head = await fetch(b!, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 302);
    // a HEAD of the pixel checks it, it does not show it: no open
    assert.equal((await fetch(pixel, { method: 'HEAD' })).status, 200);
    const email = await waitUntil('three engagement events', async () => {
      const one = await t.request('GET', `/api/public/emails/${id}`, { key });
      const found = one.body.data.recipients[0].events.filter(
        (e: any) => e.type === 'opened' || e.type === 'clicked',
      );
      return found.length === 3 ? found : undefined;
    });
    assert.deepEqual(
      email.map((e: any) => [e.type, e.url ?? null, e.machineReason]),
      [
        ['opened', null, 'apple_privacy_protection'],
        ['clicked', `${landingUrl}/a`, 'security_scanner'],
        ['clicked', `${landingUrl}/b`, 'head_request'],
      ],
    );
    // the same pixel again within a minute is the same open
    await fetch(pixel, { headers: { 'user-agent': 'Mozilla/5.0' } });
    const again = await t.request('GET', `/api/public/emails/${id}`, { key });
    assert.equal(again.body.data.recipients[0].events.filter((e: any) => e.type === 'opened').length, 1);
  });

  test('an altered token or link goes nowhere: 404, no event, never a redirect elsewhere', async () => {
    const { id, copies } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: `<p><a href="${landingUrl}/safe">safe</a> <a href="${landingUrl}/${'long/'.repeat(60)}?q=1">long</a></p>`,
      tracking: { clicks: true },
    });
    assert.doesNotMatch(copies[0].html, /\/t\/o\//, 'opens were not asked for');
    const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(copies[0].html)![1]!;
    const [prefix, token, encoded] = /^(.*\/t\/c\/)([^/]+)\/([^/]+)$/.exec(link)!.slice(1) as [
      string,
      string,
      string,
    ];
    const elsewhere = Buffer.from('https://evil.example/').toString('base64url');
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    for (const forged of [
      `${prefix}${token}/${elsewhere}`,
      `${prefix}${flipped}/${encoded}`,
      `${prefix}x/${encoded}`,
    ]) {
      const res = await fetch(forged, { redirect: 'manual' });
      assert.equal(res.status, 404, forged);
      assert.equal(res.headers.get('location'), null);
      assert.match(await res.text(), /not valid/);
    }
    // a link of 300 characters and more is followed (the router's 100-character parameters once answered 414)
    const long = [...copies[0].html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)][1]![1]!;
    const followed = await fetch(long, { redirect: 'manual' });
    assert.equal(followed.status, 302);
    assert.equal(followed.headers.get('location'), `${landingUrl}/${'long/'.repeat(60)}?q=1`);
    const pixel = await fetch(`${t.url}/t/o/${token}`);
    assert.equal(pixel.status, 404, 'a click token is not an open token');
    const one = await t.request('GET', `/api/public/emails/${id}`, { key });
    assert.deepEqual(
      one.body.data.recipients[0].events.map((e: any) => e.type),
      ['sent', 'delivered', 'clicked'],
      'the long link’s click only',
    );
    assert.equal(loggedUrl(new URL(long).pathname), '/t/c/…', 'the log keeps no token and no link');
  });

  test('without tracking asked, a Transactional (sandbox) message is not tracked', async () => {
    const { email, copies } = await sendTracked({
      to: ['delivered@sandbox.test'],
      html: `<p><a href="${landingUrl}/plain">plain</a></p>`,
    });
    assert.deepEqual(email.tracking, { opens: false, clicks: false });
    assert.ok(copies[0].html.includes(`href="${landingUrl}/plain"`));
    assert.doesNotMatch(copies[0].html, /\/t\/[oc]\//);
  });
});
