// The verification settings of `loadConfig`: DNS_RESOLVERS takes every form README documents,
// and a bad entry stops start-up with a message naming the variable and the entry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';
import { createResolver } from './verify/resolver.js';

const resolvers = (value: string) => loadConfig({ DNS_RESOLVERS: value }).verification.resolvers;

test('DNS_RESOLVERS: the system resolvers when unset', () => {
  assert.deepEqual(resolvers(''), []);
});

test('DNS_RESOLVERS: ip, ip:port, [ipv6] and [ipv6]:port', () => {
  assert.deepEqual(resolvers('192.0.2.53, 192.0.2.54:5353,[2001:db8::53]:53,[::1]'), [
    '192.0.2.53',
    '192.0.2.54:5353',
    '[2001:db8::53]:53',
    '[::1]',
  ]);
});

test('regression: DNS_RESOLVERS takes a bare IPv6 address', () => {
  assert.deepEqual(resolvers('::1'), ['::1']);
  assert.deepEqual(resolvers('2001:db8::53,127.0.0.1'), ['2001:db8::53', '127.0.0.1']);
});

test('every accepted form is one the resolver takes', () => {
  const servers = resolvers('192.0.2.53,192.0.2.54:5353,::1,[2001:db8::53],[2001:db8::54]:5353');
  assert.doesNotThrow(() => createResolver({ servers, timeoutMs: 100, tries: 1, concurrency: 1 }));
});

test('DNS_RESOLVERS: a bad entry is named with what is wrong with it', () => {
  for (const [value, problem] of [
    ['dns.google', /"dns.google" is not an IP address/],
    ['dns.google:53', /"dns.google:53" has "dns.google" before the port, which is not an IPv4/],
    [
      '2001:db8::53::1',
      /"2001:db8::53::1" is not an IPv6 address \(write one with a port as \[ipv6\]:port\)/,
    ],
    ['[192.0.2.53]:53', /"192.0.2.53" in brackets, which is not an IPv6 address/],
    ['[::1]:0', /"\[::1\]:0" has port "0", which is not from 1 to 65535/],
    ['127.0.0.1:65536', /has port "65536"/],
    ['127.0.0.1:dns', /has port "dns"/],
    ['127.0.0.1,', /"" is empty/],
  ] as const) {
    assert.throws(
      () => resolvers(value),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message.startsWith(
          'DNS_RESOLVERS must be a comma-separated list of ip, ip:port or [ipv6]:port',
        ) &&
        problem.test(error.message),
      value,
    );
  }
});

test('VERIFY_AUTHORITATIVE: on unless set to false', () => {
  assert.equal(loadConfig({}).verification.authoritative, true);
  assert.equal(loadConfig({ VERIFY_AUTHORITATIVE: 'false' }).verification.authoritative, false);
  assert.throws(() => loadConfig({ VERIFY_AUTHORITATIVE: 'maybe' }), ConfigError);
});

test('DB_PREPARED_STATEMENTS: named statements by default, text when false, anything else refused', () => {
  assert.equal(loadConfig({}).dbPreparedStatements, true);
  assert.equal(loadConfig({ DB_PREPARED_STATEMENTS: 'false' }).dbPreparedStatements, false);
  assert.throws(
    () => loadConfig({ DB_PREPARED_STATEMENTS: 'off' }),
    /DB_PREPARED_STATEMENTS must be true or false/,
  );
});
