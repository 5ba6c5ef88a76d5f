/**
 * Sending end to end (issue 21) with real parts: BIND is the customer's DNS (the three DKIM
 * CNAMEs and DMARC) and the recipients' (MX records), a secondary of our DKIM zone fed by AXFR
 * from the service's responder; Postfix from Debian is the recipients' MX on port 25 of its own
 * loopback address, delivering to a Maildir. Every delivered message is checked with mailauth:
 * DKIM passes through the customer's CNAME and our key, and DMARC passes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { MAX_WAIT_MS } from './email/destination-rates.js';
import { reserveDnsPort, startBind } from './test-support/bind.js';
import { type PostfixServer, startPostfix } from './test-support/postfix.js';
import { deliveryStatusReport } from './test-support/reports.js';
import { createTestCa, type TestCa } from './test-support/test-ca.js';
import { startTestServer } from './test-support/test-server.js';
import { DEFAULT_WAIT_MS, waitUntil } from './test-support/wait.js';
import { startWebhookReceiver, verifiedEvents } from './test-support/webhook-receiver.js';

const DOMAIN = 'mail.customer.test';
/** A Marketing domain registered with a return path (issue 34). */
const RP_DOMAIN = 'rp.customer.test';

/** A TCP port nothing listens on now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Registers `RP_DOMAIN` with a return path in `world`, publishes its records, and waits for verified. */
async function withReturnPath(world: Awaited<ReturnType<typeof startWorld>>) {
  const { api, bind, call } = world;
  const [registered] = await call('POST', '/api/public/domain', {
    domains: [{ domain: RP_DOMAIN, domainType: 'Marketing', returnPath: true }],
  });
  await api.server.dkim.generator.idle();
  for (const record of registered.data.records) {
    if (record.type === 'CNAME') await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    else await bind.addRecord(record.fqdn, 'TXT', record.value.replace(/^"|"$/g, ''));
  }
  // (the zone transfers' bound: one only a broken transfer reaches, far above a loaded run's)
  for (const record of registered.data.records.slice(0, 3))
    await bind.waitFor(record.value, 'TXT', (a) => a.length === 1, DEFAULT_WAIT_MS);
  // our zone's SPF record for every return path, carried by BIND as a secondary
  await bind.waitFor('return-path.dkim.provider.test', 'TXT', (a) => a.length === 1, DEFAULT_WAIT_MS);
  const [status] = await call('POST', '/api/public/domain/status', { domains: [RP_DOMAIN] });
  assert.deepEqual([status.data.status, status.data.records[4].status], ['verified', 'verified']);
  return (to: string[]) =>
    call('POST', '/api/public/emails', {
      from: `News <news@${RP_DOMAIN}>`,
      subject: 'This week',
      html: '<p>Hello</p>',
      to,
    });
}

/**
 * One sending world: BIND, the recipients' Postfix MX, a server (with `env`) whose DKIM zone
 * BIND carries as a secondary, and a verified Marketing domain of one account.
 */
async function startWorld(
  env: Record<string, string> = {},
  before?: (mx: PostfixServer, inboundPort: number) => Promise<Record<string, string>>,
) {
  // What has started, stopped in reverse order by `close`, or at once when a later step fails
  // (a failed `before` otherwise left servers running, and the file hung to its timeout).
  const started: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const stop of started.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    return await startWorldParts(started, close, env, before);
  } catch (error) {
    await close();
    throw error;
  }
}

async function startWorldParts(
  started: (() => Promise<unknown>)[],
  close: () => Promise<void>,
  env: Record<string, string>,
  before: ((mx: PostfixServer, inboundPort: number) => Promise<Record<string, string>>) | undefined,
) {
  const reservedDns = await reserveDnsPort();
  started.push(() => reservedDns.release());
  const bindPort = reservedDns.port;
  // The inbound listener's port, known before Postfix starts: its DSNs for our return path go
  // there (a transport map: Postfix asks no DNS here).
  const inboundPort = await freePort();
  // The mailbox store behind the MX, for one address: it says the mailbox is gone, after the MX
  // accepted the message, so the MX bounces it with a DSN of its own.
  const store = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, done) =>
      done(Object.assign(new Error('5.1.1 mailbox gone after acceptance'), { responseCode: 550 })),
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  started.push(() => new Promise<void>((resolve) => store.close(() => resolve())));
  const storePort = (store.server.address() as { port: number }).port;
  const mx = await startPostfix({
    // busy., closed.: their first MX refuses at the greeting, and this one is their second
    domains: ['recipient.test', 'solo.recipient.test', 'busy.recipient.test', 'closed.recipient.test'],
    transports: {
      [`bounces.${RP_DOMAIN}`]: `smtp:[127.0.0.1]:${inboundPort}`,
      'accepted-then-gone@recipient.test': `smtp:[127.0.0.1]:${storePort}`,
    },
  });
  started.push(() => mx.close());
  const extra = before ? await before(mx, inboundPort) : {};
  const api = await startTestServer({
    DNS_RESOLVERS: `127.0.0.1:${bindPort}`,
    DNS_LISTEN: '127.0.0.1:0',
    DNS_SECONDARIES: `127.0.0.1:${bindPort}`,
    DNS_NS: 'ns1.provider.test,ns2.provider.test',
    STATUS_CHECK_MAX_AGE_MS: '0',
    SMTP_MX_PORT: String(mx.port),
    SMTP_ALLOW_PRIVATE_MX: 'true',
    SMTP_HELO_NAME: 'sender.test',
    SMTP_TIMEOUT_MS: '5000',
    // Postfix reads a changed access map (rejectRecipient) in new sessions only: one message
    // per session here; session reuse has tests of its own.
    SMTP_MESSAGES_PER_CONNECTION: '1',
    SEND_INTERVAL_MS: '20',
    SEND_RETRY_BASE_MS: '200',
    SEND_RETRY_MAX_DELAY_MS: '400',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_INTERVAL_MS: '20',
    // return paths (issue 34): mail leaves from loopback, reports come back to our listener
    SENDING_IPS: '127.0.0.1',
    INBOUND_MX_HOST: 'inbound.provider.test',
    SMTP_LISTEN: `127.0.0.1:${inboundPort}`,
    ...env,
    ...extra,
  });
  started.push(() => api.close());
  await reservedDns.release();
  const bind = await startBind({
    port: bindPort,
    zones: ['customer.test', 'recipient.test'],
    secondaries: [
      { zone: 'dkim.provider.test', primary: `127.0.0.1:${api.server.dkim.responder!.address.port}` },
    ],
    recursion: true,
  });
  started.push(() => bind.close());
  // BIND refuses an MX whose host has no address yet.
  await bind.addRecord('mx.recipient.test', 'A', mx.address);
  await bind.addRecord('recipient.test', 'MX', '10 mx.recipient.test.');
  // No MX: mail goes to the domain's own address (RFC 5321 §5.1). A null MX: no mail at all (RFC 7505).
  await bind.addRecord('solo.recipient.test', 'A', mx.address);
  await bind.addRecord('nomail.recipient.test', 'MX', '0 .');
  const { key } = await api.createKey();

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await api.request(method, route, { key, ...(body !== undefined && { body }) });
    assert.deepEqual(res.contractProblems, []);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // The domain routes answer an array of envelopes; the others one envelope.
    return Array.isArray(res.body) ? res.body : res.body.data;
  };
  const send = (extra: Record<string, unknown>) =>
    call('POST', '/api/public/emails', {
      from: `Customer Shop <orders@${DOMAIN}>`,
      subject: 'Your order',
      html: '<h1>Thank you</h1><p>Your order <b>#1234</b> ships today.</p>',
      ...extra,
    });
  /** The message's state once `done` holds for it. */
  const emailWhen = (id: string, what: string, done: (email: any) => boolean) =>
    waitUntil(
      what,
      async () => {
        const email = await call('GET', `/api/public/emails/${id}`);
        return done(email) ? email : undefined;
      },
      { seen: async () => call('GET', `/api/public/emails/${id}`) },
    );
  /** mailauth's verdict on a delivered message, asking only the test BIND. */
  const authenticated = (raw: Buffer) => {
    const resolver = bind.resolver();
    return authenticate(raw, {
      ip: '127.0.0.1',
      helo: 'sender.test',
      sender: `orders@${DOMAIN}`,
      mta: 'mx.recipient.test',
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
  };

  const [registered] = await call('POST', '/api/public/domain', {
    domains: [{ domain: DOMAIN, domainType: 'Marketing' }],
  });
  await api.server.dkim.generator.idle();
  for (const record of registered.data.records) {
    if (record.type === 'CNAME') {
      await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
      // a bound only a broken zone transfer reaches, far above a loaded run's (2 cores)
      await bind.waitFor(`${record.value}`, 'TXT', (a) => a.length === 1, DEFAULT_WAIT_MS);
    } else await bind.addRecord(record.fqdn, 'TXT', record.value.replace(/^"|"$/g, ''));
  }
  const [status] = await call('POST', '/api/public/domain/status', { domains: [DOMAIN] });
  assert.equal(status.data.status, 'verified');
  return { api, bind, mx, call, send, emailWhen, authenticated, close };
}

/** DKIM and DMARC verdicts of a delivered message: both must pass, `d=` the From domain. */
function assertAuthenticated(verdict: Awaited<ReturnType<typeof authenticate>>) {
  const dkim = verdict.dkim.results[0]!;
  assert.equal(dkim.status.result, 'pass', JSON.stringify(dkim.status));
  assert.equal(dkim.signingDomain, DOMAIN);
  const dmarc = verdict.dmarc as { status: { result: string } };
  assert.equal(dmarc.status.result, 'pass', JSON.stringify(dmarc.status));
}

let world: Awaited<ReturnType<typeof startWorld>>;
/** The CA of the MX and MTA-STS policy certificates the service is to check. */
let ca: TestCa;
before(async () => {
  ca = await createTestCa();
  world = await startWorld({
    SMTP_TLS_CA_FILE: ca.file,
    // the pace of one test's MX (issue 35); every other host here has no limit
    SMTP_DESTINATION_RATES: 'mx.paced.recipient.test=12',
  });
});
after(async () => {
  await world?.close();
  ca?.close();
});

describe('sending through the recipients’ MX', () => {
  test('a message is delivered to the MX, signed so that DKIM and DMARC pass, with one-click unsubscribe', async () => {
    const { api, mx, call, send, emailWhen, authenticated } = world;
    const queued = await send({ to: ['Ann <ann@recipient.test>'], tags: [{ name: 'kind', value: 'order' }] });
    assert.equal(queued.status, 'queued');
    const email = await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    const [ann] = email.recipients;
    assert.equal(ann.status, 'sent');
    assert.deepEqual(
      ann.events.map((e: any) => [e.type, e.smtpCode, e.mxHost]),
      [
        ['sent', 250, 'mx.recipient.test'],
        ['delivered', 250, 'mx.recipient.test'],
      ],
    );
    const [delivered] = await mx.waitForMessages(1);
    const raw = delivered!.raw;
    const text = raw.toString('utf8');
    assert.match(text, new RegExp(`^Message-ID: <${queued.id}@${DOMAIN.replaceAll('.', '\\.')}>`, 'im'));
    assert.match(text, /^Date: /m);
    assert.match(text, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    assert.match(text, /Content-Type: text\/plain/);
    assertAuthenticated(await authenticated(raw));

    // The link unsubscribes: the address goes on the account's suppression list.
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(text)![1]!;
    assert.ok(link.startsWith(api.url), link);
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(res.status, 200);
    // a character changed in the middle of the token (the last one carries bits a decoder may ignore)
    const at = link.length - 6;
    const tamperedLink = `${link.slice(0, at)}${link[at] === 'A' ? 'B' : 'A'}${link.slice(at + 1)}`;
    const tampered = await fetch(tamperedLink, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(tampered.status, 404);
    const listed = await call('GET', '/api/public/suppressions');
    assert.deepEqual(
      listed.map((s: any) => [s.address, s.reason, s.scope, s.emailId]),
      [['ann@recipient.test', 'unsubscribed', 'Marketing', queued.id]],
    );

    // Leaving the Marketing stream leaves only that stream (issue 34): the account's
    // Transactional mail (a password reset) still reaches the address. The domain registered
    // again as Transactional stands for the account's Transactional domain.
    const typed = (domainType: string) =>
      call('POST', '/api/public/domain', { domains: [{ domain: DOMAIN, domainType }] });
    await typed('Transactional');
    const reset = await send({ to: ['ann@recipient.test'], subject: 'Reset your password' });
    await emailWhen(reset.id, 'the Transactional message sent', (e) => e.status === 'sent');
    await mx.waitForMessages(2);
    await typed('Marketing');
    const newsletter = await send({ to: ['ann@recipient.test'], subject: 'News' });
    assert.deepEqual(
      (await call('GET', `/api/public/emails/${newsletter.id}`)).recipients.map((r: any) => r.status),
      ['suppressed'],
    );
    // The page's second button stops everything from this sender.
    const page = await (await fetch(link)).text();
    assert.match(page, /<form method="post" action="\?scope=all">/);
    assert.equal((await fetch(`${link}?scope=all`, { method: 'POST' })).status, 200);
    assert.deepEqual(
      (await call('GET', '/api/public/suppressions')).map((s: any) => s.scope),
      ['all'],
    );
    await typed('Transactional');
    const second = await send({ to: ['ann@recipient.test'], subject: 'Reset your password' });
    assert.deepEqual(
      (await call('GET', `/api/public/emails/${second.id}`)).recipients.map((r: any) => r.status),
      ['suppressed'],
    );
    await typed('Marketing');
    assert.deepEqual(await call('DELETE', '/api/public/suppressions/ann@recipient.test'), {
      address: 'ann@recipient.test',
      deleted: true,
    });
  });

  test('attachments (issue 37): a PDF and an inline image arrive as mailparser reads them, and DKIM still passes', async () => {
    const { mx, send, emailWhen, authenticated } = world;
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const before = (await mx.messages()).length;
    const queued = await send({
      to: ['files@recipient.test'],
      html: '<p>Your invoice is attached.</p><img src="cid:logo@shop" alt="Shop">',
      attachments: [
        { filename: 'Rechnung März.pdf', content: pdf.toString('base64'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: png.toString('base64'), contentId: 'logo@shop' },
      ],
    });
    await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    const [copy] = (await mx.waitForMessages(before + 1)).slice(before);
    const parsed = await simpleParser(copy!.raw);
    assert.deepEqual(
      parsed.attachments
        .sort((a, b) => (a.filename ?? '').localeCompare(b.filename ?? ''))
        .map((a) => [
          a.filename,
          a.contentType,
          a.contentDisposition,
          a.cid ?? null,
          a.content.equals(a.filename === 'logo.png' ? png : pdf),
        ]),
      [
        ['logo.png', 'image/png', 'inline', 'logo@shop', true],
        ['Rechnung März.pdf', 'application/pdf', 'attachment', null, true],
      ],
    );
    // mailparser resolves cid:logo@shop to the inline part: the image is the one the HTML names
    assert.ok((parsed.html as string).includes(`<img src="data:image/png;base64,${png.toString('base64')}"`));
    assertAuthenticated(await authenticated(copy!.raw));
  });

  test('a 4xx answer defers the recipient; it is sent once the MX accepts', async () => {
    const { mx, send, emailWhen } = world;
    await mx.rejectRecipient('later@recipient.test', '450 4.2.0 mailbox busy, try later');
    const queued = await send({ to: ['later@recipient.test'] });
    const deferred = await emailWhen(queued.id, 'deferred', (e) => e.status === 'deferred');
    const [event] = deferred.recipients[0].events;
    assert.equal(event.type, 'deferred');
    assert.equal(event.smtpCode, 450);
    assert.match(event.smtpText, /try later/);
    assert.notEqual(deferred.recipients[0].nextAttemptAt, null);
    await mx.acceptRecipient('later@recipient.test');
    const sent = await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    assert.ok(sent.recipients[0].attempts >= 2);
  });

  test('a 5xx answer bounces; only an address that does not exist (a hard bounce) is suppressed', async () => {
    const { mx, call, send, emailWhen } = world;
    await mx.rejectRecipient('gone@recipient.test', '550 5.1.1 no such user here');
    // A blocklist listing of our address and a full mailbox say nothing against the address.
    await mx.rejectRecipient('listed@recipient.test', '554 5.7.1 blocked using zen.spamhaus.org');
    await mx.rejectRecipient('full@recipient.test', '552 5.2.2 mailbox full');
    const queued = await send({
      to: ['gone@recipient.test', 'bo@recipient.test', 'listed@recipient.test', 'full@recipient.test'],
    });
    const settled = await emailWhen(
      queued.id,
      'settled',
      (e) => !['queued', 'sending', 'deferred'].includes(e.status),
    );
    assert.deepEqual(
      settled.recipients.map((r: any) => [r.address, r.status, r.events[0].bounceType]),
      [
        ['gone@recipient.test', 'bounced', 'hard'],
        ['bo@recipient.test', 'sent', undefined],
        ['listed@recipient.test', 'bounced', 'block'],
        ['full@recipient.test', 'bounced', 'soft'],
      ],
    );
    assert.equal(settled.status, 'sent');
    const [bounce] = settled.recipients[0].events;
    assert.deepEqual([bounce.type, bounce.smtpCode], ['bounced', 550]);
    // the code once, as the server said it
    assert.match(bounce.smtpText, /^550 5\.1\.1 /);
    const suppressions = await call('GET', '/api/public/suppressions');
    assert.deepEqual(
      suppressions.map((s: any) => [s.address, s.scope, s.reason.slice(0, 10)]),
      [['gone@recipient.test', 'all', '550 5.1.1 ']],
    );

    const later = await send({ to: ['gone@recipient.test'] });
    const refused = await call('GET', `/api/public/emails/${later.id}`);
    assert.equal(refused.status, 'failed');
    assert.deepEqual(
      refused.recipients[0].events.map((e: any) => e.type),
      ['suppressed'],
    );
  });
});

describe('the return path (issue 34)', () => {
  let fromRp: (to: string[]) => Promise<any>;
  before(async () => {
    fromRp = await withReturnPath(world);
  });

  /** A message from the return-path domain to `to`, once sent, and its copy at the MX. */
  /**
   * A message from the return-path domain to `to`, once sent, and its copy at the MX, whose
   * authentication every caller gets checked: SPF passes aligned, DKIM and DMARC pass.
   */
  const sentFromRp = async (to: string) => {
    const before = (await world.mx.messages()).length;
    const queued = await fromRp([to]);
    await world.emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    const [delivered] = (await world.mx.waitForMessages(before + 1)).slice(before);
    await assertAlignedSpf(delivered!.raw);
    return { queued, delivered: delivered! };
  };
  /** The envelope sender a delivered copy came with (Postfix writes it as `Return-Path`). */
  const returnPathOf = (delivered: { raw: Buffer }) =>
    /^Return-Path: <([^>]+)>/m.exec(delivered.raw.toString('utf8'))![1]!;
  /** mailauth's verdicts, as a receiver checks them with the envelope sender it was given. */
  const assertAlignedSpf = async (raw: Buffer) => {
    const resolver = world.bind.resolver();
    const verdict = await authenticate(raw, {
      ip: '127.0.0.1',
      helo: 'sender.test',
      sender: returnPathOf({ raw }),
      mta: 'mx.recipient.test',
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    const spf = verdict.spf as { status: { result: string } };
    assert.equal(spf.status.result, 'pass', JSON.stringify(spf.status));
    const dmarc = verdict.dmarc as any;
    assert.equal(dmarc.status.result, 'pass');
    // the SPF domain that aligned with the From domain (relaxed: one organisational domain)
    assert.equal(dmarc.alignment.spf.result, `bounces.${RP_DOMAIN}`);
    assert.equal(dmarc.alignment.dkim.result, RP_DOMAIN);
    assert.equal(verdict.dkim.results[0]!.status.result, 'pass');
  };

  test('Postfix, as an MX that accepts and then bounces, sends its DSN to the return path: bounced, suppressed', async () => {
    const { call, emailWhen } = world;
    const queued = await fromRp(['accepted-then-gone@recipient.test']);
    // accepted first (sent, delivered), then the MX's own DSN comes back to our listener
    const bounced = await emailWhen(queued.id, 'bounced by the DSN', (e) => e.status === 'bounced');
    const types = bounced.recipients[0].events.map((e: any) => e.type);
    assert.deepEqual(types, ['sent', 'delivered', 'bounced']);
    const event = bounced.recipients[0].events[2];
    assert.equal(event.bounceType, 'hard');
    assert.match(event.smtpText, /mailbox gone after acceptance/);
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'accepted-then-gone@recipient.test',
    );
    assert.equal(listed.scope, 'all');
  });

  /** A report sent to our inbound listener as a receiving MTA sends it: from the null sender. */
  const report = async (to: string, raw: string) => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: world.api.server.inbound!.address.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      return await transport.sendMail({
        envelope: { from: '', to: [to] },
        raw: raw.replace(/\r?\n/g, '\r\n'),
      });
    } finally {
      transport.close();
    }
  };

  test('mail leaves with a VERP envelope sender there: SPF passes aligned, and DKIM and DMARC pass', async () => {
    // sentFromRp checks SPF (aligned), DKIM and DMARC with mailauth
    const { delivered } = await sentFromRp('spf@recipient.test');
    const text = delivered.raw.toString('utf8');
    assert.match(returnPathOf(delivered), /^rcp_[a-z2-7]{20}\.[a-z2-7]{16}@bounces\.rp\.customer\.test$/);
    assert.match(text, /^Feedback-ID: none:acc_[a-z2-7]+:Marketing:provider\.test/m);
  });

  test('a DSN after acceptance bounces the recipient, suppresses a hard bounce, and sends email.bounced', async () => {
    const { call, emailWhen } = world;
    const { queued, delivered } = await sentFromRp('later-gone@recipient.test');
    const verp = returnPathOf(delivered);
    await report(
      verp,
      deliveryStatusReport({
        to: verp,
        mta: 'mx.recipient.test',
        recipient: 'later-gone@recipient.test',
        status: '5.1.1',
        diagnostic: '550 5.1.1 <later-gone@recipient.test>: Recipient address rejected: User unknown',
      }),
    );
    const bounced = await emailWhen(queued.id, 'bounced', (e) => e.status === 'bounced');
    const event = bounced.recipients[0].events.find((e: any) => e.type === 'bounced');
    assert.deepEqual([event.bounceType, event.smtpCode, event.mxHost], ['hard', 550, 'mx.recipient.test']);
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'later-gone@recipient.test',
    );
    assert.equal(listed.scope, 'all');
    // the same report again changes nothing
    await report(
      verp,
      `From: MAILER-DAEMON@mx.recipient.test\nTo: ${verp}\nSubject: failure\n\n550 5.1.1 gone\n`,
    );
    const again = await call('GET', `/api/public/emails/${queued.id}`);
    assert.equal(again.recipients[0].events.filter((e: any) => e.type === 'bounced').length, 1);
  });

  test('a DSN to postmaster@ of the return path (no VERP) is matched by its original Message-ID', async () => {
    const { call, emailWhen } = world;
    const { queued } = await sentFromRp('pm-gone@recipient.test');
    await report(
      `postmaster@bounces.${RP_DOMAIN}`,
      deliveryStatusReport({
        to: `postmaster@bounces.${RP_DOMAIN}`,
        mta: 'old-mta.test',
        recipient: 'pm-gone@recipient.test',
        status: '5.1.1',
        originalHeaders: `From: News <news@${RP_DOMAIN}>\nMessage-ID: <${queued.id}@${RP_DOMAIN}>\nSubject: This week`,
      }),
    );
    const bounced = await emailWhen(queued.id, 'bounced', (e) => e.status === 'bounced');
    assert.equal(bounced.recipients[0].events.at(-1).bounceType, 'hard');
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'pm-gone@recipient.test',
    );
    assert.equal(listed.scope, 'all');
  });

  test('a complaint (ARF) suppresses the address for Marketing mail and sends email.complained', async () => {
    const { call, emailWhen } = world;
    const { queued, delivered } = await sentFromRp('annoyed@recipient.test');
    const verp = returnPathOf(delivered);
    await report(
      verp,
      `From: feedback@arf.mail.yahoo.test
To: ${verp}
Subject: FW: This week
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="A"

--A
Content-Type: text/plain

This is an email abuse report.

--A
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: Yahoo!-Mail-Feedback/2.0
Version: 1

--A
Content-Type: message/rfc822

From: News <news@${RP_DOMAIN}>
Subject: This week

Hello
--A--
`,
    );
    const complained = await emailWhen(queued.id, 'complained', (e) =>
      e.recipients[0].events.some((x: any) => x.type === 'complained'),
    );
    assert.equal(complained.recipients[0].status, 'sent');
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'annoyed@recipient.test',
    );
    assert.deepEqual([listed.scope, listed.reason], ['Marketing', 'complained']);
  });

  test('List-Unsubscribe offers a mailto: on the return path too; mail to it unsubscribes', async () => {
    const { call } = world;
    const { delivered } = await sentFromRp('by-mail@recipient.test');
    const header = /^List-Unsubscribe: (.+)$/m.exec(delivered.raw.toString('utf8'))![1]!;
    const mailto =
      /<mailto:(unsubscribe\.rcp_[a-z2-7]{20}\.[a-z2-7]{16}@bounces\.rp\.customer\.test)\?subject=unsubscribe>/.exec(
        header,
      )?.[1];
    assert.ok(mailto, header);
    await report(mailto, 'From: by-mail@recipient.test\nSubject: unsubscribe\n\n\n');
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'by-mail@recipient.test',
    );
    assert.deepEqual([listed.scope, listed.reason], ['Marketing', 'unsubscribed']);
  });

  test('the listener refuses other domains at RCPT (never a relay); forged addresses change nothing', async () => {
    const { queued, delivered } = await sentFromRp('forge@recipient.test');
    const verp = returnPathOf(delivered);
    const altered = verp.replace(/\.([a-z2-7])/, (_m, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
    // another domain's address: refused at RCPT, so the listener relays nothing
    await assert.rejects(report('someone@gmail.test', 'Subject: x\n\nx\n'), (error: any) => {
      assert.equal(error.responseCode, 550);
      return true;
    });
    // at our return path (postmaster@ must be taken there), a forged or altered VERP address
    // names nobody: a bounce sent to it changes nothing
    for (const to of [altered, `rcp_aaaaaaaaaaaaaaaaaaaa.aaaaaaaaaaaaaaaa@bounces.${RP_DOMAIN}`])
      await report(to, 'Subject: failure\n\n<forge@recipient.test>: 550 5.1.1 gone\n');
    const unchanged = await world.call('GET', `/api/public/emails/${queued.id}`);
    assert.equal(unchanged.recipients[0].status, 'sent');
  });
});

/**
 * A scripted MX (smtp-server) on port 25 of a loopback address of its own (tried at random in
 * 127.26.0.0/16 until one is free: other test files run beside this one).
 */
async function scriptedMx(options: ConstructorParameters<typeof SMTPServer>[0]) {
  const received: string[] = [];
  /** For each message received, whether its session was encrypted (STARTTLS). */
  const secure: boolean[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        secure.push(session.secure);
        done();
      });
    },
    ...options,
  });
  // a client's failed TLS handshake is an error event of the server's: expected here (and the
  // net server's EADDRINUSE, passed on, is listenOnRandomLoopback's)
  server.on('error', () => {});
  const address = await listenOnRandomLoopback(server.server, 25);
  return { address, received, secure, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Listen on `port` of an address in 127.26.0.0/16 at random (tried until one is free: other
 * test files bind ports 25 and 443 beside this one); resolves to the address.
 */
async function listenOnRandomLoopback(server: Server, port: number): Promise<string> {
  for (let tries = 0; ; tries++) {
    const address = `127.26.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
    const listening = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' && tries < 20 ? resolve(false) : reject(error),
      );
      server.listen(port, address, () => resolve(true));
    });
    if (listening) return address;
  }
}

/**
 * `mta-sts.<domain>` for several domains: an https server on port 443 of a loopback address of
 * its own, answering `/.well-known/mta-sts.txt` with `policy(domain)`.
 */
async function mtaStsHost(certificate: { key: string; cert: string }, policy: (domain: string) => string) {
  const server = createHttpsServer(certificate, (request, response) => {
    const domain = (request.headers.host ?? '').replace(/^mta-sts\./, '').replace(/:\d+$/, '');
    if (request.url !== '/.well-known/mta-sts.txt') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/plain' }).end(policy(domain));
  });
  const address = await listenOnRandomLoopback(server, 443);
  return { address, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('delivery as an MTA delivers (issue 35)', () => {
  test('MTA-STS enforce: mail goes over TLS checked against the MX name; a host that cannot is never sent to in clear', async (t) => {
    const { bind, send, emailWhen } = world;
    const goodCertificate = await ca.issue(['mx.sts.recipient.test']);
    const good = await scriptedMx(goodCertificate);
    // a certificate for another name, and no STARTTLS at all
    const wrong = await scriptedMx(await ca.issue(['elsewhere.test']));
    const plain = await scriptedMx({ disabledCommands: ['AUTH', 'STARTTLS'] });
    const domains = ['sts', 'wrongname', 'plain', 'unlisted'].map((label) => `${label}.recipient.test`);
    const policies = await mtaStsHost(await ca.issue(domains.map((d) => `mta-sts.${d}`)), (domain) =>
      ['version: STSv1', 'mode: enforce', `mx: mx.${domain}`, 'max_age: 86400', ''].join('\r\n'),
    );
    t.after(() => Promise.all([good.close(), wrong.close(), plain.close(), policies.close()]));
    const [sts, wrongName, clear, unlisted] = domains as [string, string, string, string];
    for (const [domain, address] of [
      [sts, good.address],
      [wrongName, wrong.address],
      [clear, plain.address],
    ] as const) {
      await bind.addRecord(`mx.${domain}`, 'A', address);
      await bind.addRecord(domain, 'MX', `10 mx.${domain}.`);
    }
    // its MX is a host the policy does not name
    await bind.addRecord(`mx2.${unlisted}`, 'A', good.address);
    await bind.addRecord(unlisted, 'MX', `10 mx2.${unlisted}.`);
    for (const domain of domains) {
      await bind.addRecord(`_mta-sts.${domain}`, 'TXT', 'v=STSv1; id=20261127');
      await bind.addRecord(`mta-sts.${domain}`, 'A', policies.address);
    }

    const delivered = await send({ to: [`someone@${sts}`] });
    const email = await emailWhen(delivered.id, 'settled', (e) => !['queued', 'sending'].includes(e.status));
    assert.equal(email.status, 'sent', JSON.stringify(email.recipients[0].events));
    assert.deepEqual(good.secure, [true]);

    for (const [domain, why] of [
      [
        wrongName,
        /^MTA-STS \(enforce\): no TLS with a valid certificate for mx\.wrongname\.recipient\.test: .*altnames/,
      ],
      [clear, /^MTA-STS \(enforce\): no TLS with a valid certificate for mx\.plain\.recipient\.test: 500 /],
      [
        unlisted,
        /MTA-STS: no MX host of unlisted\.recipient\.test \(mx2\.unlisted\.recipient\.test\) is one its enforced policy names/,
      ],
    ] as const) {
      const queued = await send({ to: [`someone@${domain}`] });
      const deferred = await emailWhen(queued.id, `${domain} deferred`, (e) => e.status === 'deferred');
      assert.match(deferred.recipients[0].events[0].smtpText, why);
    }
    // nothing went in clear, nor to a host the policy does not name
    assert.deepEqual([wrong.received.length, plain.received.length, good.received.length], [0, 0, 1]);
  });

  test('a 421 or 554 greeting skips to the next MX, which gets the message', async (t) => {
    const { bind, mx, send, emailWhen } = world;
    for (const [label, code] of [
      ['busy', 421],
      ['closed', 554],
    ] as const) {
      const refusing = await scriptedMx({
        onConnect: (_session, done) =>
          done(
            Object.assign(new Error(code === 421 ? '4.7.0 too busy, try later' : '5.7.1 no service'), {
              responseCode: code,
            }),
          ),
      });
      t.after(() => refusing.close());
      const domain = `${label}.recipient.test`;
      await bind.addRecord(`mx.${domain}`, 'A', refusing.address);
      await bind.addRecord(domain, 'MX', `10 mx.${domain}.`);
      await bind.addRecord(domain, 'MX', '20 mx.recipient.test.');
      const before = (await mx.messages()).length;
      const queued = await send({ to: [`someone@${domain}`] });
      // settled: delivered, or refused (a bounce, a failure)
      const email = await emailWhen(queued.id, 'delivered or refused', (e) =>
        e.recipients[0].events.some((x: any) => ['delivered', 'bounced', 'failed'].includes(x.type)),
      );
      assert.equal(email.status, 'sent', JSON.stringify(email.recipients[0].events));
      assert.deepEqual(
        email.recipients[0].events.map((e: any) => [e.type, e.mxHost]),
        [
          ['sent', 'mx.recipient.test'],
          ['delivered', 'mx.recipient.test'],
        ],
        `after the ${code} greeting of the first MX`,
      );
      const [copy] = (await mx.waitForMessages(before + 1)).slice(before);
      assert.equal(copy!.recipient, `someone@${domain}`);
    }
  });

  test('SMTPUTF8: üser@ is delivered where the MX offers it (DKIM passes), and bounces with 5.6.7 where it does not', async (t) => {
    const { mx, bind, send, emailWhen, authenticated } = world;
    const before = (await mx.messages()).length;
    // NFD as typed on some systems; sent as NFC
    const queued = await send({ to: ['Zoë <u\u0308ser@recipient.test>'] });
    const sent = await emailWhen(queued.id, 'settled', (e) => !['queued', 'sending'].includes(e.status));
    assert.equal(sent.status, 'sent', JSON.stringify(sent.recipients[0].events));
    assert.equal(sent.recipients[0].address, 'üser@recipient.test');
    const [copy] = (await mx.waitForMessages(before + 1)).slice(before);
    assert.equal(copy!.recipient, 'üser@recipient.test');
    const parsed = await simpleParser(copy!.raw);
    assert.deepEqual(parsed.to && !Array.isArray(parsed.to) && parsed.to.value, [
      { name: 'Zoë', address: 'üser@recipient.test' },
    ]);
    assertAuthenticated(await authenticated(copy!.raw));

    const ascii = await scriptedMx({ hideSMTPUTF8: true });
    t.after(() => ascii.close());
    await bind.addRecord('mx.ascii.recipient.test', 'A', ascii.address);
    await bind.addRecord('ascii.recipient.test', 'MX', '10 mx.ascii.recipient.test.');
    const refused = await send({ to: ['üser@ascii.recipient.test'] });
    const bounced = await emailWhen(refused.id, 'bounced', (e) => e.status === 'bounced');
    const [event] = bounced.recipients[0].events;
    // 5.6.x: the address is good, the path is not (a block, never a suppression)
    assert.deepEqual([event.type, event.smtpCode, event.bounceType], ['bounced', 553, 'block']);
    assert.match(event.smtpText, /5\.6\.7 .*does not offer SMTPUTF8/);
    assert.equal(ascii.received.length, 0);
  });

  test('an MX that scans for longer than SMTP_TIMEOUT_MS before it answers the final "." gets one copy, and it is sent', async (t) => {
    const { bind, send, emailWhen } = world;
    // the world's SMTP_TIMEOUT_MS is 5 s; this scanner answers after 6.5 s
    const scanner = await scriptedMx({
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          scanned.push(Buffer.concat(chunks).toString('utf8'));
          setTimeout(() => done(), 6_500);
        });
      },
    });
    const scanned: string[] = [];
    t.after(() => scanner.close());
    await bind.addRecord('mx.scan.recipient.test', 'A', scanner.address);
    await bind.addRecord('scan.recipient.test', 'MX', '10 mx.scan.recipient.test.');
    const queued = await send({ to: ['someone@scan.recipient.test'] });
    const email = await emailWhen(queued.id, 'settled', (e) => !['queued', 'sending'].includes(e.status));
    assert.equal(email.status, 'sent', JSON.stringify(email.recipients[0].events));
    assert.deepEqual(
      email.recipients[0].events.map((e: any) => e.type),
      ['sent', 'delivered'],
    );
    assert.equal(scanned.length, 1);
  });

  test('every session with the MX ends with QUIT: Postfix logs quit=1 for each, never a lost connection', async () => {
    const { mx, send, emailWhen } = world;
    const queued = await send({ to: ['q1@recipient.test', 'q2@recipient.test', 'q3@recipient.test'] });
    await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    const sessions = await waitUntil('every session’s disconnect line', () => {
      const log = mx.log();
      const connects = log.match(/postfix\/smtpd\[\d+\]: connect from /g)?.length ?? 0;
      const disconnects = log.match(/postfix\/smtpd\[\d+\]: disconnect from .*/g) ?? [];
      return connects > 0 && disconnects.length === connects ? disconnects : undefined;
    });
    const withMail = sessions.filter((line) => / mail=\d/.test(line));
    assert.ok(withMail.length >= 3, sessions.join('\n'));
    assert.deepEqual(
      withMail.filter((line) => !/ quit=1 /.test(line)),
      [],
    );
    assert.doesNotMatch(mx.log(), /lost connection after (MAIL|RCPT|DATA|END-OF-MESSAGE|RSET)/);
  });

  test('an MX whose TLS handshake fails (TLS 1.0 only) gets the message in clear text', async (t) => {
    const { bind, send, emailWhen } = world;
    const old = await scriptedMx({ minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' });
    t.after(() => old.close());
    await bind.addRecord('mx.oldtls.recipient.test', 'A', old.address);
    await bind.addRecord('oldtls.recipient.test', 'MX', '10 mx.oldtls.recipient.test.');
    const queued = await send({ to: ['someone@oldtls.recipient.test'] });
    const email = await emailWhen(queued.id, 'settled', (e) => !['queued', 'sending'].includes(e.status));
    assert.equal(email.status, 'sent', JSON.stringify(email.recipients[0].events));
    assert.equal(old.received.length, 1);
    assert.match(old.received[0]!, /Subject: Your order/);
  });

  test('an MX that holds the final "." does not hold back the mail to other destinations: they are sent meanwhile', async (t) => {
    const { bind, mx, send, emailWhen } = world;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = false;
    const slow = await scriptedMx({
      onData(stream, _session, done) {
        stream.on('data', () => {});
        stream.on('end', () => {
          holding = true;
          void held.then(() => done());
        });
      },
    });
    t.after(() => {
      release();
      return slow.close();
    });
    await bind.addRecord('mx.slow.recipient.test', 'A', slow.address);
    await bind.addRecord('slow.recipient.test', 'MX', '10 mx.slow.recipient.test.');
    const stuck = await send({ to: ['someone@slow.recipient.test'] });
    await waitUntil('the slow MX holds the message', () => holding || undefined);
    const before = (await mx.messages()).length;
    const others = [];
    for (let n = 0; n < 3; n++) others.push(await send({ to: [`other${n}@recipient.test`] }));
    for (const other of others)
      await emailWhen(other.id, 'sent while the slow MX holds its message', (e) => e.status === 'sent');
    await mx.waitForMessages(before + 3);
    assert.equal((await emailWhen(stuck.id, 'still held', () => true)).status, 'sending');
    release();
    const email = await emailWhen(stuck.id, 'sent once released', (e) => e.status === 'sent');
    assert.deepEqual(
      email.recipients[0].events.map((e: any) => e.type),
      ['sent', 'delivered'],
    );
  });

  test('a destination paced at 12 a minute (SMTP_DESTINATION_RATES) gets the second message 5 s after the first; meanwhile it waits queued, no attempt counted, no event', async (t) => {
    const { bind, send, emailWhen } = world;
    const acceptedAt: number[] = [];
    const connectedAt: number[] = [];
    const paced = await scriptedMx({
      onConnect(_session, callback) {
        connectedAt.push(Date.now());
        callback();
      },
      onData(stream, _session, done) {
        stream.on('data', () => {});
        stream.on('end', () => {
          acceptedAt.push(Date.now());
          done();
        });
      },
    });
    t.after(() => paced.close());
    await bind.addRecord('mx.paced.recipient.test', 'A', paced.address);
    await bind.addRecord('paced.recipient.test', 'MX', '10 mx.paced.recipient.test.');
    const sentAt = Date.now();
    const queued = await send({ to: ['first@paced.recipient.test', 'second@paced.recipient.test'] });
    const waiting = await emailWhen(queued.id, 'one sent, the other put back', (e) =>
      e.recipients.some((r: any) => r.status === 'sent'),
    );
    const seenBy = Date.now();
    // The second's turn is 5 s after the first was taken, itself after `sentAt`. Put back, it is
    // taken again MAX_WAIT_MS before its turn and waits the rest in the worker, claimed: read
    // before `queuedUntil`, it must be waiting in the queue. On a loaded machine (five test files
    // on two cores) the first delivery and this poll can come later than that, and the second
    // may be taken already: then its wait was not seen, and only the end state below shows it
    // (no attempt counted, no event, while the pace held it 5 s).
    const queuedUntil = sentAt + 5_000 - MAX_WAIT_MS;
    let putBackFor: number | undefined;
    if (seenBy < queuedUntil) {
      const later = waiting.recipients.find((r: any) => r.status !== 'sent');
      assert.ok(later, `both sent within ${seenBy - sentAt} ms of the send`);
      assert.deepEqual([later.status, later.attempts, later.events], ['queued', 0, []]);
      putBackFor = Date.parse(later.nextAttemptAt);
      assert.ok(putBackFor >= queuedUntil, `its turn is set: ${later.nextAttemptAt}`);
    } else {
      t.diagnostic(`the first seen sent ${seenBy - sentAt} ms after the send: the second's wait unseen`);
    }
    const email = await emailWhen(queued.id, 'both sent', (e) =>
      e.recipients.every((r: any) => r.status === 'sent'),
    );
    // one attempt each, and no event but its own: the pace's putting back counted nothing
    assert.deepEqual(
      email.recipients.map((r: any) => [r.attempts, r.events.map((e: any) => e.type)]),
      [
        [1, ['sent', 'delivered']],
        [1, ['sent', 'delivered']],
      ],
    );
    assert.deepEqual([acceptedAt.length, connectedAt.length], [2, 2]);
    // Turns 5 s apart: the first taken after the send, the second 5 s after it, its session
    // begun no earlier, and not before the time it was put back for. A loaded machine makes
    // each later, never earlier (the gap between the two acceptances is no bound: the first
    // session can itself come late); without a pace both arrive within milliseconds.
    assert.ok(
      connectedAt[1]! - sentAt >= 5_000,
      `second session ${connectedAt[1]! - sentAt} ms after the send`,
    );
    if (putBackFor !== undefined) assert.ok(connectedAt[1]! >= putBackFor, 'not before it was put back for');
  });
});

test('a stored template is rendered with its variables by the editor’s renderer, text part included', async () => {
  const { mx, call, send, emailWhen } = world;
  const text = (value: string) => ({ type: 'text', text: value });
  const [template] = await call('POST', '/api/public/templates', {
    templates: [
      {
        name: 'Shipped',
        document: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                text('Hello '),
                { type: 'variable', attrs: { name: 'first_name', fallback: 'friend' } },
              ],
            },
            { type: 'button', attrs: { text: 'Track it', href: 'https://shop.example/track?o={{order}}' } },
          ],
        },
      },
    ],
  });
  const before = (await mx.messages()).length;
  const queued = await send({
    html: undefined,
    templateId: template.data.id,
    variables: { first_name: 'Zoë', order: 'A-7' },
    to: ['tpl@recipient.test'],
  });
  await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
  const [delivered] = (await mx.waitForMessages(before + 1)).slice(before);
  const parsed = await simpleParser(delivered!.raw);
  assert.match(parsed.html as string, /Hello Zoë/);
  assert.match(parsed.html as string, /href="https:\/\/shop\.example\/track\?o=A-7"/);
  assert.match(parsed.text!, /Hello Zoë/);
  assert.match(parsed.text!, /Track it: https:\/\/shop\.example\/track\?o=A-7/);
});

test('a stored template’s conditions and repeat are applied to the variables of the send (issue 38)', async () => {
  const { mx, call, send, emailWhen } = world;
  const text = (value: string) => ({ type: 'text', text: value });
  const variable = (name: string) => ({ type: 'variable', attrs: { name } });
  const paragraph = (attrs: object | undefined, ...content: object[]) => ({
    type: 'paragraph',
    attrs,
    content,
  });
  const [template] = await call('POST', '/api/public/templates', {
    templates: [
      {
        name: 'Receipt',
        document: {
          type: 'doc',
          content: [
            paragraph(undefined, text('Receipt for '), variable('first_name')),
            paragraph({ showIf: { var: 'plan', op: 'eq', value: 'trial' } }, text('Trial ends soon')),
            paragraph({ showIf: { var: 'discount', op: 'gt', value: 0 } }, text('Discount applied')),
            {
              type: 'repeat',
              attrs: { each: 'items', empty: 'No items', max: 3 },
              content: [
                paragraph(undefined, text('Line: '), variable('item.name'), text(' x'), variable('item.qty')),
              ],
            },
          ],
        },
      },
    ],
  });
  const before = (await mx.messages()).length;
  const queued = await send({
    html: undefined,
    templateId: template.data.id,
    variables: {
      first_name: 'Zoë',
      plan: 'paid',
      discount: 5,
      items: [
        { name: 'Tea <green>', qty: 2 },
        { name: 'Cake', qty: 1 },
      ],
    },
    to: ['cond@recipient.test'],
  });
  await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
  const [delivered] = (await mx.waitForMessages(before + 1)).slice(before);
  const parsed = await simpleParser(delivered!.raw);
  // the round-trip markers (data-attrs) describe the template; the reader sees the rest
  const html = (parsed.html as string).replace(/ data-attrs="[^"]*"/g, '');
  assert.match(html, /Receipt for Zoë/);
  assert.match(html, /Discount applied/);
  assert.doesNotMatch(html, /Trial ends soon|No items|\{\{/);
  assert.match(html, /Line: Tea &lt;green&gt; x2[\s\S]*Line: Cake x1/);
  assert.equal(parsed.text!.match(/^Line: /gm)?.length, 2);
  assert.match(parsed.text!, /Line: Tea <green> x2\n\nLine: Cake x1/);
  assert.doesNotMatch(parsed.text!, /Trial ends soon|\{\{/);
});

test('a line break in the subject cannot add a header: it stays one line, and nobody else gets the mail', async () => {
  const { mx, send, emailWhen } = world;
  const before = (await mx.messages()).length;
  const queued = await send({ to: ['inj@recipient.test'], subject: 'Hi\r\nBcc: victim@recipient.test' });
  await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
  const delivered = (await mx.waitForMessages(before + 1)).slice(before);
  assert.deepEqual(
    delivered.map((m) => m.recipient),
    ['inj@recipient.test'],
  );
  const head = delivered[0]!.raw.toString('utf8').split('\r\n\r\n')[0]!;
  assert.doesNotMatch(head, /^Bcc:/im);
  assert.match(head, /^Subject: Hi Bcc: victim@recipient\.test$/m);
});

test('a domain without MX gets mail at its own address; a null MX bounces at once', async () => {
  const { mx, send, emailWhen } = world;
  const before = (await mx.messages()).length;
  const solo = await send({ to: ['me@solo.recipient.test'] });
  const sent = await emailWhen(solo.id, 'sent', (e) => e.status === 'sent');
  assert.equal(sent.recipients[0].events[0].mxHost, 'solo.recipient.test');
  const [delivered] = (await mx.waitForMessages(before + 1)).slice(before);
  assert.equal(delivered!.recipient, 'me@solo.recipient.test');
  const none = await send({ to: ['me@nomail.recipient.test'] });
  const bounced = await emailWhen(none.id, 'bounced', (e) => e.status === 'bounced');
  assert.equal(bounced.recipients[0].attempts, 1);
  assert.match(bounced.recipients[0].events[0].smtpText, /null MX/);
});

test('each attempt reaches webhook endpoints as email.* events, signed, in order', async () => {
  const { mx, call, send, emailWhen } = world;
  const receiver = await startWebhookReceiver();
  after(() => receiver.close());
  const endpoint = await call('POST', '/api/public/webhooks', {
    url: receiver.url,
    events: ['email.sent', 'email.delivered', 'email.deferred', 'email.bounced', 'email.failed'],
  });
  await mx.rejectRecipient('hooked@recipient.test', '451 4.3.0 greylisted, come back later');
  const queued = await send({ to: ['hooked@recipient.test'], tags: [{ name: 'campaign', value: 'c1' }] });
  await emailWhen(queued.id, 'deferred', (e) => e.status === 'deferred');
  await mx.acceptRecipient('hooked@recipient.test');
  await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
  // this message's events (others of the account, still retrying, come here too)
  const events = await waitUntil('the delivered event', () => {
    const received = verifiedEvents(receiver.received, endpoint.secret)
      .map((e) => e.event)
      .filter((e) => e.data.id === queued.id);
    return received.some((e) => e.type === 'email.delivered') ? received : undefined;
  });
  // Greylisted once or more (a retry can come before the MX's rule is lifted: how many times
  // depends on the machine's speed), then sent and delivered, in that order.
  const types = events.map((e) => [e.type, e.data.smtpCode]);
  const deferrals = types.findIndex(([type]) => type !== 'email.deferred');
  assert.ok(deferrals >= 1, JSON.stringify(types));
  assert.deepEqual(types, [
    ...Array.from({ length: deferrals }, () => ['email.deferred', 451]),
    ['email.sent', 250],
    ['email.delivered', 250],
  ]);
  assert.deepEqual(events[0].data, {
    id: queued.id,
    from: `orders@${DOMAIN}`,
    subject: 'Your order',
    tags: [{ name: 'campaign', value: 'c1' }],
    recipient: 'hooked@recipient.test',
    smtpCode: 451,
    smtpText: events[0].data.smtpText,
    mxHost: 'mx.recipient.test',
    attempts: 1,
  });
  assert.match(events[0].data.smtpText, /greylisted/);
});

describe('sending through a relay', () => {
  let relayed: Awaited<ReturnType<typeof startWorld>>;
  let relay: PostfixServer;
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'relay-ca-')), 'relay.pem');
  before(async () => {
    relayed = await startWorld({}, async (mx, inboundPort) => {
      relay = await startPostfix({
        domains: [],
        relay: { user: 'app', password: 'relay-secret', nextHop: `${mx.address}:${mx.port}` },
        // the relay's own bounces for our return path come back to the listener
        transports: { [`bounces.${RP_DOMAIN}`]: `smtp:[127.0.0.1]:${inboundPort}` },
      });
      writeFileSync(caFile, relay.certificate!);
      return {
        SMTP_RELAY_URL: `smtp://app:relay-secret@${relay.address}:${relay.port}`,
        SMTP_RELAY_CA_FILE: caFile,
      };
    });
  });
  after(async () => {
    await relayed?.close();
    await relay?.close();
  });

  test('a relay’s own bounce after it took the message (its next hop said 5.1.1) comes back: bounced, suppressed (issue 34)', async () => {
    const { mx, call, emailWhen } = relayed;
    const fromRp = await withReturnPath(relayed);
    await mx.rejectRecipient('relay-refused@recipient.test', '550 5.1.1 no such user here');
    const queued = await fromRp(['relay-refused@recipient.test']);
    // the relay said 250 (all a relay tells at once); its DSN says what happened next
    const bounced = await emailWhen(queued.id, 'bounced by the relay’s DSN', (e) => e.status === 'bounced');
    assert.deepEqual(
      bounced.recipients[0].events.map((e: any) => [e.type, e.bounceType]),
      [
        ['sent', undefined],
        ['bounced', 'hard'],
      ],
    );
    assert.match(bounced.recipients[0].events[1].smtpText, /^550 5\.1\.1 /);
    const listed = (await call('GET', '/api/public/suppressions')).find(
      (s: any) => s.address === 'relay-refused@recipient.test',
    );
    assert.equal(listed.scope, 'all');
  });

  test('with SMTP_RELAY_URL every message goes through the relay, after STARTTLS and AUTH, and still passes DKIM and DMARC', async () => {
    const { mx, send, emailWhen, authenticated } = relayed;
    const queued = await send({ to: ['zoe@recipient.test'] });
    const email = await emailWhen(queued.id, 'sent', (e) => e.status === 'sent');
    // The relay took it: that is all a relay tells, so no `delivered` event.
    assert.deepEqual(
      email.recipients[0].events.map((e: any) => [e.type, e.smtpCode, e.mxHost]),
      [['sent', 250, relay.address]],
    );
    const [delivered] = await mx.waitForMessages(1);
    assert.match(
      delivered!.raw.toString('utf8'),
      new RegExp(`Received: from ${relay.hostname.replaceAll('.', '\\.')}`),
    );
    assertAuthenticated(await authenticated(delivered!.raw));
  });
});
