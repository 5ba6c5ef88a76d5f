/**
 * Sending from several server processes on one PostgreSQL database (issue 21): each recipient
 * gets each message once however many processes send, and a message accepted by a process
 * killed before sending it is sent after a restart (the queue is in the database). Real parts:
 * BIND for the customer's and the recipients' DNS, Postfix as the recipients' MX.
 *
 * Always on PostgreSQL (a private cluster): SQLite is one process.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import nodemailer from 'nodemailer';
import { type BindServer, startBind } from './test-support/bind.js';
import { type PostfixServer, startPostfix } from './test-support/postfix.js';
import { type PostgresServer, startPostgres } from './test-support/postgres.js';
import { callApi, runCli, serverFleet } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';

const DOMAIN = 'mail.sender.test';
let postgres: PostgresServer;
let bind: BindServer;
let mx: PostfixServer;
const fleet = serverFleet('sending-multi-', () => ({
  DNS_RESOLVERS: bind.address,
  STATUS_CHECK_MAX_AGE_MS: '0',
  SMTP_MX_PORT: String(mx.port),
  SMTP_ALLOW_PRIVATE_MX: 'true',
  SMTP_HELO_NAME: 'sender.test',
  SEND_INTERVAL_MS: '20',
  SEND_BATCH: '3',
  // A message sent before its domain's keys exist waits for them (DKIM_KEY_NOT_READY): briefly here.
  SEND_RETRY_BASE_MS: '200',
  SEND_RETRY_MAX_DELAY_MS: '400',
}));
const start = fleet.start;

before(async () => {
  [postgres, bind, mx] = await Promise.all([
    startPostgres(),
    startBind({ zones: ['sender.test', 'recipient.test'] }),
    startPostfix({ domains: ['recipient.test'] }),
  ]);
  await bind.addRecord('mx.recipient.test', 'A', mx.address);
  await bind.addRecord('recipient.test', 'MX', '10 mx.recipient.test.');
});
after(async () => {
  await fleet.stop();
  await Promise.all([postgres?.stop(), mx?.close(), bind?.close()]);
});

/** The API's `data`, or the array of envelopes the domain routes answer. */
async function call(url: string, key: string, method: string, route: string, body?: unknown) {
  const json = await callApi(url, key, method, route, body);
  return Array.isArray(json) ? json : json.data;
}

/** Each delivered copy as `message id → recipient`, one entry per Maildir file. */
async function deliveredCopies(): Promise<string[]> {
  return (await mx.messages()).map(
    (m) => `${/^Message-ID: (<[^>]+>)/im.exec(m.raw.toString('utf8'))?.[1]} → ${m.recipient}`,
  );
}

test('three processes send each message to each recipient once; a killed process’s queue is sent after restart', async () => {
  const env = { DATABASE_URL: await postgres.createDatabase() };
  const servers = await Promise.all([start(env), start(env), start(env)]);
  const key = (await runCli(['keys', 'create', '--name', 'send'], env)).stdout.trim().split('\n').at(-1)!;
  const [registered] = await call(servers[0]!.url, key, 'POST', '/api/public/domain', {
    domains: [{ domain: DOMAIN, domainType: 'Transactional' }],
  });
  for (const record of registered.data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  const [status] = await call(servers[1]!.url, key, 'POST', '/api/public/domain/status', {
    domains: [DOMAIN],
  });
  assert.equal(status.data.status, 'verified');

  // 12 messages of 2 recipients each, accepted by the three processes in turn: 24 copies.
  const ids = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const accepted = await call(servers[i % 3]!.url, key, 'POST', '/api/public/emails', {
        from: `news@${DOMAIN}`,
        to: [`a${i}@recipient.test`, `b${i}@recipient.test`],
        subject: `Message ${i}`,
        html: `<p>Number ${i}</p>`,
      });
      return accepted.id as string;
    }),
  );
  await waitUntil('24 copies', async () => (await mx.messages()).length >= 24 || undefined, {
    seen: async () => `${(await mx.messages()).length} copies`,
  });
  // The copies are at the MX before the senders have recorded their answers: wait for those
  // records, which end every claim (a loaded machine can take seconds over them).
  for (const id of ids) {
    const status = async () => (await call(servers[2]!.url, key, 'GET', `/api/public/emails/${id}`)).status;
    await waitUntil(`${id} recorded sent`, async () => (await status()) === 'sent', { seen: status });
  }
  // Time for any duplicate to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const copies = await deliveredCopies();
  assert.equal(copies.length, 24);
  assert.equal(new Set(copies).size, 24, 'each message once per recipient');

  // A process that accepts a message and dies before sending it: the next process sends it.
  for (const p of servers) p.child.kill('SIGKILL');
  await Promise.all(servers.map((p) => p.exited));
  const silent = await start({ ...env, SENDING_ENABLED: 'false' });
  const crash = await call(silent.url, key, 'POST', '/api/public/emails', {
    from: `news@${DOMAIN}`,
    to: ['crash@recipient.test'],
    subject: 'Accepted before the crash',
    html: '<p>Still here</p>',
  });
  silent.child.kill('SIGKILL');
  await silent.exited;
  assert.equal((await mx.messages()).length, 24);
  const restarted = await start(env);
  await waitUntil('the message after restart', async () => (await mx.messages()).length > 24 || undefined);
  const late = (await mx.messages()).at(-1)!;
  assert.equal(late.recipient, 'crash@recipient.test');
  assert.match(late.raw.toString('utf8'), new RegExp(`Message-ID: <${crash.id}@`));
  // the copy is at the MX before the sender has recorded its answer: wait for the record
  await waitUntil(
    `${crash.id} recorded sent`,
    async () => (await call(restarted.url, key, 'GET', `/api/public/emails/${crash.id}`)).status === 'sent',
    { seen: async () => (await call(restarted.url, key, 'GET', `/api/public/emails/${crash.id}`)).status },
  );
});

test('any process takes a bounce about any process’s message (issue 34)', async () => {
  const env = {
    DATABASE_URL: await postgres.createDatabase(),
    SMTP_LISTEN: '127.0.0.1:0',
    INBOUND_MX_HOST: 'inbound.sender.test',
  };
  const servers = await Promise.all([start(env), start(env), start(env)]);
  const inboundPort = (server: (typeof servers)[number]) => {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('"inbound SMTP listening"'));
    return Number(JSON.parse(line!).inbound.split(':').at(-1));
  };
  const key = (await runCli(['keys', 'create', '--name', 'bounce'], env)).stdout.trim().split('\n').at(-1)!;
  const domain = `rp.${DOMAIN}`;
  const [registered] = await call(servers[0]!.url, key, 'POST', '/api/public/domain', {
    domains: [{ domain, domainType: 'Transactional', returnPath: true }],
  });
  for (const record of registered.data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  const [status] = await call(servers[1]!.url, key, 'POST', '/api/public/domain/status', {
    domains: [domain],
  });
  assert.deepEqual([status.data.status, status.data.records[4].status], ['verified', 'verified']);

  const before = (await mx.messages()).length;
  const ids = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const accepted = await call(servers[i % 3]!.url, key, 'POST', '/api/public/emails', {
        from: `news@${domain}`,
        to: [`gone${i}@recipient.test`],
        subject: `Message ${i}`,
        html: `<p>Number ${i}</p>`,
      });
      return accepted.id as string;
    }),
  );
  const copies = await waitUntil('6 copies', async () => {
    const all = (await mx.messages()).slice(before);
    return all.length >= 6 ? all : undefined;
  });
  // Each bounce goes to a process other than the one that took the message.
  for (const [n, copy] of copies.entries()) {
    const text = copy.raw.toString('utf8');
    const verp = /^Return-Path: <([^>]+)>/m.exec(text)![1]!;
    const i = Number(/^Subject: Message (\d)/m.exec(text)![1]);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: inboundPort(servers[(i + 1 + (n % 2)) % 3]!),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      envelope: { from: '', to: [verp] },
      raw: `From: MAILER-DAEMON@mx.recipient.test\r\nTo: ${verp}\r\nSubject: failure notice\r\n\r\n<${copy.recipient}>: 550 5.1.1 no such user\r\n`,
    });
    transport.close();
  }
  for (const id of ids) {
    const email = await waitUntil(`${id} bounced`, async () => {
      const e = await call(servers[2]!.url, key, 'GET', `/api/public/emails/${id}`);
      return e.status === 'bounced' ? e : undefined;
    });
    assert.equal(email.recipients[0].events.at(-1).bounceType, 'hard');
  }
  const suppressed = await call(servers[0]!.url, key, 'GET', '/api/public/suppressions');
  assert.equal(suppressed.length, 6);
});

test('a scheduled message outlives the process that took it, and goes once at its time from three (issue 37)', async () => {
  const env = { DATABASE_URL: await postgres.createDatabase() };
  const silent = await start({ ...env, SENDING_ENABLED: 'false' });
  const key = (await runCli(['keys', 'create', '--name', 'later'], env)).stdout.trim().split('\n').at(-1)!;
  const domain = `later.${DOMAIN}`;
  const [registered] = await call(silent.url, key, 'POST', '/api/public/domain', {
    domains: [{ domain, domainType: 'Transactional' }],
  });
  for (const record of registered.data.records.filter((r: { type: string }) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  const [status] = await call(silent.url, key, 'POST', '/api/public/domain/status', { domains: [domain] });
  assert.equal(status.data.status, 'verified');

  // Accepted by a process that then dies: the schedule is in the database, not in the process.
  // 20 s ahead: on a loaded run (load average 10 on two cores) the batch's second message was
  // prepared more than 8 s after this line, past its time, and rightly queued rather than held.
  const at = new Date(Date.now() + 20_000).toISOString();
  const batch = await call(silent.url, key, 'POST', '/api/public/emails/batch', {
    emails: ['Later', 'Canceled'].map((subject) => ({
      from: `news@${domain}`,
      to: [`${subject.toLowerCase()}1@recipient.test`, `${subject.toLowerCase()}2@recipient.test`],
      subject,
      html: `<p>${subject}</p>`,
      scheduledAt: at,
    })),
  });
  const [later, canceled] = batch.map((e: { data: { id: string; status: string } }) => e.data);
  assert.deepEqual([later.status, canceled.status], ['scheduled', 'scheduled']);
  assert.equal(
    (await call(silent.url, key, 'POST', `/api/public/emails/${canceled.id}/cancel`)).status,
    'canceled',
  );
  silent.child.kill('SIGKILL');
  await silent.exited;

  const before = (await mx.messages()).length;
  const servers = await Promise.all([start(env), start(env), start(env)]);
  const copies = await waitUntil('2 copies', async () => {
    const all = (await mx.messages()).slice(before);
    return all.length >= 2 ? all : undefined;
  });
  // The copies reach the MX before the sender has recorded its answers (as above): a single
  // read 1.5 s later still found the message `sending` on a loaded machine. Wait for the record.
  const laterStatus = async () =>
    (await call(servers[0]!.url, key, 'GET', `/api/public/emails/${later.id}`)).status;
  await waitUntil(`${later.id} recorded sent`, async () => (await laterStatus()) === 'sent', {
    seen: laterStatus,
  });
  // Time for any duplicate, or the canceled message, to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const arrived = (await mx.messages()).slice(before);
  assert.deepEqual(arrived.map((m) => m.recipient).sort(), [
    'later1@recipient.test',
    'later2@recipient.test',
  ]);
  for (const copy of copies) {
    const date = /^Date: (.+)$/m.exec(copy.raw.toString('utf8'))![1]!.trim();
    assert.equal(Date.parse(date), Math.floor(Date.parse(at) / 1000) * 1000);
  }
  const sent = await call(servers[0]!.url, key, 'GET', `/api/public/emails/${later.id}`);
  assert.equal(sent.status, 'sent');
  for (const r of sent.recipients) assert.ok(Date.parse(r.events[0].at) >= Date.parse(at), r.events[0].at);
  assert.equal(
    (await call(servers[1]!.url, key, 'GET', `/api/public/emails/${canceled.id}`)).status,
    'canceled',
  );
});
