/**
 * Tracking hosts (issue 37) through HTTP, real DNS and a real ACME authority: a registration
 * asked with `tracking` gets a CNAME from `track.<domain>` to the tracking listener's name,
 * verified like the other records; once it is, the listener (`TRACKING_LISTEN`) gets the host a
 * certificate from the authority (pebble, validating tls-alpn-01 against the listener) and
 * serves the tracking routes there, and nothing else. Marketing mail from the domain is composed
 * with its links and pixel on that host; Transactional mail only when a send asks.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connect, type PeerCertificate } from 'node:tls';
import { type BindServer, startBind } from './test-support/bind.js';
import { type PebbleServer, startPebble } from './test-support/pebble.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

const ZONE = 'tk.test';
const LISTENER = `listener.${ZONE}`;

let bind: BindServer;
let pebble: PebbleServer;
let t: TestServer;
let key: string;
let port: number;
let root: string;

/** A port free on loopback now, for a listener whose port pebble must know before it starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

before(async () => {
  bind = await startBind({ zones: [ZONE] });
  await bind.addRecord(LISTENER, 'A', '127.0.0.1');
  port = await freePort();
  pebble = await startPebble({ tlsPort: port, dnsServer: bind.address });
  root = await pebble.issuingRoot();
  const ca = path.join(tmpdir(), `pebble-ca-${process.pid}.pem`);
  writeFileSync(ca, pebble.serverCa);
  t = await startTestServer({
    DNS_RESOLVERS: bind.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    VERIFY_AUTHORITATIVE: 'false',
    TRACKING_LISTEN: `127.0.0.1:${port}`,
    TRACKING_CNAME_TARGET: LISTENER,
    ACME_DIRECTORY_URL: pebble.directoryUrl,
    ACME_CA_FILE: ca,
  });
  ({ key } = await t.createKey());
});
after(async () => {
  await t?.close();
  await pebble?.close();
  await bind?.close();
});

const register = async (domains: unknown[]) => {
  const res = await t.request('POST', '/api/public/domain', { key, body: { domains } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.contractProblems, []);
  return res.body as any[];
};
const status = async (domain: string) => {
  const res = await t.request('POST', '/api/public/domain/status', { key, body: { domains: [domain] } });
  assert.deepEqual(res.contractProblems, []);
  return res.body[0].data;
};
const publish = async (data: any) => {
  await t.server.dkim.generator.idle();
  for (const record of data.records) {
    if (record.type === 'CNAME') await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    else await bind.addRecord(record.fqdn, 'TXT', record.value.replace(/^"|"$/g, ''));
  }
};
const verified = (domain: string) =>
  waitUntil(`${domain} and its tracking record verified`, async () => {
    const data = await status(domain);
    return data.status === 'verified' && data.records.every((r: any) => r.status === 'verified')
      ? data
      : undefined;
  });

/** A TLS handshake for `servername` at the listener, trusting only pebble's issuing root. */
const handshake = (servername: string) =>
  new Promise<PeerCertificate>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, ca: root }, () => {
      const certificate = socket.getPeerCertificate();
      socket.end();
      resolve(certificate);
    });
    socket.on('error', reject);
  });

const get = (servername: string, route: string) =>
  new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, servername, path: route, ca: root, headers: { host: servername } },
      (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
      },
    );
    req.on('error', reject);
    req.end();
  });

test('tracking adds a CNAME to the listener’s name, with its own status; bad labels are refused', async () => {
  const [asked, labelled, clash, bad] = await register([
    { domain: `news.${ZONE}`, domainType: 'Marketing', tracking: true },
    { domain: `shop.${ZONE}`, domainType: 'Transactional', tracking: 'Links', returnPath: true },
    { domain: `same.${ZONE}`, domainType: 'Marketing', tracking: 'rp', returnPath: 'rp' },
    { domain: `bad.${ZONE}`, domainType: 'Marketing', tracking: 'two.labels' },
  ]);
  const record = asked.data.records.at(-1);
  assert.equal(asked.data.records.length, 5);
  assert.deepEqual(
    [record.name, record.type, record.value, record.status, record.fqdn],
    ['track.news', 'CNAME', LISTENER, 'pending', `track.news.${ZONE}`],
  );
  assert.deepEqual(
    labelled.data.records.slice(4).map((r: any) => r.fqdn),
    [`bounces.shop.${ZONE}`, `links.shop.${ZONE}`],
  );
  assert.equal(clash.error.code, 'TRACKING_INVALID');
  assert.match(clash.error.message, /different labels/);
  assert.equal(bad.error.code, 'TRACKING_INVALID');
});

test('once verified, the host gets a certificate from the authority and serves the tracking routes only', async () => {
  await publish(await status(`news.${ZONE}`));
  await verified(`news.${ZONE}`);
  const host = `track.news.${ZONE}`;
  const certificate = await handshake(host);
  assert.match(certificate.subjectaltname ?? '', new RegExp(`DNS:${host.replace(/\./g, '\\.')}`));
  const pixel = await get(host, '/t/o/rcp_aaaaaaaaaaaaaaaaaaaa.bm90LWEtdG9rZW4');
  assert.deepEqual(
    [pixel.status, pixel.type],
    [404, 'image/gif'],
    'a token that is not ours: 404, still a GIF',
  );
  const link = await get(host, `/t/c/x/${Buffer.from('https://example.com/').toString('base64url')}`);
  assert.equal(link.status, 404);
  const api = await get(host, '/api/public/domains');
  assert.equal(api.status, 404, 'the API is never served on a customer’s host');
  assert.doesNotMatch(api.body, /AUTH_/);
  // a host that is not a verified tracking host gets no certificate: the handshake fails
  await assert.rejects(handshake(`track.unknown.${ZONE}`));
  await assert.rejects(handshake(LISTENER));
  assert.equal(pebble.requests('POST', '/order-plz'), 1, 'one order, for the verified host only');
});

test('Marketing mail is composed with its links and pixel on the tracking host; a send can turn it off', async () => {
  const send = async (extra: Record<string, unknown>) => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: {
        from: `News <hi@news.${ZONE}>`,
        // the capture inbox keeps the copy as it left, the recipient's tokens in it (the
        // content API shows the message as written, without tracking)
        to: ['delivered@sandbox.test'],
        subject: 'This week',
        html: '<p><a href="https://example.org/post">Read</a></p>',
        ...extra,
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const id = res.body.data.id;
    const email = await waitUntil(`${id} sent`, async () => {
      const one = await t.request('GET', `/api/public/emails/${id}`, { key });
      return one.body.data.status === 'sent' ? one : undefined;
    });
    assert.deepEqual(email.contractProblems, []);
    const inbox = await t.request('GET', '/api/public/sandbox/messages', { key });
    const listed = inbox.body.data.messages.find((m: { emailId: string }) => m.emailId === id);
    assert.ok(listed, JSON.stringify(inbox.body));
    const copy = await t.request('GET', `/api/public/sandbox/messages/${listed.id}`, { key });
    return { tracking: email.body.data.tracking, html: copy.body.data.html as string };
  };
  const tracked = await send({});
  assert.deepEqual(tracked.tracking, { opens: true, clicks: true });
  assert.match(
    tracked.html,
    new RegExp(
      `href="https://track\\.news\\.tk\\.test/t/c/[^"]+/${Buffer.from('https://example.org/post').toString('base64url')}"`,
    ),
  );
  assert.match(tracked.html, /<img src="https:\/\/track\.news\.tk\.test\/t\/o\//);
  const untracked = await send({ tracking: { opens: false, clicks: false } });
  assert.deepEqual(untracked.tracking, { opens: false, clicks: false });
  assert.match(untracked.html, /href="https:\/\/example\.org\/post"/);
  const linksOnly = await send({ tracking: { opens: false } });
  assert.deepEqual(linksOnly.tracking, { opens: false, clicks: true });
  assert.doesNotMatch(linksOnly.html, /\/t\/o\//);
});
