import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshRecord, type StoredDomain } from './model.js';
import { domainView } from './records.js';
import { NO_SCHEDULED_CHECK } from './verification.js';

const settings = { providerHost: 'provider.test', dmarcPolicy: 'v=DMARC1; p=none;' };
const domain = (name: string): StoredDomain => ({
  id: 'dom_1',
  accountId: 'acc_1',
  name,
  type: 'Transactional',
  status: 'pending',
  createdAt: 0,
  lastCheckedAt: null,
  nextCheckAt: 0,
  checkCount: 0,
  zone: null,
  dnsProviders: [],
  domainConnect: null,
  dkimRotation: { rotatedAt: null, nextRotationAt: null, requestedAt: null },
  records: [
    freshRecord('dmarc', 3, null),
    { ...freshRecord('dkim', 0, 'a'.repeat(32)), status: 'verified' },
    freshRecord('dkim', 1, 'b'.repeat(32)),
    freshRecord('dkim', 2, 'c'.repeat(32)),
  ],
});

test('records are named relative to the parent of the registered domain', () => {
  const view = domainView(domain('mail.example.com'), settings);
  assert.deepEqual(
    view.records.map((r) => [r.name, r.type, r.value, r.record, r.fqdn, r.ttl, r.status]),
    [
      [
        `${'a'.repeat(32)}._domainkey.mail`,
        'CNAME',
        `${'a'.repeat(32)}.dkim.provider.test`,
        'a'.repeat(32),
        `${'a'.repeat(32)}._domainkey.mail.example.com`,
        'Auto',
        'verified',
      ],
      [
        `${'b'.repeat(32)}._domainkey.mail`,
        'CNAME',
        `${'b'.repeat(32)}.dkim.provider.test`,
        'b'.repeat(32),
        `${'b'.repeat(32)}._domainkey.mail.example.com`,
        'Auto',
        'pending',
      ],
      [
        `${'c'.repeat(32)}._domainkey.mail`,
        'CNAME',
        `${'c'.repeat(32)}.dkim.provider.test`,
        'c'.repeat(32),
        `${'c'.repeat(32)}._domainkey.mail.example.com`,
        'Auto',
        'pending',
      ],
      [
        '_dmarc.mail',
        'TXT',
        '"v=DMARC1; p=none;"',
        '"v=DMARC1; p=none;"',
        '_dmarc.mail.example.com',
        'Auto',
        'pending',
      ],
    ],
  );
});

test('names are relative to the zone the customer edits: the apex and deep names too', () => {
  const apex = domainView(domain('example.com'), settings);
  assert.deepEqual(
    [apex.records[3]!.name, apex.records[0]!.name, apex.records[0]!.zone],
    ['_dmarc', `${'a'.repeat(32)}._domainkey`, 'example.com'],
  );
  const deep = domainView(domain('a.b.mail.example.co.uk'), settings);
  assert.deepEqual(
    [deep.records[3]!.name, deep.records[0]!.name, deep.records[0]!.zone],
    ['_dmarc.a.b.mail', `${'a'.repeat(32)}._domainkey.a.b.mail`, 'example.co.uk'],
  );
  for (const view of [apex, deep])
    for (const r of view.records)
      assert.equal(`${r.name}.${r.zone}`, r.fqdn, 'name and zone make the full name');
});

test('a dormant domain (pending past 30 days) shows no next check: only status requests check it', () => {
  const dormant = { ...domain('mail.example.com'), nextCheckAt: NO_SCHEDULED_CHECK };
  assert.equal(domainView(dormant, settings).nextCheckAt, null);
  assert.equal(domainView(domain('mail.example.com'), settings).nextCheckAt, '1970-01-01T00:00:00.000Z');
});

test('a zone DNS showed at the last check names the records (a delegated subdomain is its own zone)', () => {
  const delegated = { ...domain('a.mail.example.com'), zone: 'mail.example.com' };
  const view = domainView(delegated, settings);
  assert.deepEqual([view.records[3]!.name, view.records[3]!.zone], ['_dmarc.a', 'mail.example.com']);
  // a zone above the registrable domain, or not holding the domain, is no zone the customer edits
  for (const zone of ['com', 'other.example.com'])
    assert.equal(
      domainView({ ...domain('a.mail.example.com'), zone }, settings).records[3]!.zone,
      'example.com',
    );
});

test('dkim shows each selector’s role, key age and the rotation plan, in record order', () => {
  const base = domain('mail.example.com');
  const key = (state: 'active' | 'next' | 'retired', since: number | null, createdAt: number) => ({
    state,
    since,
    createdAt,
  });
  const rotated: StoredDomain = {
    ...base,
    dkimRotation: { rotatedAt: 5000, nextRotationAt: 9000, requestedAt: null },
    records: base.records.map((r) =>
      r.position === 0
        ? { ...r, key: key('retired', 5000, 1000) }
        : r.position === 1
          ? { ...r, key: key('active', 5000, 1000) }
          : r.position === 2
            ? { ...r, key: key('next', null, 6000) }
            : r,
    ),
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  assert.deepEqual(domainView(rotated, settings).dkim, {
    selectors: [
      { selector: 'a'.repeat(32), state: 'retired', keyCreatedAt: iso(1000), since: iso(5000) },
      { selector: 'b'.repeat(32), state: 'active', keyCreatedAt: iso(1000), since: iso(5000) },
      { selector: 'c'.repeat(32), state: 'next', keyCreatedAt: iso(6000), since: null },
    ],
    rotatedAt: iso(5000),
    nextRotationAt: iso(9000),
    rotationRequestedAt: null,
  });
});

test('a domain stored before rotation existed (an old webhook snapshot) shows its keys as not known yet', () => {
  const { dkimRotation: _, ...old } = domain('old.example.com');
  const fromSnapshot = JSON.parse(
    JSON.stringify({ ...old, records: old.records.map(({ key: _key, ...r }) => r) }),
  ) as StoredDomain;
  const view = domainView(fromSnapshot, settings);
  assert.deepEqual(
    view.dkim.selectors.map((s) => s.state),
    [null, null, null],
  );
  assert.equal(view.dkim.nextRotationAt, null);
});

test('a zone served by several providers names them all, most name servers first, with each one’s hints', () => {
  const view = domainView(
    { ...domain('mail.example.com'), dnsProviders: ['route53', 'cloudflare'] },
    settings,
  );
  assert.equal(view.provider?.id, 'route53', 'provider: the one most name servers belong to');
  assert.deepEqual(
    view.providers.map((p) => p.id),
    ['route53', 'cloudflare'],
  );
  assert.deepEqual(view.providers[0], view.provider);
  const dmarc = view.records[3]!;
  assert.deepEqual([...new Set(dmarc.providerHints.map((h) => h.provider))], ['route53', 'cloudflare']);
  const none = domainView(domain('mail.example.com'), settings);
  assert.deepEqual([none.provider, none.providers], [null, []]);
});

test('a webhook event queued before migration 0026 (one `dnsProvider`, `netlify` then) still names it', () => {
  const { dnsProviders: _, ...rest } = domain('old.example.com');
  const fromSnapshot = { ...rest, dnsProvider: 'netlify' } as unknown as StoredDomain;
  const view = domainView(fromSnapshot, settings);
  assert.deepEqual(
    view.providers.map((p) => p.id),
    ['ns1'],
  );
  const { dnsProviders: __, ...unknown } = domain('old2.example.com');
  assert.deepEqual(
    domainView({ ...unknown, dnsProvider: null } as unknown as StoredDomain, settings).providers,
    [],
  );
});
