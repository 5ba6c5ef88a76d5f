/**
 * The record checks against a declarative zone (the `resolver` contract of dns.resolve),
 * so every rule is pinned without I/O; `verification.test.ts` runs them against real BIND.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCname, checkDmarc } from './check-records.js';
import type { DnsResolve } from './resolver.js';

type Zone = Record<string, { CNAME?: string[]; TXT?: string[][] } | { error: string }>;

function zoneResolver(zone: Zone): DnsResolve {
  return (async (name: string, rrtype: 'CNAME' | 'TXT') => {
    const node = zone[name];
    const fail = (code: string) => Object.assign(new Error(code), { code });
    if (node === undefined) throw fail('ENOTFOUND');
    if ('error' in node) throw fail(node.error);
    const answers = node[rrtype];
    if (answers === undefined) throw fail('ENODATA');
    return answers;
  }) as DnsResolve;
}

const record = { fqdn: 'sel._domainkey.example.test', target: 'sel.dkim.provider.test' };

test('DKIM: a CNAME to the target matches, case and final dot aside', async () => {
  const resolve = zoneResolver({ [record.fqdn]: { CNAME: ['SEL.DKIM.Provider.Test.'] } });
  assert.deepEqual(await checkCname(record, resolve), { outcome: 'match' });
});

test('DKIM: NXDOMAIN is not_found, another target is wrong_value with the target found', async () => {
  assert.equal(((await checkCname(record, zoneResolver({}))) as { reason: string }).reason, 'not_found');
  const wrong = await checkCname(record, zoneResolver({ [record.fqdn]: { CNAME: ['other.example'] } }));
  assert.deepEqual(wrong.outcome === 'miss' && [wrong.reason, wrong.found], ['wrong_value', 'other.example']);
});

test('DKIM: a TXT where the CNAME belongs is wrong_type, showing the TXT', async () => {
  const result = await checkCname(
    record,
    zoneResolver({ [record.fqdn]: { TXT: [['v=DKIM1; k=rsa; ', 'p=MIIB']] } }),
  );
  assert.deepEqual(result.outcome === 'miss' && [result.reason, result.found], [
    'wrong_type',
    'TXT "v=DKIM1; k=rsa; p=MIIB"',
  ]);
});

test('DKIM and DMARC: timeouts, SERVFAIL and REFUSED are errors, never misses', async () => {
  for (const code of ['ETIMEOUT', 'ESERVFAIL', 'EREFUSED', 'ECONNREFUSED']) {
    const resolve = zoneResolver({ [record.fqdn]: { error: code }, '_dmarc.example.test': { error: code } });
    assert.equal((await checkCname(record, resolve)).outcome, 'error');
    assert.equal((await checkDmarc('_dmarc.example.test', resolve)).outcome, 'error');
  }
});

test('DMARC: one valid record matches; strings of one record are joined', async () => {
  const resolve = zoneResolver({
    '_dmarc.example.test': { TXT: [['v=DMARC1; ', 'p=reject;'], ['unrelated']] },
  });
  assert.deepEqual(await checkDmarc('_dmarc.example.test', resolve), { outcome: 'match' });
});

test('DMARC: missing, empty, invalid and duplicated records', async () => {
  const cases: [Zone, string][] = [
    [{}, 'not_found'],
    [{ '_dmarc.example.test': { CNAME: ['x.example'] } }, 'not_found'],
    [{ '_dmarc.example.test': { TXT: [] } }, 'not_found'],
    [{ '_dmarc.example.test': { TXT: [['v=DMARC1; p=sometimes']] } }, 'wrong_value'],
    [{ '_dmarc.example.test': { TXT: [['v=DMARC1; p=none'], ['v=DMARC1; p=reject']] } }, 'wrong_value'],
  ];
  for (const [zone, reason] of cases) {
    const result = await checkDmarc('_dmarc.example.test', zoneResolver(zone));
    assert.equal(result.outcome === 'miss' && result.reason, reason, JSON.stringify(zone));
  }
});
