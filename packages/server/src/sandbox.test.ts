/**
 * The development sandbox (issue 40) through HTTP, on a server in development mode with no
 * DNS and no mail server: a newcomer's first sends from `onboarding@sandbox.test` reach the
 * capture inbox with passing verdicts, and statuses, events, webhooks and suppressions follow
 * each simulated outcome. Production mode refuses the sandbox as a sender.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from './test-support/webhook-receiver.js';

const FROM = 'Acme <onboarding@sandbox.test>';

describe('the sandbox', () => {
  let t: TestServer;
  let key: string;
  let receiver: WebhookReceiver;
  let secret: string;

  before(async () => {
    t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SEND_INTERVAL_MS: '50' });
    ({ key } = await t.createKey());
    receiver = await startWebhookReceiver();
    const endpoint = await t.request('POST', '/api/public/webhooks', { key, body: { url: receiver.url } });
    assert.equal(endpoint.status, 200, JSON.stringify(endpoint.body));
    secret = endpoint.body.data.secret;
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  const send = async (to: string[], extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: { from: FROM, to, subject: 'Welcome aboard', html: '<p>Hello <b>there</b></p>', ...extra },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    return res.body.data.id as string;
  };
  const emailWhen = (id: string, what: string, done: (email: any) => boolean) =>
    waitUntil(
      `${id} ${what}`,
      async () => {
        const res = await t.request('GET', `/api/public/emails/${id}`, { key });
        return done(res.body.data) ? res.body.data : undefined;
      },
      { seen: async () => (await t.request('GET', `/api/public/emails/${id}`, { key })).body },
    );
  const eventsOf = (id: string) =>
    verifiedEvents(receiver.received, secret)
      .map((e) => e.event)
      .filter((e) => e.data?.id === id)
      .map((e) => e.type);

  test('delivered@: sent and delivered, captured with SPF, DKIM and DMARC passing aligned', async () => {
    const id = await send(['delivered@sandbox.test'], { text: 'Hello there' });
    const email = await emailWhen(id, 'sent', (e) => e.status === 'sent');
    assert.deepEqual(
      email.recipients[0].events.map((e: any) => [e.type, e.smtpCode, e.mxHost]),
      [
        ['sent', 250, 'capture.sandbox.test'],
        ['delivered', 250, 'capture.sandbox.test'],
      ],
    );
    await waitUntil('sent and delivered webhooks', () =>
      eventsOf(id).includes('email.delivered') ? true : undefined,
    );
    assert.deepEqual(eventsOf(id), ['email.sent', 'email.delivered']);

    const inbox = await t.request('GET', '/api/public/sandbox/messages', { key });
    assert.equal(inbox.status, 200);
    assert.deepEqual(inbox.contractProblems, []);
    const listed = inbox.body.data.messages.find((m: any) => m.emailId === id);
    assert.ok(listed, JSON.stringify(inbox.body));
    assert.equal(listed.to, 'delivered@sandbox.test');
    assert.equal(listed.subject, 'Welcome aboard');

    const one = await t.request('GET', `/api/public/sandbox/messages/${listed.id}`, { key });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(one.contractProblems, []);
    const m = one.body.data;
    assert.equal(m.authentication.spf.result, 'pass');
    assert.deepEqual(m.authentication.dkim, [
      { result: 'pass', domain: 'sandbox.test', selector: 'sandbox', aligned: true },
    ]);
    assert.equal(m.authentication.dmarc.result, 'pass');
    assert.equal(m.authentication.dmarc.policy, 'reject');
    assert.match(
      m.authentication.header,
      /^Authentication-Results: capture\.sandbox\.test; dkim=pass .* spf=pass .* dmarc=pass /,
    );
    assert.equal(m.headers[0].name, 'DKIM-Signature');
    assert.ok(m.headers.some((h: any) => h.name === 'Message-ID'));
    assert.match(m.html, /Hello <b>there<\/b>/);
    assert.match(m.text, /Hello there/);
    assert.match(m.raw, /^DKIM-Signature: v=1; a=rsa-sha256;/);
  });

  test('bounced@: a hard bounce, the address suppressed; the next send to it is suppressed', async () => {
    const id = await send(['bounced@sandbox.test']);
    const email = await emailWhen(id, 'bounced', (e) => e.status === 'bounced');
    const [event] = email.recipients[0].events;
    assert.equal(event.smtpCode, 550);
    assert.equal(event.bounceType, 'hard');
    await waitUntil('the bounced webhook', () => (eventsOf(id).includes('email.bounced') ? true : undefined));
    const hook = verifiedEvents(receiver.received, secret).find(
      (e) => e.event.data?.id === id && e.event.type === 'email.bounced',
    )!.event;
    assert.equal(hook.data.bounceType, 'hard');
    assert.equal(hook.data.diagnosticCode, '5.1.1');
    assert.equal(hook.data.suppressed, true);

    const list = await t.request('GET', '/api/public/suppressions', { key });
    assert.ok(list.body.data.some((s: any) => s.address === 'bounced@sandbox.test'));
    const again = await send(['bounced@sandbox.test']);
    const refused = await emailWhen(again, 'failed', (e) => e.status === 'failed');
    assert.equal(refused.recipients[0].status, 'suppressed');
    // a +label is another address: it bounces afresh
    const labelled = await send(['bounced+2@sandbox.test']);
    await emailWhen(labelled, 'bounced', (e) => e.status === 'bounced');
  });

  test('complained@: delivered, then a complaint, the address suppressed for the stream', async () => {
    const id = await send(['Complained@Sandbox.test']);
    await waitUntil('the complained webhook', () =>
      eventsOf(id).includes('email.complained') ? true : undefined,
    );
    assert.deepEqual(eventsOf(id), ['email.sent', 'email.delivered', 'email.complained']);
    const email = await emailWhen(id, 'sent', (e) => e.status === 'sent');
    assert.deepEqual(
      email.recipients[0].events.map((e: any) => e.type),
      ['sent', 'delivered', 'complained'],
    );
    const list = await t.request('GET', '/api/public/suppressions', { key });
    const entry = list.body.data.find((s: any) => s.address === 'complained@sandbox.test');
    assert.ok(entry, JSON.stringify(list.body));
    assert.equal(entry.scope, 'Transactional');
  });

  test('a 40-recipient message’s 80 events reach the endpoint back to back, in order (one a tick took 80 s)', async () => {
    const to = Array.from({ length: 40 }, (_, i) => `delivered+many${i}@sandbox.test`);
    const id = await send(to);
    // Within the wait's bound only if each delivered event lets the next go at once: at one
    // event per tick (WEBHOOK_INTERVAL_MS, 1 s) the 80 took 80 s.
    const events = await waitUntil('80 events', () => {
      const got = verifiedEvents(receiver.received, secret)
        .map((e) => e.event)
        .filter((e) => e.data?.id === id);
      return got.length >= 80 ? got : undefined;
    });
    assert.equal(events.length, 80);
    for (const address of to) {
      const mine = events.filter((e) => e.data.recipient === address).map((e) => e.type);
      assert.deepEqual(mine, ['email.sent', 'email.delivered'], address);
    }
  });

  test('the sandbox sends only to its simulator, and names the address it refuses', async () => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: { from: FROM, to: ['delivered@sandbox.test', 'ann@example.com'], subject: 's', html: '<p>x</p>' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'EMAIL_SANDBOX_RECIPIENT');
    assert.match(res.body.error.message, /ann@example\.com/);
  });

  test('sandbox.test is every account’s to send from: no account can register it', async () => {
    const res = await t.request('POST', '/api/public/domain', {
      key,
      body: {
        domains: [
          { domain: 'sandbox.test', domainType: 'Transactional' },
          { domain: 'Mail.Sandbox.TEST.', domainType: 'Marketing' },
        ],
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((e: { status: number; error: { code: string } }) => [e.status, e.error.code]),
      [
        [400, 'DOMAIN_RESERVED'],
        [400, 'DOMAIN_RESERVED'],
      ],
    );
    assert.match(res.body[0].error.message, /development sandbox/);
  });

  test('the inbox pages newest first, and is per account', async () => {
    const ids = [await send(['delivered+a@sandbox.test']), await send(['delivered+b@sandbox.test'])];
    for (const id of ids) await emailWhen(id, 'sent', (e) => e.status === 'sent');
    const first = await t.request('GET', '/api/public/sandbox/messages?limit=1', { key });
    assert.equal(first.body.data.messages[0].emailId, ids[1]);
    const second = await t.request(
      'GET',
      `/api/public/sandbox/messages?limit=1&cursor=${first.body.data.nextCursor}`,
      { key },
    );
    assert.equal(second.body.data.messages[0].emailId, ids[0]);
    const bad = await t.request('GET', '/api/public/sandbox/messages?cursor=nonsense', { key });
    assert.equal(bad.status, 400);

    const other = await t.createKey();
    const theirs = await t.request('GET', '/api/public/sandbox/messages', { key: other.key });
    assert.deepEqual(theirs.body.data.messages, []);
    const missing = await t.request('GET', `/api/public/sandbox/messages/${first.body.data.messages[0].id}`, {
      key: other.key,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'SANDBOX_MESSAGE_NOT_FOUND');
  });

  // issue 40: what a message said could be seen only for sandbox captures
  test('GET /emails/{id}/content gives the message as sent: subject, header fields, decoded parts; per account', async () => {
    const id = await send(['delivered+content@sandbox.test'], {
      subject: 'Grüße, déjà vu',
      html: '<p>Hello <b>there</b> ☃</p>',
      text: 'Hello there ☃',
    });
    const res = await t.request('GET', `/api/public/emails/${id}/content`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    const content = res.body.data;
    assert.deepEqual([content.id, content.subject], [id, 'Grüße, déjà vu']);
    assert.match(content.html, /<p>Hello <b>there<\/b> ☃<\/p>/);
    assert.equal(content.text.trim(), 'Hello there ☃');
    const names = content.headers.map((h: { name: string }) => h.name.toLowerCase());
    for (const name of ['from', 'to', 'subject', 'message-id', 'date', 'mime-version'])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.ok(!names.includes('dkim-signature'), 'stored unsigned: each attempt signs');

    const other = await t.createKey();
    for (const [who, path] of [
      [other.key, `/api/public/emails/${id}/content`],
      [key, '/api/public/emails/eml_nothere/content'],
    ] as const) {
      const missing = await t.request('GET', path, { key: who });
      assert.deepEqual([missing.status, missing.body.error.code], [404, 'EMAIL_NOT_FOUND']);
    }
  });
});

test('production mode refuses the sandbox as a sender, and has no capture inbox', async () => {
  const t = await startTestServer({
    NODE_ENV: 'production',
    SECRET_KEY: randomBytes(32).toString('base64'),
    DKIM_PROVIDER_HOST: 'mail-provider.example.com',
    PUBLIC_URL: 'https://api.example.com',
  });
  try {
    const { key } = await t.createKey();
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: { from: FROM, to: ['delivered@sandbox.test'], subject: 's', html: '<p>x</p>' },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'EMAIL_SANDBOX_OFF');
    const inbox = await t.request('GET', '/api/public/sandbox/messages', { key });
    assert.equal(inbox.status, 404);
  } finally {
    await t.close();
  }
});
