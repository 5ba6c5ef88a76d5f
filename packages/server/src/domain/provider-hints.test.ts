import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  providerById,
  providersById,
  providersHints,
  type RecordToEnter,
  recordHints,
} from './provider-hints.js';

const zone = 'example.com';
const cname: RecordToEnter = {
  type: 'CNAME',
  name: 'tok1._domainkey.mail',
  fqdn: 'tok1._domainkey.mail.example.com',
  value: 'tok1.dkim.sender.example',
  zone,
};
const txt: RecordToEnter = {
  type: 'TXT',
  name: '_dmarc.mail',
  fqdn: '_dmarc.mail.example.com',
  value: '"v=DMARC1; p=none;"',
  zone,
};
const texts = (id: string, record: RecordToEnter) =>
  recordHints(providerById(id)!, record).map((h) => h.text);

test('a provider that appends the zone is told the relative name, and what pasting the full one makes', () => {
  assert.deepEqual(texts('namecheap', cname), [
    'Enter the name as tok1._domainkey.mail: Namecheap adds example.com itself, so the full name would end up as tok1._domainkey.mail.example.com.example.com.',
  ]);
});

test('Cloudflare: the proxy off for CNAMEs only, no quotes for TXT, and its Auto TTL', () => {
  assert.deepEqual(
    recordHints(providerById('cloudflare')!, cname).map((h) => h.topic),
    ['name', 'proxy', 'ttl'],
  );
  assert.deepEqual(
    recordHints(providerById('cloudflare')!, txt).map((h) => h.topic),
    ['name', 'quotes', 'ttl'],
  );
  const forCname = texts('cloudflare', cname);
  assert.ok(forCname.some((t) => t.startsWith('Set the proxy status to “DNS only”')));
  assert.ok(forCname.some((t) => t.includes('“Auto” (300 seconds')));
  const forTxt = texts('cloudflare', txt);
  assert.ok(!forTxt.some((t) => t.includes('proxy')));
  assert.ok(forTxt.includes('Paste the value without its surrounding quotes; Cloudflare adds them.'));
});

test('Route 53 wants the quotes; OVHcloud wants a final dot on CNAME targets and warns of long TXT values', () => {
  assert.ok(texts('route53', txt).includes('Enter the value with its surrounding quotes, as shown.'));
  assert.ok(
    texts('ovh', cname).includes(
      'End the target with a dot (tok1.dkim.sender.example.): without it OVHcloud adds example.com to it.',
    ),
  );
  assert.deepEqual(texts('ovh', txt), [], 'a short DMARC value is within the 255 characters');
  const long = { ...txt, value: `"v=DMARC1; p=none; rua=${'mailto:a@example.com,'.repeat(20)}"` };
  assert.match(texts('ovh', long).join(' '), /more than the 255 OVHcloud's form takes/);
});

test('every hint carries its documentation page; a provider whose docs are silent gives none', () => {
  for (const id of ['cloudflare', 'route53', 'godaddy', 'namecheap', 'azure', 'ovh', 'hetzner', 'ns1'])
    for (const record of [cname, txt])
      for (const hint of recordHints(providerById(id)!, record)) {
        assert.match(hint.source, /^https:\/\//);
        assert.equal(hint.provider, id, 'each hint says whose it is');
      }
  assert.deepEqual(recordHints(providerById('vercel')!, cname), []);
  assert.equal(providerById('no-such-provider'), null);
  assert.equal(providerById(null), null);
});

test('NS1: the name without the zone and the default TTL, from NS1’s own page', () => {
  assert.deepEqual(texts('ns1', txt), [
    'Enter the name as _dmarc.mail, without example.com.',
    'The default TTL (3600 seconds) is fine.',
  ]);
  for (const hint of recordHints(providerById('ns1')!, cname))
    assert.match(hint.source, /^https:\/\/help\.ns1\.com\//);
});

test('a domain stored as Netlify (NS1’s names, before issue 36) reads as NS1', () => {
  assert.equal(providerById('netlify'), providerById('ns1'));
  assert.deepEqual(
    providersById(['netlify', 'ns1', 'no-such-provider', 'cloudflare']).map((p) => p.id),
    ['ns1', 'cloudflare'],
  );
});

test('a zone at Route 53 and Cloudflare: each provider’s hints, Route 53’s first, each saying whose', () => {
  const hints = providersHints(providersById(['route53', 'cloudflare']), txt);
  assert.deepEqual(
    hints.map((h) => [h.provider, h.topic]),
    [
      ['route53', 'quotes'],
      ['cloudflare', 'name'],
      ['cloudflare', 'quotes'],
      ['cloudflare', 'ttl'],
    ],
  );
  assert.deepEqual(providersHints([], txt), []);
});
