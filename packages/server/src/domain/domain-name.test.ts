import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_DOMAIN_LENGTH, normalizeDomainName, organisationalDomain } from './domain-name.js';

const accepted: [input: string, normalized: string][] = [
  ['example.com', 'example.com'],
  ['  Example.COM.  ', 'example.com'],
  ['mail.example.com', 'mail.example.com'],
  ['a.b.c.example.co.uk', 'a.b.c.example.co.uk'],
  ['Bücher.de', 'xn--bcher-kva.de'],
  ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ['ｅｘａｍｐｌｅ。com', 'example.com'],
  ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
  ['example.test', 'example.test'],
  ['1-2-3.example.org', '1-2-3.example.org'],
  ['ab--cd.example.com', 'ab--cd.example.com'],
  ['foo.github.io', 'foo.github.io'],
  ['123.example.com', '123.example.com'],
];

const rejected: [input: string, code: string][] = [
  ['', 'DOMAIN_EMPTY'],
  ['   ', 'DOMAIN_EMPTY'],
  ['.', 'DOMAIN_INVALID_LABEL'],
  ['localhost', 'DOMAIN_SINGLE_LABEL'],
  ['com', 'DOMAIN_SINGLE_LABEL'],
  ['co.uk', 'DOMAIN_PUBLIC_SUFFIX'],
  ['github.io', 'DOMAIN_PUBLIC_SUFFIX'],
  ['*.example.com', 'DOMAIN_WILDCARD'],
  ['a.*.com', 'DOMAIN_WILDCARD'],
  ['192.0.2.1', 'DOMAIN_IP_ADDRESS'],
  ['2001:db8::1', 'DOMAIN_IP_ADDRESS'],
  ['[2001:db8::1]', 'DOMAIN_IP_ADDRESS'],
  ['a.123', 'DOMAIN_INVALID_LABEL'],
  ['ex..com', 'DOMAIN_INVALID_LABEL'],
  ['.example.com', 'DOMAIN_INVALID_LABEL'],
  ['example.com..', 'DOMAIN_INVALID_LABEL'],
  ['-a.com', 'DOMAIN_INVALID_LABEL'],
  ['a-.com', 'DOMAIN_INVALID_LABEL'],
  ['xn--zz.com', 'DOMAIN_INVALID_LABEL'],
  [`${'a'.repeat(64)}.com`, 'DOMAIN_INVALID_LABEL'],
  ['a_b.example.com', 'DOMAIN_INVALID_CHARACTER'],
  ['_dmarc.example.com', 'DOMAIN_INVALID_CHARACTER'],
  ['a b.com', 'DOMAIN_INVALID_CHARACTER'],
  ['a%41.com', 'DOMAIN_INVALID_CHARACTER'],
  ['a/b.com', 'DOMAIN_INVALID_CHARACTER'],
  ['user@example.com', 'DOMAIN_INVALID_CHARACTER'],
  ['https://example.com', 'DOMAIN_INVALID_CHARACTER'],
  ['exa\u0000mple.com', 'DOMAIN_INVALID_CHARACTER'],
  ['exa\u200bmple.com', 'DOMAIN_INVALID_CHARACTER'],
  ['<script>.com', 'DOMAIN_INVALID_CHARACTER'],
  ['mail.localhost', 'DOMAIN_RESERVED'],
  ['printer.local', 'DOMAIN_RESERVED'],
  ['x.invalid', 'DOMAIN_RESERVED'],
  ['1.0.0.127.in-addr.arpa', 'DOMAIN_RESERVED'],
  ['x'.repeat(2000), 'DOMAIN_TOO_LONG'],
];

describe('normalizeDomainName', () => {
  for (const [input, expected] of accepted) {
    test(`accepts ${JSON.stringify(input)} as ${expected}`, () => {
      assert.deepEqual(normalizeDomainName(input), { ok: true, name: expected });
    });
  }
  for (const [input, code] of rejected) {
    test(`rejects ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)} with ${code}`, () => {
      const result = normalizeDomainName(input);
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.code, code);
      assert.ok(!result.ok && result.message.length > 10, 'the message explains the problem');
    });
  }

  test('leaves room for the DKIM record name within 253 characters', () => {
    const labels = (length: number) => {
      const parts: string[] = [];
      let left = length - 4; // ".com"
      while (left > 0) {
        const size = Math.min(63, left);
        parts.push('a'.repeat(size));
        left -= size + 1;
      }
      return `${parts.join('.')}.com`;
    };
    const longest = labels(MAX_DOMAIN_LENGTH);
    assert.equal(longest.length, MAX_DOMAIN_LENGTH);
    assert.deepEqual(normalizeDomainName(longest), { ok: true, name: longest });
    assert.equal(`${'t'.repeat(32)}._domainkey.${longest}`.length, 253);
    const tooLong = labels(MAX_DOMAIN_LENGTH + 1);
    const result = normalizeDomainName(tooLong);
    assert.equal(!result.ok && result.code, 'DOMAIN_TOO_LONG');
  });

  test('a name over the limit is DOMAIN_TOO_LONG with the same message at every length', () => {
    // Over 1024 characters the guard answered "at most 209" without the reason, and between
    // 210 and 1024 a too-long label made it DOMAIN_INVALID_LABEL instead.
    for (const length of [210, 300, 1024, 1025, 5000]) {
      const name = `${'a'.repeat(length - 4)}.com`;
      assert.deepEqual(normalizeDomainName(name), {
        ok: false,
        code: 'DOMAIN_TOO_LONG',
        message: `domain is ${length} characters; at most ${MAX_DOMAIN_LENGTH} are allowed so that its DKIM record names stay within 253`,
      });
    }
  });

  test('names the offending character in the message', () => {
    const result = normalizeDomainName('exa$mple.com');
    assert.match(!result.ok ? result.message : '', /"\$" \(U\+0024\)/);
  });

  test('refuses labels that mix scripts, in Unicode or A-label form (UTS #39 Highly Restrictive)', () => {
    // `аpple.com` with a Cyrillic а was accepted: the homograph of a brand.
    const refused: [string, string][] = [
      ['аpple.com', 'label "аpple" mixes Cyrillic and Latin letters'],
      ['xn--pple-43d.com', 'label "аpple" mixes Cyrillic and Latin letters'],
      ['mail.ρaypal.com', 'label "ρaypal" mixes Greek and Latin letters'],
      ['аβ.example', 'label "аβ" mixes Cyrillic and Greek letters'],
    ];
    for (const [input, message] of refused) {
      const result = normalizeDomainName(input);
      assert.equal(!result.ok && result.code, 'DOMAIN_MIXED_SCRIPTS', input);
      assert.match(!result.ok ? result.message : '', new RegExp(message), input);
    }
  });

  test('accepts single-script labels and the mixes people write (Japanese, Chinese, Korean with Latin)', () => {
    for (const [input, name] of [
      ['bücher.de', 'xn--bcher-kva.de'],
      ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
      ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
      ['mail日本語のテスト.jp', undefined],
      ['한국abc漢字.kr', undefined],
      ['σοφία.gr', undefined],
      ['münchen-2.de', undefined],
      ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ] as const) {
      const result = normalizeDomainName(input);
      assert.ok(result.ok, `${input}: ${!result.ok && result.message}`);
      if (name) assert.equal(result.name, name);
    }
  });
});

// Regression (issue 36): only the list's ICANN section was read, so under a private suffix the
// inherited DMARC policy was looked up at the suffix itself (eu.org), which no customer owns
describe('organisationalDomain', () => {
  test('reads the whole Public Suffix List, its private section too, as registration does', () => {
    assert.equal(organisationalDomain('mail.example.co.uk'), 'example.co.uk');
    assert.equal(organisationalDomain('mail.foo.eu.org'), 'foo.eu.org');
    assert.equal(organisationalDomain('news.shop.github.io'), 'shop.github.io');
    assert.equal(organisationalDomain('example.com'), 'example.com');
  });
});
