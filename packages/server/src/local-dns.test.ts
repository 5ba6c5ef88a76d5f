/**
 * The development local DNS (issue 40) through HTTP: a newcomer with no public DNS registers
 * `acme.test`, sees it pending with diagnostics, publishes its records in the local DNS, and
 * watches it verify through the real verification path (DNS queries over the wire to that
 * server), with `domain.verified` sent and mail from it judged by those records. Removing a
 * record makes it pending again with the reason. Production mode has none of it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from './config.js';
import { productionProblems } from './production.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from './test-support/webhook-receiver.js';

/**
 * `dig` against the local DNS: the answer section's records, one line each (`name ttl IN type
 * data`). Run asynchronously: the server answering is in this process.
 */
async function dig(server: string, name: string, type: string): Promise<string[]> {
  const [host, port] = server.split(':');
  const { stdout } = await promisify(execFile)(
    'dig',
    [`@${host}`, '-p', port!, '+norecurse', '+noall', '+answer', name, type],
    { encoding: 'utf8' },
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/\s+/g, ' '));
}

describe('the local DNS, in development', () => {
  let t: TestServer;
  let key: string;
  let receiver: WebhookReceiver;
  let secret: string;
  const status = async (domain: string) => {
    const res = await t.request('POST', '/api/public/domain/status', { key, body: { domains: [domain] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.contractProblems, []);
    return res.body[0].data;
  };

  before(async () => {
    t = await startTestServer({
      LOCAL_DNS_LISTEN: '127.0.0.1:0',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SEND_INTERVAL_MS: '50',
      // a send made before the domain's keys exist (seconds after its registration) goes again soon
      SEND_RETRY_BASE_MS: '100',
      // a removed record is pending at its next check, not 72 h later (the grace is tested elsewhere)
      VERIFY_GRACE_MS: '0',
      STATUS_CHECK_MAX_AGE_MS: '0',
      // the local DNS answers from this very process: on a loaded machine its answer can take
      // longer than the test server's 500 ms (made for resolvers that never answer)
      DNS_TIMEOUT_MS: '5000',
    });
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

  test('acme.test: pending with diagnostics, published, verified over the wire, then a record removed', async () => {
    const registered = await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'acme.test', domainType: 'Transactional' }] },
    });
    assert.equal(registered.status, 200);
    assert.equal(registered.body[0].status, 200, JSON.stringify(registered.body[0]));
    const records: { fqdn: string; type: string; value: string }[] = registered.body[0].data.records;
    assert.equal(records.length, 4);

    // before publishing: pending, each record saying why (nothing answers for acme.test)
    const before = await status('acme.test');
    assert.equal(before.status, 'pending');
    for (const record of before.records) {
      assert.equal(record.status, 'pending');
      assert.notEqual(record.reason, null, JSON.stringify(record));
    }

    const published = await t.request('POST', '/api/public/domain/local-dns', {
      key,
      body: { domain: 'acme.test' },
    });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    assert.deepEqual(published.contractProblems, []);
    const { server } = published.body.data;
    assert.match(server, /^127\.0\.0\.1:\d+$/);
    assert.deepEqual(
      published.body.data.records.map((r: any) => `${r.fqdn} ${r.type} ${r.value}`).sort(),
      records.map((r) => `${r.fqdn} ${r.type} ${r.type === 'TXT' ? r.value.slice(1, -1) : r.value}`).sort(),
    );

    // the local DNS answers the records over the wire, and the keys behind the DKIM CNAMEs
    const dkim = records.find((r) => r.type === 'CNAME')!;
    assert.deepEqual(await dig(server, dkim.fqdn, 'CNAME'), [`${dkim.fqdn}. 5 IN CNAME ${dkim.value}.`]);
    assert.deepEqual(await dig(server, '_dmarc.acme.test', 'TXT'), [
      '_dmarc.acme.test. 5 IN TXT "v=DMARC1; p=none;"',
    ]);
    // the key behind it, once made (in the background, seconds after the registration)
    const keyRecord = await waitUntil(
      'the DKIM key in the local DNS',
      async () => (await dig(server, dkim.value, 'TXT')).join('') || undefined,
    );
    assert.match(keyRecord, /TXT "v=DKIM1; k=rsa; p=MII/);
    assert.deepEqual(await dig(server, 'acme.test', 'NS'), ['acme.test. 5 IN NS ns.acme.test.']);
    assert.deepEqual(await dig(server, 'example.com', 'A'), [], 'a name outside every zone is refused');

    // a status poll checks (STATUS_CHECK_MAX_AGE_MS=0) and shows every record verified
    const verified = await status('acme.test');
    assert.equal(verified.status, 'verified');
    for (const record of verified.records) {
      assert.equal(record.status, 'verified', JSON.stringify(record));
      assert.equal(record.reason, null);
    }
    const events = await waitUntil('domain.verified', () =>
      verifiedEvents(receiver.received, secret)
        .map((e) => e.event)
        .find((e) => e.type === 'domain.verified' && e.data?.domain === 'acme.test'),
    );
    assert.equal(events.data.status, 'verified');

    // remove the DMARC record: the local DNS says no such name, and the record is pending with the reason
    const removed = await t.request('DELETE', '/api/public/domain/local-dns', {
      key,
      body: { domain: 'acme.test', names: ['_dmarc.acme.test'] },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.data.records.length, 3);
    assert.deepEqual(await dig(server, '_dmarc.acme.test', 'TXT'), []);
    const after = await status('acme.test');
    const dmarc = after.records.find((r: any) => r.type === 'TXT');
    assert.equal(dmarc.status, 'pending');
    assert.equal(dmarc.reason, 'not_found');
    assert.match(dmarc.detail, /_dmarc\.acme\.test/);
    assert.equal(after.status, 'verified', 'DMARC is independent of the domain status');

    // a domain verified this way rotates its keys as any other (once its keys are made)
    const rotated = await waitUntil('a rotation accepted', async () => {
      const res = await t.request('POST', '/api/public/domain/dkim/rotate', {
        key,
        body: { domain: 'acme.test' },
      });
      return res.status === 200 ? res : undefined;
    });
    assert.match(rotated.body.data.dkim.nextRotationAt, /^\d{4}-/);
  });

  test('mail from a domain verified in the local DNS is sent, and the capture inbox judges it by those records', async () => {
    await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'shop.test', domainType: 'Transactional' }] },
    });
    const published = await t.request('POST', '/api/public/domain/local-dns', {
      key,
      body: { domain: 'shop.test' },
    });
    assert.equal(published.body.data.status, 'verified', JSON.stringify(published.body));
    const sent = await t.request('POST', '/api/public/emails', {
      key,
      body: { from: 'Shop <hi@shop.test>', to: ['delivered@sandbox.test'], subject: 'Hi', html: '<p>Hi</p>' },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const id = sent.body.data.id;
    const captured = await waitUntil('the capture', async () => {
      const res = await t.request('GET', '/api/public/sandbox/messages', { key });
      return res.body.data.messages.find((m: any) => m.emailId === id);
    });
    const dkim = captured.authentication.dkim.find((d: any) => d.domain === 'shop.test');
    assert.equal(dkim?.result, 'pass', JSON.stringify(captured.authentication));
    assert.equal(dkim.aligned, true);
    assert.equal(captured.authentication.dmarc.result, 'pass', JSON.stringify(captured.authentication));
  });

  test('only .test domains of the account can be published', async () => {
    await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'mail.example.com', domainType: 'Transactional' }] },
    });
    const real = await t.request('POST', '/api/public/domain/local-dns', {
      key,
      body: { domain: 'mail.example.com' },
    });
    assert.equal(real.status, 400);
    assert.equal(real.body.error.code, 'LOCAL_DNS_NOT_TEST');
    assert.deepEqual(real.contractProblems, []);
    const { key: other } = await t.createKey();
    const foreign = await t.request('POST', '/api/public/domain/local-dns', {
      key: other,
      body: { domain: 'acme.test' },
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'LOCAL_DNS_DOMAIN_UNKNOWN');
  });
});

test('production mode: no local DNS, the routes refuse, .test names are asked of the ordinary resolvers', async () => {
  assert.equal(loadConfig({ NODE_ENV: 'production' }).localDns.listen, undefined);
  assert.ok(
    productionProblems(loadConfig({ NODE_ENV: 'production', LOCAL_DNS_LISTEN: '127.0.0.1:5354' })).some((p) =>
      p.startsWith('LOCAL_DNS_LISTEN'),
    ),
  );
  const t = await startTestServer({
    NODE_ENV: 'production',
    // unset, as a production deployment has it (test servers turn it off otherwise)
    LOCAL_DNS_LISTEN: '',
    SECRET_KEY: randomBytes(32).toString('base64'),
    DKIM_PROVIDER_HOST: 'mail-provider.example.com',
    PUBLIC_URL: 'https://api.example.com',
  });
  try {
    const { key } = await t.createKey();
    await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'acme.test', domainType: 'Transactional' }] },
    });
    const res = await t.request('POST', '/api/public/domain/local-dns', {
      key,
      body: { domain: 'acme.test' },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'LOCAL_DNS_OFF');
    assert.deepEqual(res.contractProblems, []);
    const polled = await t.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: ['acme.test'] },
    });
    const domain = polled.body[0].data;
    assert.equal(domain.status, 'pending');
    // asked of DNS_RESOLVERS (nothing listens there in tests), as any other name
    for (const record of domain.records) assert.equal(record.reason, 'dns_error', JSON.stringify(record));
  } finally {
    await t.close();
  }
});

test('LOCAL_DNS_LISTEN: 127.0.0.1:5354 by default outside production, off, or a loopback address only', () => {
  assert.deepEqual(loadConfig({}).localDns, { listen: { host: '127.0.0.1', port: 5354 }, defaulted: true });
  assert.deepEqual(loadConfig({ LOCAL_DNS_LISTEN: 'off' }).localDns, { listen: undefined, defaulted: false });
  assert.deepEqual(loadConfig({ LOCAL_DNS_LISTEN: '[::1]:5300' }).localDns, {
    listen: { host: '::1', port: 5300 },
    defaulted: false,
  });
  assert.throws(
    () => loadConfig({ LOCAL_DNS_LISTEN: '0.0.0.0:5354' }),
    /LOCAL_DNS_LISTEN must be a loopback address/,
  );
  assert.throws(() => loadConfig({ LOCAL_DNS_LISTEN: '127.0.0.1' }), /LOCAL_DNS_LISTEN must be ip:port/);
});
