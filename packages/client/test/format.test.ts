/**
 * sendctl's text about where a domain's DNS is hosted (`domains records`), from results the
 * server's own view builds (no hand-kept fixture to drift from the API).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshRecord, type StoredDomain } from '../../server/src/domain/model.js';
import { domainView } from '../../server/src/domain/records.js';
import { providerLines, zoneLines } from '../src/cli/format.js';
import type { DomainResult } from '../src/client.js';

const settings = { providerHost: 'provider.test', dmarcPolicy: 'v=DMARC1; p=none;' };
const viewOf = (dnsProviders: string[], zone: string | null = 'example.com') => {
  const domain: StoredDomain = {
    id: 'dom_1',
    accountId: 'acc_1',
    name: 'mail.example.com',
    type: 'Transactional',
    status: 'pending',
    createdAt: 0,
    lastCheckedAt: 0,
    nextCheckAt: 0,
    checkCount: 1,
    zone,
    dnsProviders,
    domainConnect: null,
    dkimRotation: { rotatedAt: null, nextRotationAt: null, requestedAt: null },
    records: [freshRecord('dkim', 0, 'a'.repeat(32)), freshRecord('dmarc', 3, null)],
  };
  // the server types a hint's `topic` as a string, the generated client as its literals
  return domainView(domain, settings) as DomainResult;
};
const servedBy = (dnsProviders: string[]) => providerLines(viewOf(dnsProviders));

test('names relative to a zone DNS has not shown are said to be provisional; nothing once it has', () => {
  assert.deepEqual(zoneLines(viewOf([], null)), [
    "Names are relative to example.com until DNS shows mail.example.com's zone; if it is a zone of its own, they change at the next check (--format bind gives full names).",
  ]);
  assert.deepEqual(zoneLines(viewOf([], 'example.com')), []);
});

test('one provider: where the DNS is hosted, then its tips', () => {
  const lines = servedBy(['route53']);
  assert.equal(lines[0], 'DNS hosted at Amazon Route 53:');
  assert.match(
    lines[1]!,
    /^ {2}- Enter the value with its surrounding quotes, as shown\. \(https:\/\/docs\.aws/,
  );
  assert.deepEqual(servedBy([]), [], 'nothing when no provider is known');
});

test('NS1’s names: named for NS1 and for Netlify DNS, which uses them', () => {
  assert.equal(servedBy(['ns1'])[0], 'DNS hosted at IBM NS1 Connect (also used by Netlify DNS):');
});

test('a zone at Route 53 and Cloudflare: both named, the records to add at each, each one’s tips under its name (it named one)', () => {
  const lines = servedBy(['route53', 'cloudflare']);
  assert.equal(
    lines[0],
    'DNS hosted at Amazon Route 53 and Cloudflare: add the records at each (at the primary alone if the others copy the zone from it).',
  );
  const route53 = lines.indexOf('At Amazon Route 53:');
  const cloudflare = lines.indexOf('At Cloudflare:');
  assert.ok(route53 > 0 && cloudflare > route53, lines.join('\n'));
  assert.deepEqual(
    lines.slice(route53 + 1, cloudflare).map((l) => l.replace(/ \(https:.*\)$/, '')),
    ['  - Enter the value with its surrounding quotes, as shown.'],
  );
  const cloudflareTips = lines.slice(cloudflare + 1).join('\n');
  assert.match(cloudflareTips, /proxy status to “DNS only”/);
  assert.match(cloudflareTips, /Paste the value without its surrounding quotes; Cloudflare adds them\./);
  assert.equal(
    servedBy(['route53', 'cloudflare', 'ns1'])[0]?.startsWith(
      'DNS hosted at Amazon Route 53, Cloudflare and IBM NS1',
    ),
    true,
  );
});
