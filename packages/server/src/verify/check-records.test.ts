/**
 * The record checks against a declarative zone (the `resolver` contract of dns.resolve),
 * so every rule is pinned without I/O; `verification.test.ts` runs them against real BIND.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCname, checkDmarc, checkRecords, type ExpectedRecord } from './check-records.js';
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
  assert.deepEqual(await checkDmarc('_dmarc.example.test', resolve), {
    outcome: 'match',
    found: null,
    detail: null,
  });
});

test('DMARC: a name without a record inherits its organisational domain’s policy, as receivers do (RFC 7489 §6.6.3)', async () => {
  const zone: Zone = { '_dmarc.example.test': { TXT: [['v=DMARC1; p=reject']] } };
  const result = await checkDmarc('_dmarc.mail.example.test', zoneResolver(zone), '_dmarc.example.test');
  assert.equal(result.outcome, 'match');
  assert.equal(result.outcome === 'match' && result.found, 'v=DMARC1; p=reject');
  assert.match(
    (result.outcome === 'match' && result.detail) || '',
    /^no DMARC record at _dmarc\.mail\.example\.test; receivers apply the policy of _dmarc\.example\.test \(p=reject\)/,
  );
});

test('DMARC: no inheritance past a record of the name’s own, nor from an organisational domain without one', async () => {
  const own: Zone = {
    '_dmarc.mail.example.test': { TXT: [['v=DMARC1; p=maybe']] },
    '_dmarc.example.test': { TXT: [['v=DMARC1; p=reject']] },
  };
  const broken = await checkDmarc('_dmarc.mail.example.test', zoneResolver(own), '_dmarc.example.test');
  assert.equal(broken.outcome === 'miss' && broken.reason, 'wrong_value');
  const neither = await checkDmarc('_dmarc.mail.example.test', zoneResolver({}), '_dmarc.example.test');
  assert.equal(
    neither.outcome === 'miss' && neither.detail,
    'no DMARC record at _dmarc.mail.example.test; add the TXT record shown',
  );
});

test('DMARC: an organisational domain that does not answer leaves the status alone (never advise p=none blind)', async () => {
  const zone: Zone = { '_dmarc.example.test': { error: 'ETIMEOUT' } };
  const result = await checkDmarc('_dmarc.mail.example.test', zoneResolver(zone), '_dmarc.example.test');
  assert.equal(result.outcome, 'error');
  assert.match((result.outcome === 'error' && result.detail) || '', /asking _dmarc\.example\.test/);
});

test('DMARC: literal quotation marks and a lower-case version are named as the problem', async () => {
  const quoted = await checkDmarc(
    '_dmarc.example.test',
    zoneResolver({ '_dmarc.example.test': { TXT: [['"v=DMARC1; p=none;"']] } }),
  );
  assert.match((quoted.outcome === 'miss' && quoted.detail) || '', /remove the quotation marks/);
  const lower = await checkDmarc(
    '_dmarc.example.test',
    zoneResolver({ '_dmarc.example.test': { TXT: [['v=dmarc1; p=none']] } }),
  );
  assert.match((lower.outcome === 'miss' && lower.detail) || '', /v=DMARC1 in capitals/);
});

test('DMARC: a report address without mailto: verifies, with a warning that reports are lost', async () => {
  const result = await checkDmarc(
    '_dmarc.example.test',
    zoneResolver({ '_dmarc.example.test': { TXT: [['v=DMARC1; p=quarantine; rua=dmarc@example.test']] } }),
  );
  assert.equal(result.outcome, 'match');
  assert.match(
    (result.outcome === 'match' && result.detail) || '',
    /^rua: .*mailto:.*no reports will arrive$/,
  );
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

test('DKIM: a record published with the zone doubled, or on the parent domain, is found and named', async () => {
  const misplaced = [
    { fqdn: `${record.fqdn}.example.test`, why: 'zone added twice' },
    { fqdn: 'sel._domainkey.test', why: 'on the parent' },
  ];
  for (const at of misplaced) {
    const resolve = zoneResolver({ [at.fqdn]: { CNAME: [record.target] } });
    const result = await checkCname({ ...record, misplaced }, resolve);
    assert.deepEqual(result.outcome === 'miss' && [result.reason, result.found, result.detail], [
      'not_found',
      `${at.fqdn} CNAME ${record.target}`,
      `no record at ${record.fqdn}, but ${at.fqdn} has the CNAME: ${at.why}`,
    ]);
  }
});

test('DMARC: a record published with the zone doubled is found and named', async () => {
  const at = { fqdn: '_dmarc.example.test.example.test', why: 'zone added twice' };
  const resolve = zoneResolver({ [at.fqdn]: { TXT: [['v=DMARC1; p=none;']] } });
  const result = await checkDmarc('_dmarc.example.test', resolve, undefined, [at]);
  assert.match(
    (result.outcome === 'miss' && result.detail) || '',
    /but _dmarc\.example\.test\.example\.test has one: zone added twice$/,
  );
});

test('a correct record costs one query: the misplaced names are asked only when it is missing', async () => {
  const asked: string[] = [];
  const inner = zoneResolver({ [record.fqdn]: { CNAME: [record.target] } });
  const counting = ((name: string, type: 'CNAME') => {
    asked.push(name);
    return inner(name, type);
  }) as DnsResolve;
  await checkCname({ ...record, misplaced: [{ fqdn: 'elsewhere.example.test', why: 'x' }] }, counting);
  assert.deepEqual(asked, [record.fqdn]);
});

test('DKIM: a chain of CNAMEs through the customer’s own alias that ends at the target matches, with a note', async () => {
  const resolve = zoneResolver({
    [record.fqdn]: { CNAME: ['alias.example.test'] },
    'alias.example.test': { CNAME: ['alias2.example.net.'] },
    'alias2.example.net': { CNAME: [record.target] },
  });
  const result = await checkCname(record, resolve);
  assert.deepEqual(result, {
    outcome: 'match',
    found: `alias.example.test → alias2.example.net → ${record.target}`,
    detail: `the CNAME reaches ${record.target} through 2 more names; receivers follow it`,
  });
});

test('DKIM: a chain that ends elsewhere or breaks stays wrong_value', async () => {
  const zones: Zone[] = [
    { [record.fqdn]: { CNAME: ['a.example.test'] }, 'a.example.test': { CNAME: ['b.example.test'] } },
    { [record.fqdn]: { CNAME: ['a.example.test'] }, 'a.example.test': { error: 'ESERVFAIL' } },
  ];
  for (const zone of zones) {
    const result = await checkCname(record, zoneResolver(zone));
    assert.deepEqual(result.outcome === 'miss' && [result.reason, result.found], [
      'wrong_value',
      'a.example.test',
    ]);
  }
});

// Regression (issue 36): a loop was reported as "the CNAME points to a.example.test", as if
// pointing it elsewhere were the only trouble
test('DKIM: a chain that loops, to itself or back to the record, is named a loop', async () => {
  const zones: Zone[] = [
    { [record.fqdn]: { CNAME: ['a.example.test'] }, 'a.example.test': { CNAME: ['a.example.test'] } },
    { [record.fqdn]: { CNAME: ['a.example.test'] }, 'a.example.test': { CNAME: [record.fqdn] } },
  ];
  const expected = ['a.example.test → a.example.test', `a.example.test → ${record.fqdn}`];
  for (const [i, zone] of zones.entries()) {
    const result = await checkCname(record, zoneResolver(zone));
    assert.ok(result.outcome === 'miss', JSON.stringify(result));
    assert.equal(result.reason, 'wrong_value');
    assert.equal(result.found, expected[i]);
    assert.equal(
      result.detail,
      `the CNAME at ${record.fqdn} starts a loop (${expected[i]}), so receivers find no key; point it to ${record.target}`,
    );
  }
});

test('DKIM: our own key answered at the name (a provider flattening the CNAME) matches, with a note', async () => {
  const ours = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOC';
  const flattened = zoneResolver({
    [record.fqdn]: { TXT: [['v=DKIM1; k=rsa; p=MIIBIjANBgkq', 'hkiG9w0BAQEFAAOC']] },
  });
  const result = await checkCname({ ...record, keyRecord: async () => ours }, flattened);
  assert.equal(result.outcome, 'match');
  assert.match((result.outcome === 'match' && result.detail) || '', /flattens the CNAME/);
  const otherKey = zoneResolver({ [record.fqdn]: { TXT: [['v=DKIM1; k=rsa; p=SOMETHINGELSE']] } });
  const other = await checkCname({ ...record, keyRecord: async () => ours }, otherKey);
  assert.equal(other.outcome === 'miss' && other.reason, 'wrong_type');
});

test('an error from the customer’s own name server is observed with that server, for the persistent-error advice', async () => {
  const resolve = (async () => {
    throw Object.assign(new Error('SERVFAIL'), { code: 'ESERVFAIL', server: 'ns1.example.test (192.0.2.1)' });
  }) as unknown as DnsResolve;
  assert.deepEqual(await checkCname(record, resolve), {
    outcome: 'error',
    detail: 'ns1.example.test (192.0.2.1) answered SERVFAIL',
    server: 'ns1.example.test (192.0.2.1)',
  });
});

test('DKIM: addresses where the CNAME belongs (a proxied record) are named, with what to switch off', async () => {
  const zone = zoneResolver({ [record.fqdn]: {} });
  const proxied = (async (name: string, type: string) => {
    if (type === 'A') return ['104.16.1.1', '104.16.2.2'];
    if (type === 'AAAA') throw Object.assign(new Error('ENODATA'), { code: 'ENODATA' });
    return zone(name, type as 'CNAME');
  }) as DnsResolve;
  const result = await checkCname(record, proxied);
  assert.deepEqual(result.outcome === 'miss' && [result.reason, result.found], [
    'wrong_type',
    'A/AAAA 104.16.1.1 104.16.2.2',
  ]);
  assert.match(
    (result.outcome === 'miss' && result.detail) || '',
    /proxied by your DNS provider .*set it to DNS only/,
  );
});

// Regression (issue 36): with p=reject; sp=none at the organisational domain a subdomain was
// told p=reject applied, while receivers apply none to it
test('DMARC: a subdomain inherits the organisational domain’s sp=, and the note says so', async () => {
  const resolve = zoneResolver({ '_dmarc.example.test': { TXT: [['v=DMARC1; p=reject; sp=none']] } });
  const result = await checkDmarc('_dmarc.mail.example.test', resolve, '_dmarc.example.test');
  assert.equal(result.outcome, 'match');
  assert.equal(
    result.outcome === 'match' && result.detail,
    'no DMARC record at _dmarc.mail.example.test; receivers apply the subdomain policy of _dmarc.example.test (sp=none), which counts',
  );
});

// Regression (issue 36): a report address in another domain that does not take this domain's
// reports (RFC 7489 §7.1) went unmentioned, and no reports ever arrived
test('DMARC: rua in another organisational domain is checked for its authorisation record', async () => {
  const policy = 'v=DMARC1; p=none; rua=mailto:a@example.test,mailto:b@reports.test,mailto:c@vendor.test';
  const resolve = zoneResolver({
    '_dmarc.example.test': { TXT: [[policy]] },
    // the vendor takes reports for everyone (a wildcard, answered here for the name asked)
    'example.test._report._dmarc.vendor.test': { TXT: [['v=DMARC1']] },
  });
  const result = await checkDmarc('_dmarc.example.test', resolve);
  assert.equal(result.outcome, 'match');
  assert.equal(
    result.outcome === 'match' && result.detail,
    'rua: reports.test publishes no example.test._report._dmarc.reports.test record (RFC 7489 §7.1), so receivers send it no reports',
  );
  // a lookup that fails says nothing: advice, never a guess
  const failing = zoneResolver({
    '_dmarc.example.test': { TXT: [[policy]] },
    'example.test._report._dmarc.vendor.test': { TXT: [['v=DMARC1']] },
    'example.test._report._dmarc.reports.test': { error: 'ETIMEOUT' },
  });
  const quiet = await checkDmarc('_dmarc.example.test', failing);
  assert.deepEqual(quiet, { outcome: 'match', found: null, detail: null });
});

test('the misplaced names under one missing name cost one question together (RFC 8020), and are still found when it exists', async () => {
  const within = 'mail.example.test.example.test';
  const doubled = (fqdn: string) => ({ fqdn: `${fqdn}.example.test`, within, why: 'doubled' });
  const expected: ExpectedRecord[] = ['a', 'b'].map((selector) => ({
    kind: 'dkim',
    fqdn: `${selector}._domainkey.mail.example.test`,
    target: `${selector}.dkim.provider.test`,
    misplaced: [doubled(`${selector}._domainkey.mail.example.test`)],
  }));
  expected.push({
    kind: 'dmarc',
    fqdn: '_dmarc.mail.example.test',
    misplaced: [doubled('_dmarc.mail.example.test')],
  });
  const counting = (zone: Zone) => {
    const asked: string[] = [];
    const inner = zoneResolver(zone);
    const resolve = ((name: string, rrtype: 'TXT') => {
      asked.push(name);
      return inner(name, rrtype);
    }) as DnsResolve;
    return { resolve, asked };
  };

  const empty = counting({});
  const misses = await checkRecords(expected, empty.resolve);
  assert.deepEqual(
    misses.map((m) => m.outcome === 'miss' && m.reason),
    ['not_found', 'not_found', 'not_found'],
  );
  assert.deepEqual(
    empty.asked.filter((name) => name.endsWith(within)),
    [within],
    'one question for the name they share, none for each',
  );

  const doubledName = 'a._domainkey.mail.example.test.example.test';
  const pasted = counting({ [within]: {}, [doubledName]: { CNAME: ['a.dkim.provider.test'] } });
  const [found] = await checkRecords(expected, pasted.resolve);
  assert.equal(found!.outcome === 'miss' && found!.found, `${doubledName} CNAME a.dkim.provider.test`);
});
