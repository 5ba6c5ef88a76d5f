// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * The customer's DNS provider, named from real delegations (issue 23): a caching BIND as the
 * configured resolver, with a fake root that delegates one zone per provider to the customer's
 * BIND under that provider's NS names (names only: the root answers their addresses with our
 * loopback address, so nothing leaves the machine).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DNS_PROVIDERS } from '../domain/dns-providers.js';
import { type BindServer, startBind } from '../test-support/bind.js';
import { claimLoopbackAddress } from '../test-support/loopback.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** NS names as each provider hands them out (several zones share them, as at the providers). */
const PROVIDER_NS: Record<string, string[]> = {
  cloudflare: ['ada.ns.cloudflare.com', 'john.ns.cloudflare.com'],
  route53: [
    'ns-380.awsdns-47.com',
    'ns-1076.awsdns-06.org',
    'ns-752.awsdns-30.net',
    'ns-1536.awsdns-00.co.uk',
  ],
  godaddy: ['ns55.domaincontrol.com', 'ns56.domaincontrol.com'],
  namecheap: ['dns1.registrar-servers.com', 'dns2.registrar-servers.com'],
  'google-cloud-dns': ['ns-cloud-a1.googledomains.com', 'ns-cloud-a2.googledomains.com'],
  azure: ['ns1-01.azure-dns.com', 'ns2-01.azure-dns.net', 'ns3-01.azure-dns.org', 'ns4-01.azure-dns.info'],
  digitalocean: ['ns1.digitalocean.com', 'ns2.digitalocean.com', 'ns3.digitalocean.com'],
  ovh: ['dns19.ovh.net', 'ns19.ovh.net'],
  gandi: ['ns-168-a.gandi.net', 'ns-138-b.gandi.net', 'ns-19-c.gandi.net'],
  hetzner: ['hydrogen.ns.hetzner.com', 'oxygen.ns.hetzner.com', 'helium.ns.hetzner.de'],
  ionos: ['ns1045.ui-dns.de', 'ns1102.ui-dns.com', 'ns1089.ui-dns.org', 'ns1109.ui-dns.biz'],
  porkbun: ['curitiba.ns.porkbun.com', 'fortaleza.ns.porkbun.com'],
  vercel: ['ns1.vercel-dns.com', 'ns2.vercel-dns.com'],
  ns1: ['dns1.p03.nsone.net', 'dns2.p03.nsone.net', 'dns3.p03.nsone.net', 'dns4.p03.nsone.net'],
};
const UNKNOWN_NS = ['ns1.unheard-of-dns.example', 'ns2.unheard-of-dns.example'];
const zoneOf = (id: string) => `${id}.provider-zone.test`;
const PROXIED = 'proxied.provider-zone.test';
/** Served by two providers at once (issue 36): one Cloudflare name and two Route 53 names. */
const MIXED = 'mixed.provider-zone.test';
const MIXED_NS = [PROVIDER_NS.cloudflare![0]!, ...PROVIDER_NS.route53!.slice(0, 2)];
const UNKNOWN = 'unknown.provider-zone.test';

// Each test process its own address (loopback.ts).
const authAddress = await claimLoopbackAddress();
const AUTH_HOST = authAddress.address;
let customer: BindServer;
let resolver: BindServer;
let api: TestServer;
let key: string;

before(async () => {
  const nameServers: Record<string, string[]> = {
    ...Object.fromEntries(Object.entries(PROVIDER_NS).map(([id, ns]) => [zoneOf(id), ns])),
    [PROXIED]: PROVIDER_NS.cloudflare!,
    [MIXED]: MIXED_NS,
    [UNKNOWN]: UNKNOWN_NS,
  };
  const zones = Object.keys(nameServers);
  customer = await startBind({ host: AUTH_HOST, port: 53, zones, nameServers });
  resolver = await startBind({
    recursion: true,
    delegations: zones.map((zone) => ({ zone, host: AUTH_HOST })),
    nameServers,
  });
  api = await startTestServer({ DNS_RESOLVERS: resolver.address, STATUS_CHECK_MAX_AGE_MS: '0' });
  ({ key } = await api.createKey());
});
after(async () => {
  await api?.close();
  await resolver?.close();
  await customer?.close();
  authAddress.release();
});

const call = async (path: string, body: unknown) => {
  const res = await api.request('POST', path, { key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { data?: any; error?: any }[];
};

test('each provider is named from its NS records, and unknown name servers give null', async () => {
  const domains = [...Object.keys(PROVIDER_NS).map(zoneOf), UNKNOWN];
  const registered = await call('/api/public/domain', {
    domains: domains.map((domain) => ({ domain, domainType: 'Transactional' })),
  });
  assert.deepEqual(
    registered.map((r) => [r.data.provider, r.data.providers]),
    domains.map(() => [null, []]),
    'unknown before the first check',
  );
  const status = await call('/api/public/domain/status', { domains });
  const named = Object.fromEntries(status.map((r) => [r.data.domain, r.data.provider?.id ?? null]));
  assert.deepEqual(named, {
    ...Object.fromEntries(Object.keys(PROVIDER_NS).map((id) => [zoneOf(id), id])),
    [UNKNOWN]: null,
  });
  for (const { data } of status) {
    assert.deepEqual(data.providers, data.provider ? [data.provider] : [], 'one provider serves each zone');
    if (data.provider === null) {
      assert.ok(data.records.every((r: { providerHints: unknown[] }) => r.providerHints.length === 0));
      continue;
    }
    const entry = DNS_PROVIDERS.find((p) => p.id === data.provider.id)!;
    assert.equal(data.provider.name, entry.name);
    // the name stays relative to the zone whatever the provider
    assert.deepEqual(
      data.records.map((r: { name: string }) => r.name),
      [...data.records.slice(0, 3).map((r: { record: string }) => `${r.record}._domainkey`), '_dmarc'],
    );
    for (const record of data.records)
      for (const hint of record.providerHints) assert.match(hint.source, /^https:\/\//);
  }
});

test('a Cloudflare zone: the hints name the proxy setting, and a proxied record is diagnosed as such', async () => {
  const [registered] = await call('/api/public/domain', {
    domains: [{ domain: PROXIED, domainType: 'Marketing' }],
  });
  const dkim = registered!.data.records[0];
  // the check the registration started is done before the record appears (a poll joins it)
  await call('/api/public/domain/status', { domains: [PROXIED] });
  // the customer enters the CNAME as an A record with the proxy on: Cloudflare then answers
  // with its own addresses
  await customer.addRecord(dkim.fqdn, 'A', '104.16.0.1');
  const [status] = await call('/api/public/domain/status', { domains: [PROXIED] });
  const [first, , , dmarc] = status!.data.records;
  assert.equal(status!.data.provider.id, 'cloudflare');
  assert.equal(first.reason, 'wrong_type');
  assert.equal(first.found, 'A/AAAA 104.16.0.1');
  assert.match(
    first.detail,
    /Cloudflare proxies this record; turn the proxy off for this record \(proxy status “DNS only”\)/,
  );
  const texts = (record: { providerHints: { text: string }[] }) => record.providerHints.map((h) => h.text);
  assert.ok(
    texts(first).some((t) => t.includes('“DNS only”')),
    texts(first).join(' | '),
  );
  assert.ok(!texts(dmarc).some((t) => t.includes('proxy')), 'no proxy advice for the TXT record');
  assert.ok(
    texts(dmarc).some((t) => /without its surrounding quotes/.test(t)),
    texts(dmarc).join(' | '),
  );
});

test('a zone served by Cloudflare and Route 53 names both, Route 53 (more names) first, with each one’s hints (it named one)', async () => {
  await call('/api/public/domain', { domains: [{ domain: MIXED, domainType: 'Transactional' }] });
  const [status] = await call('/api/public/domain/status', { domains: [MIXED] });
  const { data } = status!;
  assert.equal(data.provider.id, 'route53', 'provider: the one most name servers belong to');
  assert.deepEqual(
    data.providers.map((p: { id: string; name: string }) => [p.id, p.name]),
    [
      ['route53', 'Amazon Route 53'],
      ['cloudflare', 'Cloudflare'],
    ],
  );
  const [dkim, , , dmarc] = data.records;
  const whose = (record: { providerHints: { provider: string; topic: string }[] }) =>
    record.providerHints.map((h) => `${h.provider} ${h.topic}`);
  // Route 53's hints, then Cloudflare's: none of Route 53's is about a CNAME; Cloudflare's proxy must be off
  assert.deepEqual(whose(dkim), ['cloudflare name', 'cloudflare proxy', 'cloudflare ttl']);
  assert.deepEqual(whose(dmarc), [
    'route53 quotes',
    'cloudflare name',
    'cloudflare quotes',
    'cloudflare ttl',
  ]);
  // each provider's own advice: quotes typed at Route 53, added by Cloudflare
  assert.deepEqual(
    dmarc.providerHints
      .filter((h: { topic: string }) => h.topic === 'quotes')
      .map((h: { text: string }) => h.text),
    [
      'Enter the value with its surrounding quotes, as shown.',
      'Paste the value without its surrounding quotes; Cloudflare adds them.',
    ],
  );
});
