import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DNS_PROVIDERS, type DnsProvider, type DocumentedFact } from './dns-providers.js';
import { identifyProvider, identifyProviders, nameserverMatches } from './provider-detection.js';

/** A realistic NS answer per provider, as `dig NS` prints it (trailing dots included). */
const REALISTIC: readonly { id: string; ns: readonly string[] }[] = [
  { id: 'cloudflare', ns: ['ada.ns.cloudflare.com.', 'john.ns.cloudflare.com.'] },
  {
    id: 'route53',
    ns: [
      'ns-380.awsdns-47.com.',
      'ns-1076.awsdns-06.org.',
      'ns-752.awsdns-30.net.',
      'ns-1536.awsdns-00.co.uk.',
    ],
  },
  { id: 'godaddy', ns: ['ns55.domaincontrol.com.', 'ns56.domaincontrol.com.'] },
  { id: 'namecheap', ns: ['dns1.registrar-servers.com.', 'dns2.registrar-servers.com.'] },
  { id: 'google-cloud-dns', ns: ['ns-cloud-a1.googledomains.com.', 'ns-cloud-a2.googledomains.com.'] },
  {
    id: 'azure',
    ns: ['ns1-01.azure-dns.com.', 'ns2-01.azure-dns.net.', 'ns3-01.azure-dns.org.', 'ns4-01.azure-dns.info.'],
  },
  { id: 'digitalocean', ns: ['ns1.digitalocean.com.', 'ns2.digitalocean.com.', 'ns3.digitalocean.com.'] },
  { id: 'ovh', ns: ['dns19.ovh.net.', 'ns19.ovh.net.'] },
  { id: 'ovh', ns: ['dns200.anycast.me.', 'ns200.anycast.me.'] },
  { id: 'gandi', ns: ['ns-168-a.gandi.net.', 'ns-138-b.gandi.net.', 'ns-19-c.gandi.net.'] },
  { id: 'hetzner', ns: ['hydrogen.ns.hetzner.com.', 'oxygen.ns.hetzner.com.', 'helium.ns.hetzner.de.'] },
  { id: 'hetzner', ns: ['ns1.your-server.de.', 'ns.second-ns.com.', 'ns3.second-ns.de.'] },
  {
    id: 'ionos',
    ns: ['ns1045.ui-dns.de.', 'ns1102.ui-dns.com.', 'ns1089.ui-dns.org.', 'ns1109.ui-dns.biz.'],
  },
  { id: 'porkbun', ns: ['curitiba.ns.porkbun.com.', 'fortaleza.ns.porkbun.com.'] },
  { id: 'vercel', ns: ['ns1.vercel-dns.com.', 'ns2.vercel-dns.com.'] },
  // IBM's example of a Managed DNS pool; Netlify DNS hands out the same names (p03 …)
  {
    id: 'ns1',
    ns: ['dns1.p06.nsone.net.', 'dns2.p06.nsone.net.', 'dns3.p06.nsone.net.', 'dns4.p06.nsone.net.'],
  },
];

function provider(id: string): DnsProvider {
  const found = DNS_PROVIDERS.find((p) => p.id === id);
  assert.ok(found, `no provider ${id}`);
  return found;
}

describe('identifyProvider', () => {
  for (const { id, ns } of REALISTIC) {
    test(`${ns[0]} … → ${id}`, () => {
      assert.equal(identifyProvider(ns)?.id, id);
    });
  }

  test('every provider in the catalogue is covered by the table above', () => {
    const covered = new Set(REALISTIC.map((r) => r.id));
    assert.deepEqual(
      DNS_PROVIDERS.map((p) => p.id).filter((id) => !covered.has(id)),
      [],
    );
  });

  test('unknown, empty and blank inputs give null', () => {
    for (const ns of [[], ['ns1.example.net', 'ns2.example.net'], ['', '   '], ['.']]) {
      assert.equal(identifyProvider(ns), null, JSON.stringify(ns));
    }
  });

  test('case and trailing dots do not matter', () => {
    assert.equal(identifyProvider(['ADA.NS.CLOUDFLARE.COM.', 'John.Ns.Cloudflare.Com'])?.id, 'cloudflare');
    assert.equal(identifyProvider(['NS-380.AWSDNS-47.COM..'])?.id, 'route53');
    assert.equal(identifyProvider(['  dns1.registrar-servers.com.  '])?.id, 'namecheap');
  });

  test('mixed delegation: the provider most names point at wins', () => {
    const mixed = ['ada.ns.cloudflare.com', 'john.ns.cloudflare.com', 'ns-380.awsdns-47.com'];
    assert.equal(identifyProvider(mixed)?.id, 'cloudflare');
    assert.equal(identifyProvider([...mixed, 'ns-1.awsdns-01.net', 'ns-2.awsdns-02.org'])?.id, 'route53');
  });

  test('names of unknown providers do not count against a known one', () => {
    assert.equal(
      identifyProvider(['ns1.example.net', 'ns2.example.net', 'ada.ns.cloudflare.com'])?.id,
      'cloudflare',
    );
  });

  test('an exact tie goes to the provider listed first', () => {
    const tie = ['ns-380.awsdns-47.com', 'ada.ns.cloudflare.com'];
    assert.equal(identifyProvider(tie)?.id, 'cloudflare');
    assert.equal(identifyProvider([...tie].reverse())?.id, 'cloudflare');
  });

  test('a repeated name counts once', () => {
    const ns = [
      'ns-1.awsdns-01.com',
      'ns-1.awsdns-01.com.',
      'NS-1.AWSDNS-01.COM',
      'ada.ns.cloudflare.com',
      'bob.ns.cloudflare.com',
    ];
    assert.equal(identifyProvider(ns)?.id, 'cloudflare');
  });

  test('returns the catalogue entry itself', () => {
    assert.equal(identifyProvider(['ada.ns.cloudflare.com']), provider('cloudflare'));
  });

  test('takes a custom catalogue', () => {
    const custom: DnsProvider = { id: 'custom', name: 'Custom', nameservers: ['dns.example.org'], hints: {} };
    assert.equal(identifyProvider(['a.dns.example.org'], [custom]), custom);
    assert.equal(identifyProvider(['ada.ns.cloudflare.com'], [custom]), null);
  });
});

describe('identifyProviders: every provider serving the zone, most names first', () => {
  const ids = (ns: readonly string[]) => identifyProviders(ns).map((p) => p.id);
  const cloudflare = ['ada.ns.cloudflare.com', 'john.ns.cloudflare.com'];
  const route53 = ['ns-380.awsdns-47.com', 'ns-1076.awsdns-06.org'];

  test('NS1 names are NS1, named as such and as Netlify DNS, whose zones use them (they were Netlify alone)', () => {
    const [ns1] = identifyProviders(['dns1.p03.nsone.net.', 'dns2.p03.nsone.net.']);
    assert.deepEqual(ids(['dns1.p03.nsone.net.', 'dns2.p03.nsone.net.']), ['ns1']);
    assert.match(ns1!.name, /\bNS1\b/);
    assert.match(ns1!.name, /IBM NS1 Connect/);
    assert.match(ns1!.name, /Netlify DNS/);
  });

  test('one Cloudflare and two Route 53 names: both, Route 53 first (it was Route 53 alone)', () => {
    assert.deepEqual(ids([cloudflare[0]!, ...route53]), ['route53', 'cloudflare']);
    assert.deepEqual(
      ids([...route53, cloudflare[0]!]),
      ['route53', 'cloudflare'],
      'whatever the answer order',
    );
    assert.equal(identifyProvider([cloudflare[0]!, ...route53])?.id, 'route53', 'provider: the first');
  });

  test('two Cloudflare and one Route 53 name: Cloudflare first', () => {
    assert.deepEqual(ids([route53[0]!, ...cloudflare]), ['cloudflare', 'route53']);
  });

  test('as many names each: the catalogue’s order', () => {
    assert.deepEqual(ids([...route53, ...cloudflare]), ['cloudflare', 'route53']);
    assert.deepEqual(ids(['dns1.p03.nsone.net', 'ns1.vercel-dns.com']), ['vercel', 'ns1']);
  });

  test('three providers, each once however often its names repeat', () => {
    assert.deepEqual(
      ids([
        'dns1.p03.nsone.net',
        'DNS1.P03.NSONE.NET.',
        'dns2.p03.nsone.net',
        'dns3.p03.nsone.net',
        ...route53,
        cloudflare[0]!,
      ]),
      ['ns1', 'route53', 'cloudflare'],
    );
  });

  test('unknown names are left out; none known gives an empty list', () => {
    assert.deepEqual(ids(['ns1.example.net', 'ns2.example.net', cloudflare[0]!]), ['cloudflare']);
    assert.deepEqual(ids(['ns1.example.net', 'ns2.example.net']), []);
    assert.deepEqual(ids([]), []);
  });
});

describe('nameserverMatches: whole labels only', () => {
  const cases: readonly [host: string, pattern: string, expected: boolean][] = [
    ['ada.ns.cloudflare.com', 'ns.cloudflare.com', true],
    ['ADA.NS.CLOUDFLARE.COM.', 'ns.cloudflare.com', true],
    ['ada.ns.cloudflare.com', 'ns.cloudflare.com.', true],
    // a label that merely ends in the pattern's first label
    ['xns.cloudflare.com', 'ns.cloudflare.com', false],
    ['ada.xns.cloudflare.com', 'ns.cloudflare.com', false],
    // the pattern followed by someone else's domain
    ['evilns.cloudflare.com.attacker.net', 'ns.cloudflare.com', false],
    ['ada.ns.cloudflare.com.attacker.net', 'ns.cloudflare.com', false],
    // look-alike registrable names
    ['ns1.notdomaincontrol.com', 'domaincontrol.com', false],
    ['ns1.domaincontrol.com.evil', 'domaincontrol.com', false],
    ['ns1.domaincontrol.co', 'domaincontrol.com', false],
    // a plain pattern needs a label in front of it
    ['ns.cloudflare.com', 'ns.cloudflare.com', false],
    ['domaincontrol.com', 'domaincontrol.com', false],
    // `*` stays inside one label
    ['ns-380.awsdns-47.com', 'awsdns-*.com', true],
    ['ns-380.awsdns-47.co.uk', 'awsdns-*.co.uk', true],
    ['ns-380.awsdns-47.co.uk', 'awsdns-*.com', false],
    ['ns-380.xawsdns-47.com', 'awsdns-*.com', false],
    ['ns-380.awsdns.com', 'awsdns-*.com', false],
    ['ns-380.awsdns-47.evil.com', 'awsdns-*.com', false],
    // a wildcard first label describes the host's own first label
    ['ns-cloud-a1.googledomains.com', 'ns-cloud-*.googledomains.com', true],
    ['ns1.googledomains.com', 'ns-cloud-*.googledomains.com', false],
    ['googledomains.com', 'ns-cloud-*.googledomains.com', false],
    // malformed input
    ['', 'ns.cloudflare.com', false],
    ['ada..ns.cloudflare.com', 'ns.cloudflare.com', false],
    ['ada.ns.cloudflare.com', '', false],
  ];
  for (const [host, pattern, expected] of cases) {
    test(`${JSON.stringify(host)} ~ ${pattern} → ${expected}`, () => {
      assert.equal(nameserverMatches(host, pattern), expected);
    });
  }

  test('regex metacharacters in patterns are literal', () => {
    assert.equal(nameserverMatches('ns1.vercel-dnsxcom', 'vercel-dns.com'), false);
    assert.equal(nameserverMatches('a.b+c.com', 'b+c.com'), true);
    assert.equal(nameserverMatches('a.bbc.com', 'b+c.com'), false);
  });
});

describe('DNS_PROVIDERS catalogue', () => {
  test('ids are unique, stable-looking kebab-case', () => {
    const ids = DNS_PROVIDERS.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, `duplicate id in ${ids.join(', ')}`);
    for (const id of ids) assert.match(id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test('every provider has a name and at least one lowercase name server pattern', () => {
    for (const p of DNS_PROVIDERS) {
      assert.ok(p.name.trim(), p.id);
      assert.ok(p.nameservers.length > 0, p.id);
      for (const pattern of p.nameservers) {
        assert.match(pattern, /^[a-z0-9*-]+(\.[a-z0-9-]+)+$/, `${p.id}: ${pattern}`);
      }
    }
  });

  test('a former id names no other provider, and no two providers claim one', () => {
    const ids = DNS_PROVIDERS.map((p) => p.id);
    const former = DNS_PROVIDERS.flatMap((p) => p.formerIds ?? []);
    assert.deepEqual(
      former.filter((id) => ids.includes(id)),
      [],
    );
    assert.equal(new Set(former).size, former.length);
  });

  test('no two providers claim the same name server pattern', () => {
    const all = DNS_PROVIDERS.flatMap((p) => p.nameservers);
    assert.equal(new Set(all).size, all.length);
  });

  test('every fact present cites an https:// source and states what it says', () => {
    for (const p of DNS_PROVIDERS) {
      if (p.docs !== undefined) assert.match(p.docs, /^https:\/\/\S+$/, `${p.id}.docs`);
      for (const [key, fact] of Object.entries(p.hints) as [string, DocumentedFact | undefined][]) {
        if (fact === undefined) continue;
        assert.match(fact.source, /^https:\/\/\S+$/, `${p.id}.hints.${key}.source`);
        assert.ok(fact.note.trim().length > 0, `${p.id}.hints.${key}.note`);
      }
    }
  });

  test('Cloudflare CNAMEs must be DNS only and Auto TTL is 300 s', () => {
    const cf = provider('cloudflare');
    assert.equal(cf.hints.cnameProxy?.requiredSetting, 'DNS only');
    assert.equal(cf.hints.ttl?.autoSeconds, 300);
  });

  test('Namecheap appends the zone to the host field', () => {
    assert.equal(provider('namecheap').hints.hostField?.appendsZone, true);
  });
});
