// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * Authoritative checks through a real delegation, as deployments have it: a caching BIND as
 * the configured resolver, with a fake root that delegates `example.test` to the customer's
 * BIND on port 53 of its own loopback address. The zone's negative TTL is 600 s, so the
 * resolver keeps "no such name" for ten minutes after it first answered it.
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { after, before, test } from 'node:test';
import { type BindServer, startBind } from '../test-support/bind.js';
import { claimLoopbackAddress } from '../test-support/loopback.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { createAuthoritativeResolve } from './authoritative.js';
import { checkRecords } from './check-records.js';
import { describeLookupError } from './resolver.js';

// Each test process its own addresses (loopback.ts).
const authAddress = await claimLoopbackAddress();
const AUTH_HOST = authAddress.address;
/** A DMARC vendor's own server (`vendor.test`), elsewhere as vendors are. */
const vendorAddress = await claimLoopbackAddress();
const VENDOR_HOST = vendorAddress.address;
let customer: BindServer;
let vendor: BindServer;
let resolver: BindServer;
const servers: TestServer[] = [];

before(async () => {
  customer = await startBind({
    host: AUTH_HOST,
    port: 53,
    zones: ['example.test', 'deleg.example.test'],
    negativeTtl: 600,
  });
  vendor = await startBind({ host: VENDOR_HOST, port: 53, zones: ['vendor.test'] });
  resolver = await startBind({
    recursion: true,
    delegations: [
      { zone: 'example.test', host: AUTH_HOST },
      { zone: 'vendor.test', host: VENDOR_HOST },
    ],
  });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await resolver?.close();
  await customer?.close();
  await vendor?.close();
  authAddress.release();
  vendorAddress.release();
});

const authoritative = () =>
  createAuthoritativeResolve({ servers: [resolver.address], timeoutMs: 1000, tries: 2, concurrency: 8 });

test('the caching resolver keeps "no such name" for the negative TTL; the authoritative check does not', async () => {
  const name = 'sel._domainkey.first.example.test';
  await assert.rejects(resolver.resolver().resolveCname(name), { code: 'ENOTFOUND' });
  await customer.addRecord(name, 'CNAME', 'sel.dkim.provider.test.');
  // the setup is real: the resolver still answers from its negative cache...
  await assert.rejects(resolver.resolver().resolveCname(name), { code: 'ENOTFOUND' });
  // ...while the zone's own server, found through that resolver, has the record
  assert.deepEqual(await authoritative()(name, 'CNAME'), ['sel.dkim.provider.test']);
});

test('through HTTP: records published after a check cached their absence verify at the next poll', async (t) => {
  const api = await startTestServer({ DNS_RESOLVERS: resolver.address, STATUS_CHECK_MAX_AGE_MS: '0' });
  servers.push(api);
  const { key } = await api.createKey();
  const call = async (path: string, body: unknown) =>
    (await api.request('POST', path, { key, body })).body[0].data;
  const { records } = await call('/api/public/domain', {
    domains: [{ domain: 'mail.example.test', domainType: 'Transactional' }],
  });
  let status = await call('/api/public/domain/status', { domains: ['mail.example.test'] });
  assert.equal(status.records[0].reason, 'not_found');
  // as a resolver does when anyone asked before the customer published (the old check did)
  for (const record of records) await assert.rejects(resolver.resolver().resolveAny(record.fqdn));
  for (const record of records.slice(0, 3))
    await customer.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  await customer.addRecord(records[3].fqdn, 'TXT', 'v=DMARC1; p=none;');
  const published = performance.now();
  status = await call('/api/public/domain/status', { domains: ['mail.example.test'] });
  t.diagnostic(
    `verified ${(performance.now() - published).toFixed(0)} ms after publishing, with a 600 s negative TTL`,
  );
  assert.deepEqual(
    [status.status, ...status.records.map((r: { status: string }) => r.status)],
    ['verified', 'verified', 'verified', 'verified', 'verified'],
  );
  await assert.rejects(
    resolver.resolver().resolveCname(records[0].fqdn),
    { code: 'ENOTFOUND' },
    'the cache still says no',
  );
});

test('when the zone’s server does not answer, the resolvers are asked instead; if they fail too, the server is named', async () => {
  const cached = 'sel._domainkey.cached.example.test';
  await customer.addRecord(cached, 'CNAME', 'sel.dkim.provider.test.');
  assert.deepEqual(await resolver.resolver().resolveCname(cached), ['sel.dkim.provider.test']);
  const gone = 'sel._domainkey.gone.example.test';
  await assert.rejects(resolver.resolver().resolveCname(gone), { code: 'ENOTFOUND' }); // now cached
  const resolve = authoritative();
  await resolve(cached, 'CNAME'); // the zone's servers are found while they answer
  await customer.stop();
  try {
    assert.deepEqual(
      await resolve(cached, 'CNAME'),
      ['sel.dkim.provider.test'],
      'the resolver’s cached answer',
    );
    // a miss the resolvers answered says so: it may be their cache speaking
    const [miss] = await checkRecords(
      [{ kind: 'dkim', fqdn: gone, target: 'sel.dkim.provider.test' }],
      resolve,
    );
    assert.match(
      (miss?.outcome === 'miss' && miss.detail) || '',
      /^no record at .*; add a CNAME .* \(the zone's name servers did not answer; this is the resolvers' answer/,
    );
    const error = await resolve('sel._domainkey.down.example.test', 'CNAME').then(
      () => assert.fail('no answer expected'),
      (e: { server?: string; code?: string }) => e,
    );
    assert.equal(error.server, `ns.example.test (${AUTH_HOST})`);
    assert.match(
      describeLookupError(error),
      new RegExp(`^ns\\.example\\.test \\(${AUTH_HOST.replace(/\./g, '\\.')}\\) `),
    );
  } finally {
    await customer.start();
  }
});

test('record names follow the zone DNS shows, from the registration’s answer on: a delegated subdomain is its own zone', async () => {
  await customer.update('example.test', ['update add deleg.example.test. 60 NS ns.example.test.']);
  const api = await startTestServer({ DNS_RESOLVERS: resolver.address, STATUS_CHECK_MAX_AGE_MS: '0' });
  servers.push(api);
  const { key } = await api.createKey();
  const call = async (path: string, body: unknown) =>
    (await api.request('POST', path, { key, body })).body[0].data;
  const registered = await call('/api/public/domain', {
    domains: [{ domain: 'mail.deleg.example.test', domainType: 'Marketing' }],
  });
  // the registration's own answer is already relative to the delegated zone (issue 36 item 9)
  assert.deepEqual(
    [registered.records[3].name, registered.records[3].zone, registered.zoneConfirmed],
    ['_dmarc.mail', 'deleg.example.test', true],
  );
  const checked = await call('/api/public/domain/status', { domains: ['mail.deleg.example.test'] });
  assert.deepEqual(
    checked.records.map((r: { name: string; zone: string; fqdn: string }) => [
      r.name.replace(/^[a-z2-7]{32}/, 't'),
      r.zone,
    ]),
    [
      ['t._domainkey.mail', 'deleg.example.test'],
      ['t._domainkey.mail', 'deleg.example.test'],
      ['t._domainkey.mail', 'deleg.example.test'],
      ['_dmarc.mail', 'deleg.example.test'],
    ],
  );
});

test('when DNS does not show the zone in time, the registration says its names are not confirmed', async () => {
  // a resolver that never answers: the zone walk outlasts the registration's wait
  const silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
  const api = await startTestServer({
    DNS_RESOLVERS: `127.0.0.1:${silent.address().port}`,
    STATUS_CHECK_WAIT_MS: '200',
  });
  servers.push(api);
  try {
    const { key } = await api.createKey();
    const [entry] = (
      await api.request('POST', '/api/public/domain', {
        key,
        body: { domains: [{ domain: 'mail.deleg.example.test', domainType: 'Marketing' }] },
      })
    ).body;
    assert.deepEqual(
      [entry.data.records[3].name, entry.data.records[3].zone, entry.data.zoneConfirmed],
      ['_dmarc.mail.deleg', 'example.test', false],
    );
  } finally {
    silent.close();
  }
});

test('zone cuts are remembered up to a bound, the oldest forgotten first', async () => {
  const resolve = createAuthoritativeResolve({
    servers: [resolver.address],
    timeoutMs: 1000,
    tries: 2,
    concurrency: 8,
    zoneCacheSize: 4,
  });
  const asked = () => resolver.queriesReceived();
  await resolve.zoneOf('one.example.test');
  let before = await asked();
  await resolve.zoneOf('one.example.test');
  assert.equal(await asked(), before, 'remembered: no question');
  // each new name leaves its cut, its zone and more: the first is pushed out
  for (const name of ['two', 'three', 'four', 'five']) await resolve.zoneOf(`${name}.example.test`);
  before = await asked();
  assert.deepEqual(await resolve.zoneOf('one.example.test'), {
    apex: 'example.test',
    nameServers: ['ns.example.test'],
  });
  assert.ok((await asked()) > before, 'forgotten: asked again');
});

// The names a check looks at when a record is missing (`<name>.<zone>`, where a provider
// appended the zone to a full name) do not exist; each one's walk asked the resolvers a question.
test('no zone cut is asked below a name the resolvers called NXDOMAIN (RFC 8020)', async () => {
  const resolve = authoritative();
  const asked = () => resolver.queriesReceived();
  const zone = { apex: 'example.test', nameServers: ['ns.example.test'] };
  assert.deepEqual(await resolve.zoneOf('_dmarc.a.example.test.example.test'), zone);
  const before = await asked();
  for (const name of ['b', 'c', 'd'])
    assert.deepEqual(await resolve.zoneOf(`${name}._domainkey.${name}.example.test.example.test`), zone);
  assert.equal(await asked(), before, 'no question below example.test.example.test, which does not exist');
  // a name that exists is still asked
  await resolve.zoneOf('e.example.test');
  assert.ok((await asked()) > before);
});

// Regression (issue 36): the zone's own server answers a TXT question at an alias with the CNAME
// alone when the target lies in another zone; that was read as "no DMARC record; add the TXT
// shown", and following the advice would replace a vendor's p=reject with p=none
test('_dmarc as a CNAME to a DMARC vendor in another zone is followed, as every resolver does', async () => {
  const name = '_dmarc.vendored.example.test';
  await vendor.addRecord('vendored-example.dmarc.vendor.test', 'TXT', 'v=DMARC1; p=reject');
  await customer.addRecord(name, 'CNAME', 'vendored-example.dmarc.vendor.test.');
  // the setup is real: the customer's server gives the alias and nothing more
  assert.deepEqual(await customer.resolver().resolveTxt(name), []);
  assert.deepEqual(await authoritative()(name, 'TXT'), [['v=DMARC1; p=reject']]);
  const [dmarc] = await checkRecords([{ kind: 'dmarc', fqdn: name }], authoritative());
  assert.deepEqual(dmarc, { outcome: 'match', found: null, detail: null });
  // an alias to a name with no TXT is still "no record", and a loop of aliases ends
  await customer.addRecord('_dmarc.nowhere.example.test', 'CNAME', 'nothing.dmarc.vendor.test.');
  await assert.rejects(authoritative()('_dmarc.nowhere.example.test', 'TXT'), { code: 'ENOTFOUND' });
  await customer.addRecord('_dmarc.loop.example.test', 'CNAME', 'loop.dmarc.vendor.test.');
  await vendor.addRecord('loop.dmarc.vendor.test', 'CNAME', '_dmarc.loop.example.test.');
  await assert.rejects(authoritative()('_dmarc.loop.example.test', 'TXT'));
});
