import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeDmarcRecords, parseDmarc } from './dmarc.js';

describe('parseDmarc', () => {
  const valid = [
    'v=DMARC1; p=none;',
    'v=DMARC1; p=none',
    'v=DMARC1;p=reject',
    'v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com,mailto:e@example.net!10m; adkim=s; aspf=r; fo=1:d',
    'v=DMARC1; p=REJECT; sp=none; ri=3600; rf=afrf',
    'v=DMARC1; p=none; unknowntag=whatever',
    'V=DMARC1; P=reject; RUA=mailto:d@example.com',
  ];
  for (const txt of valid) test(`accepts ${txt}`, () => assert.equal(parseDmarc(txt).ok, true));

  test('a record without p but with a valid rua is p=none (RFC 7489 §6.6.3 step 6.1)', () => {
    const result = parseDmarc('v=DMARC1; rua=mailto:a@example.test');
    assert.deepEqual(result.ok && result.record, {
      p: 'none',
      tags: { v: 'DMARC1', rua: 'mailto:a@example.test' },
      warnings: [],
    });
  });

  test('a report address that is not a URI is a warning: receivers skip it and apply the policy (§6.2)', () => {
    const result = parseDmarc('v=DMARC1; p=none; rua=dmarc@example.com');
    assert.equal(result.ok, true);
    assert.match(
      (result.ok && result.record.warnings[0]) || '',
      /^rua: "dmarc@example\.com" is not a report URI/,
    );
  });

  const invalid: [string, RegExp][] = [
    ['v=DMARC2; p=none', /start with v=DMARC1/],
    ['p=none; v=DMARC1', /start with v=DMARC1/],
    ['v=dmarc1; p=none', /start with v=DMARC1/],
    ['v=DMARC1', /required tag p/],
    ['v=DMARC1; ruf=mailto:a@example.test', /required tag p/],
    ['v=DMARC1; rua=a@example.test', /required tag p.*no valid rua/],
    ['v=DMARC1; p=block; rua=mailto:a@example.test', /p=block/],
    ['v=DMARC1; p=block', /p=block/],
    ['v=DMARC1; p=none; p=reject', /appears twice/],
    ['v=DMARC1; p=none; pct=150', /pct/],
    ['v=DMARC1; p=none; adkim=x', /adkim/],
    ['v=DMARC1; p=none; garbage', /tag=value/],
    ['', /start with v=DMARC1|tag=value/],
  ];
  for (const [txt, problem] of invalid) {
    test(`rejects ${JSON.stringify(txt)}`, () => {
      const result = parseDmarc(txt);
      assert.equal(result.ok, false);
      assert.match(!result.ok ? result.problem : '', problem);
    });
  }
});

describe('judgeDmarcRecords', () => {
  test('one valid record among unrelated TXT records is valid', () => {
    assert.deepEqual(judgeDmarcRecords(['google-site-verification=abc', 'v=DMARC1; p=none;']), {
      valid: true,
      record: 'v=DMARC1; p=none;',
      policy: 'none',
      subdomainPolicy: null,
      reportDomains: [],
      warnings: [],
    });
  });
  test('no records: not_found', () => {
    const result = judgeDmarcRecords([]);
    assert.equal(result.valid === false && result.reason, 'not_found');
  });
  test('only unrelated TXT: wrong_value with what was found', () => {
    const result = judgeDmarcRecords(['hello']);
    assert.deepEqual(result.valid === false && [result.reason, result.found], ['wrong_value', 'hello']);
  });
  test('regression: the tag name v is case-insensitive, its value DMARC1 is not (RFC 7489 §6.4)', () => {
    assert.deepEqual(judgeDmarcRecords(['V=DMARC1; p=none']), {
      valid: true,
      record: 'V=DMARC1; p=none',
      policy: 'none',
      subdomainPolicy: null,
      reportDomains: [],
      warnings: [],
    });
    const lower = judgeDmarcRecords(['v=dmarc1; p=none']);
    assert.match(lower.valid === false ? lower.detail : '', /v=DMARC1 in capitals/);
  });
  test('sp= and the report domains come with a valid record', () => {
    const result = judgeDmarcRecords([
      'v=DMARC1; p=reject; sp=QUARANTINE; rua=mailto:a@Example.test!10m, mailto:b@example.test,https://r.test/x',
    ]);
    assert.deepEqual(result.valid && [result.subdomainPolicy, result.reportDomains], [
      'quarantine',
      ['example.test'],
    ]);
  });
  // Regression (issue 36): it said only "not DMARC records (v=DMARC1)"
  test('v=DMARC1 after another tag: told it must come first', () => {
    const result = judgeDmarcRecords(['p=reject; v=DMARC1']);
    assert.deepEqual(result.valid === false && [result.reason, result.detail], [
      'wrong_value',
      'v=DMARC1 must come first in the record; receivers ignore a record where another tag comes before it',
    ]);
  });
  test('regression: a reporting-only record (v and rua, no p) is valid', () => {
    assert.equal(judgeDmarcRecords(['v=DMARC1; rua=mailto:a@example.test']).valid, true);
  });
  test('two DMARC records: invalid even if both parse (RFC 7489 §6.6.3)', () => {
    const result = judgeDmarcRecords(['v=DMARC1; p=none', 'v=DMARC1; p=reject']);
    assert.equal(result.valid, false);
    assert.match(result.valid === false ? result.detail : '', /2 DMARC records/);
  });
  test('a DMARC record that does not parse: wrong_value with the problem', () => {
    const result = judgeDmarcRecords(['v=DMARC1; p=maybe']);
    assert.deepEqual(result.valid === false && [result.reason, result.found], [
      'wrong_value',
      'v=DMARC1; p=maybe',
    ]);
  });
});
