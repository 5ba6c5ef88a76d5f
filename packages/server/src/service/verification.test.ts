/**
 * Verification against a real DNS server: BIND 9 on a loopback port holds the customer's
 * zones, and records are published with signed RFC 2136 updates (nsupdate), as a customer
 * would at their DNS provider. No mock resolver.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dkimKeyRecord, txtStrings } from '../dns/key-record.js';
import type { StoredDomain } from '../domain/model.js';
import { newToken } from '../domain/token.js';
import { VerificationScheduler } from '../jobs/verification-scheduler.js';
import { openStore } from '../store/open.js';
import { VerificationStore } from '../store/verification-store.js';
import { type BindServer, startBind } from '../test-support/bind.js';
import { startTestServer, type TestServer, testDatabaseUrl } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import { createResolver } from '../verify/resolver.js';
import { VerificationService } from './verification-service.js';

let bind: BindServer;
const servers: TestServer[] = [];

before(async () => {
  bind = await startBind({ zones: ['example.test', 'xn--bcher-kva.test', 'inherit.test'] });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await bind.close();
});

/**
 * A server checking DNS against the test BIND; by default every status poll re-checks, and
 * answers from that check: with the default 2 s wait, a check slowed past it on a loaded run
 * (5 files on 2 cores) is answered from before it (still `pending`, or the old `lastCheckedAt`).
 */
async function serverFor(env: Record<string, string> = {}) {
  const t = await startTestServer({
    DNS_RESOLVERS: bind.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    STATUS_CHECK_WAIT_MS: '30000',
    ...env,
  });
  servers.push(t);
  const { key } = await t.createKey();
  const call = async (path: string, body: unknown) => {
    const res = await t.request('POST', path, { key, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    return res.body;
  };
  return {
    t,
    key,
    /**
     * Registers the domain and waits for the check the registration starts: a status poll
     * joins a check in flight, so one started before a test publishes a record would answer
     * from before it. Without the scheduler a registration starts no check.
     */
    register: async (domain: string) => {
      const [registered] = await call('/api/public/domain', {
        domains: [{ domain, domainType: 'Transactional' }],
      });
      if (env.SCHEDULER_ENABLED !== 'false') await call('/api/public/domain/status', { domains: [domain] });
      return registered.data;
    },
    status: async (domain: string) =>
      (await call('/api/public/domain/status', { domains: [domain] }))[0].data,
    history: async (domain: string) =>
      (await call('/api/public/domain/history', { domains: [domain] }))[0].data.events,
  };
}

/**
 * The verification store and service on the test backend, with no HTTP in front, asking the
 * test BIND, and an account to register domains in; `close` removes it all.
 */
async function storeWorld(now?: () => number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'verify-store-'));
  const store = await openStore({ dataDir, databaseUrl: await testDatabaseUrl() });
  const verificationStore = new VerificationStore(store.db, store.kind, store.domainCache);
  const service = new VerificationService({
    store: verificationStore,
    // two tries, not one: on a loaded run (5 files on 2 cores) a query slowed past 2 s gets a
    // second chance instead of ending as a dns_error
    resolve: createResolver({ servers: [bind.address], timeoutMs: 2000, tries: 2, concurrency: 8 }),
    settings: { providerHost: 'provider.test', graceMs: 72 * 3600_000, leaseMs: 60_000 },
    ...(now && { now }),
  });
  const { accountId } = await store.createApiKey({
    name: 'verification',
    keyHash: newToken(),
    keyPrefix: 'sk_test',
    scopes: ['*'],
  });
  const close = async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { store, verificationStore, service, accountId, close };
}

const publish = (record: { fqdn: string; value: string }) =>
  bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
const statuses = (data: { status: string; records: { status: string }[] }) => [
  data.status,
  ...data.records.map((r) => r.status),
];

describe('verification over the wire', () => {
  test('pending → verified as the records appear, each record moving on its own', async () => {
    const api = await serverFor();
    const registered = await api.register('shop.example.test');
    const [a, b, c, dmarc] = registered.records;

    let now = await api.status('shop.example.test');
    assert.deepEqual(statuses(now), ['pending', 'pending', 'pending', 'pending', 'pending']);
    assert.deepEqual(
      now.records.map((r: { reason: string }) => r.reason),
      ['not_found', 'not_found', 'not_found', 'not_found'],
    );
    assert.ok(now.records.every((r: { lastCheckedAt: string | null }) => r.lastCheckedAt !== null));
    assert.match(now.records[0].detail, /add a CNAME to/);

    await publish(a);
    now = await api.status('shop.example.test');
    assert.deepEqual(statuses(now), ['pending', 'verified', 'pending', 'pending', 'pending']);
    assert.equal(now.records[0].reason, null);

    await publish(b);
    await publish(c);
    now = await api.status('shop.example.test');
    // The spec's own example: a verified domain whose DMARC record is still pending.
    assert.deepEqual(statuses(now), ['verified', 'verified', 'verified', 'verified', 'pending']);

    await bind.addRecord(dmarc.fqdn, 'TXT', 'v=DMARC1; p=quarantine; rua=mailto:dmarc@example.test');
    now = await api.status('shop.example.test');
    assert.deepEqual(statuses(now), ['verified', 'verified', 'verified', 'verified', 'verified']);

    // Newest first; within one check the domain's own change, then its records in order.
    const events = await api.history('shop.example.test');
    assert.deepEqual(
      events.map((e: { record: string | null; from: string; to: string }) => [e.record, e.from, e.to]),
      [
        [dmarc.fqdn, 'pending', 'verified'],
        [null, 'pending', 'verified'],
        [b.fqdn, 'pending', 'verified'],
        [c.fqdn, 'pending', 'verified'],
        [a.fqdn, 'pending', 'verified'],
      ],
    );
  });

  test('a wrong target and a wrong type are reported with what DNS holds', async () => {
    const api = await serverFor();
    const { records } = await api.register('wrong.example.test');
    await bind.addRecord(records[0].fqdn, 'CNAME', 'somewhere-else.example.net.');
    await bind.addRecord(records[1].fqdn, 'TXT', 'v=DKIM1; k=rsa; p=MIIBIjANBgkq');
    const now = await api.status('wrong.example.test');
    assert.deepEqual(
      [now.records[0].status, now.records[0].reason, now.records[0].found],
      ['pending', 'wrong_value', 'somewhere-else.example.net'],
    );
    assert.match(now.records[0].detail, new RegExp(`must point to ${records[0].value}`));
    assert.deepEqual(
      [now.records[1].reason, now.records[1].found],
      ['wrong_type', 'TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkq"'],
    );
    assert.equal(now.records[2].reason, 'not_found');
  });

  test('DMARC: valid, invalid, duplicated and missing', async () => {
    const api = await serverFor();
    const { records } = await api.register('policy.example.test');
    const dmarc = records[3].fqdn;
    const dmarcOf = async () => (await api.status('policy.example.test')).records[3];

    assert.equal((await dmarcOf()).reason, 'not_found');
    await bind.addRecord(dmarc, 'TXT', 'v=DMARC1; p=sometimes');
    let record = await dmarcOf();
    assert.deepEqual(
      [record.status, record.reason, record.found],
      ['pending', 'wrong_value', 'v=DMARC1; p=sometimes'],
    );
    assert.match(record.detail, /p=sometimes/);

    await bind.deleteRecords(dmarc, 'TXT');
    // A long record published as several strings is joined before parsing.
    await bind.addRecord(dmarc, 'TXT', [
      'v=DMARC1; p=reject; ',
      `rua=mailto:${'r'.repeat(200)}@example.test`,
    ]);
    record = await dmarcOf();
    assert.deepEqual([record.status, record.reason], ['verified', null]);

    await bind.addRecord(dmarc, 'TXT', 'v=DMARC1; p=none');
    record = await dmarcOf();
    assert.deepEqual(
      [record.status, record.reason],
      ['verified', 'wrong_value'],
      'two policies: invalid, but verified stays within grace',
    );
    assert.match(record.detail, /2 DMARC records/);
  });

  test('DMARC: a subdomain without a record takes its organisational domain’s policy, as receivers do', async () => {
    const api = await serverFor();
    const { records } = await api.register('mail.inherit.test');
    const dmarcOf = async () => (await api.status('mail.inherit.test')).records[3];
    assert.equal((await dmarcOf()).reason, 'not_found', 'nothing anywhere yet: add the record shown');

    await bind.addRecord('_dmarc.inherit.test', 'TXT', 'v=DMARC1; p=reject');
    let record = await dmarcOf();
    // verified through the parent's p=reject: nobody is told to add a weaker p=none
    assert.deepEqual([record.status, record.reason, record.found], ['verified', null, 'v=DMARC1; p=reject']);
    assert.equal(
      record.detail,
      'no DMARC record at _dmarc.mail.inherit.test; receivers apply the policy of _dmarc.inherit.test (p=reject), which counts',
    );

    // one pasted with its quotation marks is no DMARC record to receivers: they still apply the
    // parent's, and the note names the mistake
    await bind.addRecord(records[3].fqdn, 'TXT', '"v=DMARC1; p=none;"');
    record = await dmarcOf();
    assert.equal(record.status, 'verified');
    assert.match(
      record.detail,
      /remove the quotation marks .*; receivers apply the policy of _dmarc\.inherit\.test/,
    );

    // Regression (issue 36): the parent's sp= is what a subdomain gets, and the note says so
    await bind.deleteRecords(records[3].fqdn, 'TXT');
    await bind.deleteRecords('_dmarc.inherit.test', 'TXT');
    await bind.addRecord('_dmarc.inherit.test', 'TXT', 'v=DMARC1; p=reject; sp=none');
    record = await dmarcOf();
    assert.equal(
      record.detail,
      'no DMARC record at _dmarc.mail.inherit.test; receivers apply the subdomain policy of _dmarc.inherit.test (sp=none), which counts',
    );

    // a record of its own wins, even a weaker one: it is the policy in force
    await bind.addRecord(records[3].fqdn, 'TXT', 'v=DMARC1; p=none;');
    record = await dmarcOf();
    assert.deepEqual([record.status, record.found, record.detail], ['verified', null, null]);

    // Regression (issue 36): reports sent to a domain that does not take them (RFC 7489 §7.1)
    await bind.deleteRecords(records[3].fqdn, 'TXT');
    await bind.addRecord(records[3].fqdn, 'TXT', 'v=DMARC1; p=none; rua=mailto:dmarc@example.test');
    record = await dmarcOf();
    assert.deepEqual(
      [record.status, record.detail],
      [
        'verified',
        'rua: example.test publishes no mail.inherit.test._report._dmarc.example.test record (RFC 7489 §7.1), so receivers send it no reports',
      ],
    );
    await bind.addRecord('mail.inherit.test._report._dmarc.example.test', 'TXT', 'v=DMARC1');
    record = await dmarcOf();
    assert.deepEqual([record.status, record.detail], ['verified', null]);
  });

  test('a record entered with the zone doubled (a provider appending it to a pasted full name) is named', async () => {
    const api = await serverFor();
    const { records } = await api.register('doubled.example.test');
    await bind.addRecord(`${records[0].fqdn}.example.test`, 'CNAME', `${records[0].value}.`);
    const record = (await api.status('doubled.example.test')).records[0];
    assert.equal(record.reason, 'not_found');
    assert.equal(record.found, `${records[0].fqdn}.example.test CNAME ${records[0].value}`);
    assert.match(record.detail, /your DNS provider added example\.test to the name entered/);
  });

  test('a record on the parent domain instead of the subdomain is named', async () => {
    const api = await serverFor();
    const { records } = await api.register('sub.parent.example.test');
    // the customer put the CNAME at <token>._domainkey.example.test, the registrable domain
    const atParent = records[0].fqdn.replace('.sub.parent.example.test', '.example.test');
    await bind.addRecord(atParent, 'CNAME', `${records[0].value}.`);
    const record = (await api.status('sub.parent.example.test')).records[0];
    assert.equal(record.reason, 'not_found');
    assert.match(record.detail, /it is on example\.test instead of sub\.parent\.example\.test; add it at /);
  });

  test('DMARC spelled v=dmarc1 is named; a report address without mailto: verifies with a warning', async () => {
    const api = await serverFor();
    const { records } = await api.register('spelling.example.test');
    await bind.addRecord(records[3].fqdn, 'TXT', 'v=dmarc1; p=none');
    let record = (await api.status('spelling.example.test')).records[3];
    assert.deepEqual([record.status, record.reason], ['pending', 'wrong_value']);
    assert.match(record.detail, /v=DMARC1 in capitals/);
    await bind.deleteRecords(records[3].fqdn, 'TXT');
    await bind.addRecord(records[3].fqdn, 'TXT', 'v=DMARC1; p=quarantine; rua=dmarc@spelling.example.test');
    record = (await api.status('spelling.example.test')).records[3];
    assert.deepEqual([record.status, record.reason], ['verified', null]);
    assert.match(record.detail, /^rua: .*no reports will arrive$/);
  });

  test('a proxied record (addresses where the CNAME belongs) is named, with what to switch off', async () => {
    const api = await serverFor();
    const { records } = await api.register('proxied.example.test');
    await bind.addRecord(records[0].fqdn, 'A', '192.0.2.10');
    const record = (await api.status('proxied.example.test')).records[0];
    assert.deepEqual([record.reason, record.found], ['wrong_type', 'A/AAAA 192.0.2.10']);
    assert.match(record.detail, /set it to DNS only/);
  });

  test('a CNAME through the customer’s own alias to our target verifies, saying so', async () => {
    const api = await serverFor();
    const { records } = await api.register('chain.example.test');
    await bind.addRecord(records[0].fqdn, 'CNAME', 'dkim-alias.chain.example.test.');
    await bind.addRecord('dkim-alias.chain.example.test', 'CNAME', `${records[0].value}.`);
    const record = (await api.status('chain.example.test')).records[0];
    assert.deepEqual([record.status, record.reason], ['verified', null]);
    assert.equal(record.found, `dkim-alias.chain.example.test → ${records[0].value}`);
    assert.match(record.detail, /reaches .* through 1 more name; receivers follow it/);
  });

  test('a provider that flattens the CNAME (our key answered at the name) verifies, saying so; another key does not', async () => {
    const api = await serverFor();
    const { records } = await api.register('flat.example.test');
    const token = records[0].record;
    await api.t.server.dkim.generator.idle(); // however long a loaded machine takes
    const key = await api.t.server.dkim.keys.findKey(token);
    assert.ok(key, 'the key exists once generation is idle');
    await bind.addRecord(records[0].fqdn, 'TXT', txtStrings(dkimKeyRecord(key.publicKey)));
    await bind.addRecord(
      records[1].fqdn,
      'TXT',
      txtStrings(dkimKeyRecord('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAother')),
    );
    const [flat, other] = (await api.status('flat.example.test')).records;
    assert.deepEqual([flat.status, flat.reason], ['verified', null]);
    assert.match(flat.detail, /answers our key itself instead of a CNAME .*flattens the CNAME/);
    assert.deepEqual([other.status, other.reason], ['pending', 'wrong_type']);
  });

  test('a verified domain whose records vanish stays verified through the grace period, then goes pending', async () => {
    const api = await serverFor({ VERIFY_GRACE_MS: '1500' });
    const { records } = await api.register('vanish.example.test');
    for (const record of records.slice(0, 3)) await publish(record);
    assert.equal((await api.status('vanish.example.test')).status, 'verified');

    await bind.deleteRecords(records[0].fqdn);
    let now = await api.status('vanish.example.test');
    assert.deepEqual(
      [now.status, now.records[0].status, now.records[0].reason],
      ['verified', 'verified', 'not_found'],
    );
    assert.match(now.records[0].detail, /grace period/);

    await new Promise((resolve) => setTimeout(resolve, 1600));
    now = await api.status('vanish.example.test');
    assert.deepEqual(
      [now.status, now.records[0].status, now.records[1].status],
      ['pending', 'pending', 'verified'],
    );
    const [latest] = await api.history('vanish.example.test');
    assert.deepEqual([latest.record, latest.from, latest.to], [null, 'verified', 'pending']);
  });

  test('with BIND stopped statuses hold (dns_error), and recover when it returns', async () => {
    // The service's own DNS timeout (2 s, 2 tries): a stopped BIND on loopback is refused at
    // once (ICMP port unreachable), so the outage costs no timeouts; a 300 ms timeout with one
    // try fails the `verified` and `recovered` checks whenever one answer comes late on a
    // loaded run.
    const api = await serverFor();
    const { records } = await api.register('outage.example.test');
    for (const record of records.slice(0, 2)) await publish(record);
    assert.deepEqual(statuses(await api.status('outage.example.test')), [
      'pending',
      'verified',
      'verified',
      'pending',
      'pending',
    ]);

    await bind.stop();
    try {
      const during = await api.status('outage.example.test');
      assert.deepEqual(statuses(during), ['pending', 'verified', 'verified', 'pending', 'pending']);
      assert.deepEqual(
        during.records.map((r: { reason: string }) => r.reason),
        ['dns_error', 'dns_error', 'dns_error', 'dns_error'],
      );
    } finally {
      await bind.start();
    }
    await publish(records[2]);
    const recovered = await api.status('outage.example.test');
    assert.deepEqual(statuses(recovered), ['verified', 'verified', 'verified', 'verified', 'pending']);
    assert.deepEqual(
      recovered.records.slice(0, 3).map((r: { reason: string | null }) => r.reason),
      [null, null, null],
    );
  });

  test('IDN and subdomain names verify in their own zones', async () => {
    const api = await serverFor();
    const idn = await api.register('Bücher.test');
    assert.equal(idn.domain, 'xn--bcher-kva.test');
    // an apex: the name is relative to the domain itself, the zone its owner edits
    assert.match(idn.records[0].name, /^[a-z2-7]{32}\._domainkey$/);
    assert.equal(idn.records[0].zone, 'xn--bcher-kva.test');
    const deep = await api.register('mail.eu.example.test');
    assert.deepEqual([deep.records[3].name, deep.records[3].zone], ['_dmarc.mail.eu', 'example.test']);
    assert.equal(deep.records[3].fqdn, '_dmarc.mail.eu.example.test');
    for (const record of [...idn.records.slice(0, 3), ...deep.records.slice(0, 3)]) await publish(record);
    assert.equal((await api.status('bücher.test')).status, 'verified');
    assert.equal((await api.status('mail.eu.example.test')).status, 'verified');
  });
});

describe('scheduling', () => {
  test('the scheduler checks a new registration at once, then backs off by minutes', async () => {
    const api = await serverFor({ STATUS_CHECK_MAX_AGE_MS: '3600000', SCHEDULER_INTERVAL_MS: '100' });
    const registered = await api.register('early.example.test');
    assert.equal(registered.lastCheckedAt, null);
    // Only the listing is read here, and listing never triggers a check. Waited for up to
    // waitUntil's 60 s, not 10 s: the scheduler's first check only comes late on a loaded run.
    let listed: any;
    await waitUntil(
      'the scheduler to check the registration without being asked',
      async () => {
        const res = await api.t.request('GET', '/api/public/domain', { key: api.key });
        listed = res.body.data.domains.find((d: { domain: string }) => d.domain === 'early.example.test');
        return listed.lastCheckedAt !== null;
      },
      { seen: () => listed },
    );
    assert.notEqual(listed.lastCheckedAt, null, 'checked without being asked');
    assert.deepEqual(
      listed.records.map((r: { reason: string }) => r.reason),
      ['not_found', 'not_found', 'not_found', 'not_found'],
    );
    // A registration's nextCheckAt is its registration time (due at once).
    const gap = Date.parse(listed.nextCheckAt) - Date.parse(registered.nextCheckAt);
    assert.equal(gap, 60_000, 'the next check comes a minute after registering');
  });

  test('regression: status polls checking every time keep the next check a minute after registering', async () => {
    const api = await serverFor({ SCHEDULER_ENABLED: 'false' });
    const registered = await api.register('polled.example.test');
    const minuteAfter = Date.parse(registered.nextCheckAt) + 60_000;
    let lastCheckedAt: string | null = null;
    for (let poll = 0; poll < 8; poll++) {
      const now = await api.status('polled.example.test');
      assert.notEqual(now.lastCheckedAt, lastCheckedAt, 'every poll checks');
      lastCheckedAt = now.lastCheckedAt;
      assert.equal(Date.parse(now.nextCheckAt), minuteAfter, `after poll ${poll + 1}`);
    }
  });

  test('regression: with a status poll every 5 s, the scheduler still checks at 1, 2 and 5 minutes', async () => {
    // The service and the scheduler's claims on the test backend, with a clock the test moves.
    const clock = { now: Date.parse('2026-11-22T12:00:00Z') };
    const { store, verificationStore, service, accountId, close } = await storeWorld(() => clock.now);
    try {
      const registeredAt = clock.now;
      const [outcome] = await store.registerDomains(
        accountId,
        [{ name: 'polled-often.example.test', type: 'Transactional' }],
        { maxDomains: 10, now: registeredAt, newToken },
      );
      assert.ok(outcome?.ok);
      let domain = outcome.domain;
      const scheduledAt: number[] = [];
      for (let second = 5; second <= 6 * 60; second += 5) {
        clock.now = registeredAt + second * 1000;
        // A scheduler tick, then (if it found nothing due) a poll whose last check is 5 s old.
        const due = await verificationStore.claimDue(clock.now, 10, 60_000);
        if (due.length > 0) {
          scheduledAt.push(second);
          await service.checkClaimed(due[0]!);
        } else {
          // waiting up to 30 s for the poll's check, not 2 s: on a loaded run a check past the
          // wait can finish after the read below
          await service.refresh([domain], 4_000, 30_000);
        }
        domain = (await verificationStore.load(domain.id))!;
        assert.equal(domain.lastCheckedAt, clock.now, `checked ${second} s after registering`);
      }
      assert.deepEqual(scheduledAt, [5, 60, 120, 300], 'at once, then 1, 2 and 5 minutes after registering');
      assert.equal(domain.nextCheckAt, registeredAt + 10 * 60_000);
      assert.equal(domain.checkCount, 72);
    } finally {
      await close();
    }
  });

  test('a slow check does not hold back the next claims: the scheduler claims again once half its batch is done', async () => {
    const { store, verificationStore, service, accountId, close } = await storeWorld();
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    let scheduler: VerificationScheduler | undefined;
    try {
      // the slow one is registered first, so the first claim holds it
      const names = ['slow.example.test', ...Array.from({ length: 20 }, (_, i) => `quick${i}.example.test`)];
      const now = Date.now();
      for (const [i, name] of names.entries())
        await store.registerDomains(accountId, [{ name, type: 'Transactional' }], {
          maxDomains: 100,
          now: now + i,
          newToken,
        });
      const checked: string[] = [];
      scheduler = new VerificationScheduler({
        store: verificationStore,
        // the slow domain's check waits at a gate, as a check waits for a server that never answers
        service: {
          checkClaimed: async (domain: StoredDomain) => {
            if (domain.name === 'slow.example.test') await slowGate;
            const after = await service.checkClaimed(domain);
            checked.push(domain.name);
            return after;
          },
        } as VerificationService,
        intervalMs: 50,
        batchSize: 4,
        leaseMs: 60_000,
      });
      scheduler.start();
      const deadline = Date.now() + 60_000;
      while (checked.length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(
        [...checked].sort(),
        names.slice(1).sort(),
        'every quick domain checked while the slow one waits (a batch waited for as a whole held them back)',
      );
      releaseSlow();
      while (!checked.includes('slow.example.test') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(checked.at(-1), 'slow.example.test');
    } finally {
      releaseSlow();
      await scheduler?.stop();
      await close();
    }
  });

  test('concurrent status polls of one domain share one check', async () => {
    const api = await serverFor({ SCHEDULER_ENABLED: 'false', STATUS_CHECK_MAX_AGE_MS: '60000' });
    const { records } = await api.register('busy.example.test');
    await publish(records[0]);
    const polls = await Promise.all(Array.from({ length: 10 }, () => api.status('busy.example.test')));
    const checkedAt = new Set(polls.map((p) => p.lastCheckedAt));
    assert.equal(checkedAt.size, 1, 'every poll saw the same single check');
    assert.notEqual([...checkedAt][0], null);
    for (const poll of polls) assert.equal(poll.records[0].status, 'verified');
    const later = await api.status('busy.example.test');
    assert.equal(later.lastCheckedAt, [...checkedAt][0], 'a poll within the max age reuses it');
  });

  test('a verified domain is re-checked daily', async () => {
    // Without the scheduler: its first check, started at registration, could still be running
    // when the records are published, and the status poll would join it (pending).
    const api = await serverFor({ SCHEDULER_ENABLED: 'false' });
    const { records } = await api.register('daily.example.test');
    for (const record of records.slice(0, 3)) await publish(record);
    const now = await api.status('daily.example.test');
    assert.equal(now.status, 'verified');
    const gap = Date.parse(now.nextCheckAt) - Date.parse(now.lastCheckedAt);
    assert.equal(gap, 24 * 3600_000);
  });
});

describe('checks racing other writes', () => {
  test('a status poll that joins a running check answers the type set meanwhile', async () => {
    // A DNS server that never answers keeps the check running for DNS_TIMEOUT_MS.
    const blackhole = createSocket('udp4');
    let asked = 0;
    blackhole.on('message', () => asked++);
    await new Promise<void>((resolve) => blackhole.bind(0, '127.0.0.1', resolve));
    try {
      const api = await serverFor({
        DNS_RESOLVERS: `127.0.0.1:${blackhole.address().port}`,
        DNS_TIMEOUT_MS: '800',
        DNS_TRIES: '1',
        // The wait covers the whole check (several 800 ms timeouts in turn, ~3 s, slowed 3–7x
        // on a loaded run), so both polls answer from it: a loaded run can pass 5 s.
        STATUS_CHECK_WAIT_MS: '30000',
        SCHEDULER_ENABLED: 'false',
      });
      await api.register('retyped.example.test'); // its zone lookup asks DNS too
      const askedBefore = asked;
      const first = api.status('retyped.example.test'); // starts a check that hangs on DNS
      // The check is under way once it asks DNS (a fixed 100 ms sleep could end, on a loaded
      // run, before the server had even read the first poll).
      await waitUntil('the check to ask DNS', () => asked > askedBefore);
      const retyped = await api.t.request('POST', '/api/public/domain', {
        key: api.key,
        body: { domains: [{ domain: 'retyped.example.test', domainType: 'Marketing' }] },
      });
      assert.equal(retyped.body[0].data.type, 'Marketing');
      const second = await api.status('retyped.example.test'); // joins the same check
      await first;
      assert.equal(second.type, 'Marketing');
      assert.equal(second.records[0].reason, 'dns_error');
    } finally {
      blackhole.close();
    }
  });

  test('checks finishing together are all stored, and every other write still waits for the disk after them', async () => {
    const { store, verificationStore, service, accountId, close } = await storeWorld();
    try {
      const durability = async () =>
        store.kind === 'sqlite'
          ? (await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db)).rows[0]?.synchronous
          : (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(store.db)).rows[0]
              ?.synchronous_commit;
      const before = await durability();
      const names = Array.from({ length: 40 }, (_, i) => `group${i}.example.test`);
      await store.registerDomains(
        accountId,
        names.map((name) => ({ name, type: 'Transactional' as const })),
        { maxDomains: 100, now: Date.now(), newToken },
      );
      const due = await verificationStore.claimDue(Date.now() + 1000, 100, 60_000);
      assert.equal(due.length, names.length);
      const checked = await Promise.all(due.map((domain) => service.checkClaimed(domain)));
      for (const domain of checked) {
        const stored = (await verificationStore.load(domain.id))!;
        assert.equal(stored.checkCount, 1, domain.name);
        assert.equal(stored.lastCheckedAt, domain.lastCheckedAt, domain.name);
        assert.deepEqual(
          stored.records.map((r) => r.reason),
          domain.records.map((r) => r.reason),
        );
      }
      // check results skip the fsync; registrations and every other write must not
      if (store.kind === 'sqlite') assert.equal(before, 2, 'synchronous = FULL');
      assert.equal(await durability(), before, 'the durability setting is back as it was');
    } finally {
      await close();
    }
  });

  test('domains deleted while their checks run stay deleted, and no request fails', async () => {
    const api = await serverFor({ SCHEDULER_INTERVAL_MS: '20' });
    const names = Array.from({ length: 30 }, (_, i) => `race${i}.example.test`);
    await Promise.all(
      names.map(async (name) => {
        await api.register(name);
        const [polled, deleted] = await Promise.all([
          api.t.request('POST', '/api/public/domain/status', { key: api.key, body: { domains: [name] } }),
          api.t.request('DELETE', '/api/public/domain', { key: api.key, body: { domains: [name] } }),
        ]);
        assert.equal(polled.status, 200, JSON.stringify(polled.body));
        assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
        assert.equal(deleted.body[0].status, 200);
      }),
    );
    const after = await api.t.request('POST', '/api/public/domain/status', {
      key: api.key,
      body: { domains: names },
    });
    assert.deepEqual(
      after.body.map((e: { status: number }) => e.status),
      names.map(() => 404),
    );
  });
});
