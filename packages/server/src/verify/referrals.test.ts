// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * Reading DNS as receivers' resolvers do (issue 36 items 2–5), through a real hierarchy: a
 * caching BIND as the configured resolver over a fake root, which delegates each zone to
 * servers on port 53 of their own loopback addresses. Real BIND serves the customer's zones
 * (two of them, disagreeing, for one zone) and a vendor's; small dns-packet servers play the
 * broken ones BIND will not imitate (an upward referral, FORMERR to EDNS0, TC on every UDP
 * answer, SERVFAIL and REFUSED in turn).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Answer } from 'dns-packet';
import { type BindServer, startBind } from '../test-support/bind.js';
import { claimLoopbackAddress, type LoopbackClaim } from '../test-support/loopback.js';
import { type QuirkyServer, startQuirkyServer } from '../test-support/quirky-dns-server.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { createAuthoritativeResolve } from './authoritative.js';
import { checkRecords } from './check-records.js';

// Each test process its own addresses (loopback.ts).
const ROLES = ['customer', 'second', 'vendor', 'lame', 'formerr', 'truncating', 'flaky'] as const;
const claims: LoopbackClaim[] = [];
for (const _ of ROLES) claims.push(await claimLoopbackAddress());
const HOSTS = Object.fromEntries(ROLES.map((role, i) => [role, claims[i]!.address])) as Record<
  (typeof ROLES)[number],
  string
>;
const quirky: QuirkyServer[] = [];
const servers: TestServer[] = [];
let customer: BindServer;
let second: BindServer;
let vendor: BindServer;
let resolver: BindServer;

const LAME_NS = ['a.lame-ns.test', 'b.lame-ns.test'];
const SPLIT_NS = ['ns1.split-ns.test', 'ns2.split-ns.test'];
const FLAKY_NS = ['a.flaky-ns.test', 'b.flaky-ns.test'];
const txt = (name: string, value: string): Answer => ({ name, type: 'TXT', ttl: 60, data: value });

before(async () => {
  customer = await startBind({
    host: HOSTS.customer,
    port: 53,
    zones: ['example.test', 'lame.test', 'split.test', 'flaky.test'],
    nameServers: { 'lame.test': LAME_NS, 'split.test': SPLIT_NS, 'flaky.test': FLAKY_NS },
  });
  second = await startBind({
    host: HOSTS.second,
    port: 53,
    zones: ['split.test'],
    nameServers: { 'split.test': SPLIT_NS },
  });
  vendor = await startBind({
    host: HOSTS.vendor,
    port: 53,
    zones: ['vendor.test', '_domainkey.dk.example.test', '_dmarc.dm.example.test'],
    nameServers: {
      '_domainkey.dk.example.test': ['ns.vendor.test'],
      '_dmarc.dm.example.test': ['ns.vendor.test'],
    },
  });
  const dmarcReject = (zone: string) => [txt(`_dmarc.${zone}`, 'v=DMARC1; p=reject')];
  quirky.push(
    await startQuirkyServer({
      host: HOSTS.lame,
      zone: 'lame.test',
      nameServers: LAME_NS,
      records: [],
      quirk: 'upward-referral',
    }),
    await startQuirkyServer({
      host: HOSTS.flaky,
      zone: 'flaky.test',
      nameServers: FLAKY_NS,
      records: [],
      quirk: 'servfail-refused',
    }),
    ...(await Promise.all(
      (['formerr', 'truncating'] as const).map((id) =>
        startQuirkyServer({
          host: HOSTS[id],
          zone: `${id}.test`,
          nameServers: [`ns.${id}.test`],
          records: [
            ...dmarcReject(`${id}.test`),
            { name: `ns.${id}.test`, type: 'A', ttl: 60, data: HOSTS[id] },
          ],
          quirk: id === 'formerr' ? 'formerr-on-edns' : 'truncate-udp',
        }),
      ),
    )),
  );
  resolver = await startBind({
    recursion: true,
    delegations: [
      { zone: 'example.test', host: HOSTS.customer },
      { zone: 'vendor.test', host: HOSTS.vendor },
      // the lame server sorts first, as the one a resolver in name order asks first
      { zone: 'lame.test', host: HOSTS.lame, nameServers: [LAME_NS[0]!] },
      { zone: 'lame.test', host: HOSTS.customer, nameServers: [LAME_NS[1]!] },
      { zone: 'split.test', host: HOSTS.customer, nameServers: [SPLIT_NS[0]!] },
      { zone: 'split.test', host: HOSTS.second, nameServers: [SPLIT_NS[1]!] },
      { zone: 'formerr.test', host: HOSTS.formerr },
      { zone: 'truncating.test', host: HOSTS.truncating },
      { zone: 'flaky.test', host: HOSTS.flaky, nameServers: [FLAKY_NS[0]!] },
      { zone: 'flaky.test', host: HOSTS.customer, nameServers: [FLAKY_NS[1]!] },
    ],
  });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(quirky.map((s) => s.close()));
  await Promise.all([resolver, customer, second, vendor].map((s) => s?.close()));
  for (const claim of claims) claim.release();
});

const authoritative = () =>
  createAuthoritativeResolve({ servers: [resolver.address], timeoutMs: 1000, tries: 2, concurrency: 8 });

// Item 2: a resolver asked for NS at an alias answers the target's NS set after the CNAME;
// read as the cut, `mail.example.test` became its own zone and `_dmarc` its DMARC name,
// which is where the parent's own policy lives.
test('a registered name that is a CNAME is no zone cut: names stay relative to the zone above', async () => {
  await customer.addRecord('mail.example.test', 'CNAME', 'example.test.');
  assert.deepEqual(await authoritative().zoneOf('mail.example.test'), {
    apex: 'example.test',
    nameServers: ['ns.example.test'],
  });
  const api = await startTestServer({ DNS_RESOLVERS: resolver.address, STATUS_CHECK_MAX_AGE_MS: '0' });
  servers.push(api);
  const { key } = await api.createKey();
  const call = async (path: string, body: unknown) =>
    (await api.request('POST', path, { key, body })).body[0].data;
  await call('/api/public/domain', { domains: [{ domain: 'mail.example.test', domainType: 'Marketing' }] });
  const status = await call('/api/public/domain/status', { domains: ['mail.example.test'] });
  assert.deepEqual(
    status.records.map((r: { name: string; zone: string }) => [r.name.replace(/^[a-z2-7]{32}/, 't'), r.zone]),
    [
      ['t._domainkey.mail', 'example.test'],
      ['t._domainkey.mail', 'example.test'],
      ['t._domainkey.mail', 'example.test'],
      ['_dmarc.mail', 'example.test'],
    ],
  );
});

// Item 3: the parent's referral (NOERROR, no AA, NS in authority) read as "no data" gave
// wrong_type for the DKIM CNAME and not_found for DMARC held in a vendor's delegated subzone.
test('records in a delegated _domainkey or _dmarc subzone are found by following the referral', async () => {
  await customer.update('example.test', [
    'update add _domainkey.dk.example.test. 60 NS ns.vendor.test.',
    'update add _dmarc.dm.example.test. 60 NS ns.vendor.test.',
  ]);
  await vendor.addRecord('sel._domainkey.dk.example.test', 'CNAME', 'sel.dkim.provider.test.');
  await vendor.addRecord('_dmarc.dm.example.test', 'TXT', 'v=DMARC1; p=reject');
  // the setup is real: the parent's server refers, it does not answer
  const referral = await customer
    .resolver()
    .resolveCname('sel._domainkey.dk.example.test')
    .catch((e) => e.code);
  assert.equal(referral, 'ENODATA');
  const observations = await checkRecords(
    [
      { kind: 'dkim', fqdn: 'sel._domainkey.dk.example.test', target: 'sel.dkim.provider.test' },
      { kind: 'dmarc', fqdn: '_dmarc.dm.example.test' },
    ],
    authoritative(),
  );
  assert.deepEqual(
    observations.map((o) => o.outcome),
    ['match', 'match'],
  );
});

// Item 4: the lame server, asked first, answered NOERROR with no records; that was NODATA.
test('a lame server answering with an upward referral is passed over; the zone’s other server answers', async () => {
  await customer.addRecord('_dmarc.lame.test', 'TXT', 'v=DMARC1; p=reject');
  const [dmarc] = await checkRecords([{ kind: 'dmarc', fqdn: '_dmarc.lame.test' }], authoritative());
  assert.equal(dmarc?.outcome, 'match');
  assert.ok(quirky[0]!.asked.includes('_dmarc.lame.test TXT'), 'the lame server was asked too');
});

// Item 5: with ns1 in name order lacking the record, "no record; add a CNAME" was the advice
// although ns2 held it.
test('servers that disagree: each one named with what it holds and its serial; never "add" what one holds', async () => {
  // ns2 gets the record; ns1 then changes something else, so its serial is the newer
  await second.addRecord('sel._domainkey.split.test', 'CNAME', 'sel.dkim.provider.test.');
  await customer.addRecord('other.split.test', 'TXT', 'unrelated');
  await customer.addRecord('more.split.test', 'TXT', 'unrelated');
  const [behind] = await checkRecords(
    [{ kind: 'dkim', fqdn: 'sel._domainkey.split.test', target: 'sel.dkim.provider.test' }],
    authoritative(),
  );
  assert.equal(behind?.outcome, 'miss', 'the newer serial says missing, and a resolver may well get that');
  const detail = (behind?.outcome === 'miss' && behind.detail) || '';
  assert.match(detail, /name servers disagree about sel\._domainkey\.split\.test/);
  assert.match(
    detail,
    new RegExp(
      `ns1\\.split-ns\\.test \\(${HOSTS.customer.replaceAll('.', '\\.')}\\) serial \\d+ has no such name`,
    ),
  );
  assert.match(detail, /ns2\.split-ns\.test \(.*\) serial \d+ has CNAME sel\.dkim\.provider\.test/);
  assert.doesNotMatch(detail, /add a CNAME/);

  // the other way round: ns1 holds the newer zone with the record, ns2 is a stale secondary
  await customer.addRecord('_dmarc.split.test', 'TXT', 'v=DMARC1; p=reject');
  const [ahead] = await checkRecords([{ kind: 'dmarc', fqdn: '_dmarc.split.test' }], authoritative());
  assert.equal(ahead?.outcome, 'match');
  assert.match(ahead?.detail ?? '', /ns2\.split-ns\.test \(.*\) serial \d+ has no such name/);

  // a disagreement at the first link of a CNAME chain is still told at its end
  await vendor.addRecord('chain.dmarc.vendor.test', 'TXT', 'v=DMARC1; p=reject');
  await customer.addRecord('_dmarc.chain.split.test', 'CNAME', 'chain.dmarc.vendor.test.');
  const [chained] = await checkRecords([{ kind: 'dmarc', fqdn: '_dmarc.chain.split.test' }], authoritative());
  assert.equal(chained?.outcome, 'match');
  assert.match(
    chained?.detail ?? '',
    /ns1\.split-ns\.test \(.*\) serial \d+ has CNAME chain\.dmarc\.vendor\.test/,
  );
  assert.match(chained?.detail ?? '', /ns2\.split-ns\.test \(.*\) serial \d+ has no such name/);

  // and when they agree, nothing is said of servers
  await second.addRecord('_dmarc.split.test', 'TXT', 'v=DMARC1; p=reject');
  const [agreed] = await checkRecords([{ kind: 'dmarc', fqdn: '_dmarc.split.test' }], authoritative());
  assert.deepEqual(agreed, { outcome: 'match', found: null, detail: null });
});

test('controls: a server from before EDNS0 and one truncating every UDP answer still answer; one answering SERVFAIL and REFUSED in turn is passed over', async () => {
  await customer.addRecord('_dmarc.flaky.test', 'TXT', 'v=DMARC1; p=reject');
  for (const zone of ['formerr.test', 'truncating.test', 'flaky.test']) {
    const [dmarc] = await checkRecords([{ kind: 'dmarc', fqdn: `_dmarc.${zone}` }], authoritative());
    assert.equal(dmarc?.outcome, 'match', zone);
  }
  assert.ok(quirky[1]!.asked.includes('_dmarc.flaky.test TXT'), 'the flaky server was asked too');
});
