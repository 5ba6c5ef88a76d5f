/** Server cookies as RFC 9018 builds and checks them, on a clock the test sets. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cookieSecret, parseCookie, ServerCookies } from './cookie.js';

const hex = (text: string) => Buffer.from(text, 'hex');
const at = (seconds: number) => () => seconds * 1000;

// RFC 9018 Appendix A: the secret, the client cookie, its address, the time, and the server cookie
const VECTORS = [
  [
    'A.1 a new cookie',
    'e5e973e5a6b2a43f48e7dc849e37bfcf',
    '2464c4abcf10c957',
    '198.51.100.100',
    1559731985,
    '010000005cf79f111f8130c3eee29480',
  ],
  [
    'A.2 renewed for the same client',
    'e5e973e5a6b2a43f48e7dc849e37bfcf',
    '2464c4abcf10c957',
    '198.51.100.100',
    1559734385,
    '010000005cf7a871d4a564a1442aca77',
  ],
  [
    'A.3 renewed for another client',
    'e5e973e5a6b2a43f48e7dc849e37bfcf',
    'fc93fc62807ddb86',
    '203.0.113.203',
    1559734700,
    '010000005cf7a9acf73a7810aca2381e',
  ],
  [
    'A.4 IPv6, a rolled secret',
    '445536bcd2513298075a5d379663c962',
    '22681ab97d52c298',
    '2001:db8:220:1:59de:d0f4:8769:82b8',
    1559741961,
    '010000005cf7c609a6bb79d16625507a',
  ],
] as const;

test('server cookies are RFC 9018’s, byte for byte (Appendix A), and check as valid', () => {
  for (const [name, secret, client, address, now, server] of VECTORS) {
    const cookies = new ServerCookies(hex(secret), at(now));
    assert.equal(cookies.make(hex(client), address).toString('hex'), server, name);
    assert.equal(cookies.isValid(hex(client), hex(server), address), true, name);
    assert.equal(
      cookies.isValid(hex(client), hex(server), '192.0.2.1'),
      false,
      `${name}, from another address`,
    );
    assert.equal(
      cookies.isValid(hex('0000000000000000'), hex(server), address),
      false,
      `${name}, another client cookie`,
    );
  }
  // A.3: the reserved bytes and timestamp the cookie carries enter the hash as they are
  const a3 = new ServerCookies(hex('e5e973e5a6b2a43f48e7dc849e37bfcf'), at(0x5cf78f71));
  assert.equal(
    a3.isValid(hex('fc93fc62807ddb86'), hex('01abcdef5cf78f71a314227b6679ebf5'), '203.0.113.203'),
    true,
  );
  // an IPv6 address with an IPv4 tail is its 16 bytes, the same as in hex (the responder hands
  // IPv4-mapped addresses over as IPv4)
  const [, secret, client, , now] = VECTORS[0];
  const cookies = new ServerCookies(hex(secret), at(now));
  assert.notEqual(cookies.make(hex(client), '::ffff:198.51.100.100').toString('hex'), VECTORS[0][5]);
  assert.equal(
    cookies.make(hex(client), '::ffff:198.51.100.100').toString('hex'),
    cookies.make(hex(client), '::ffff:c633:6464').toString('hex'),
  );
});

test('a server cookie is valid from 5 minutes before its timestamp to an hour after (RFC 9018 §4.3), across the 2^32 wrap', () => {
  const secret = hex('e5e973e5a6b2a43f48e7dc849e37bfcf');
  const client = hex('2464c4abcf10c957');
  for (const [stamped, now, valid] of [
    [1559731985, 1559731985 + 3600, true],
    [1559731985, 1559731985 + 3601, false],
    [1559731985, 1559731985 - 300, true],
    [1559731985, 1559731985 - 301, false],
    // stamped just before the 32-bit timestamp wraps, checked just after
    [2 ** 32 - 100, 2 ** 32 + 1000, true],
    [2 ** 32 - 100, 2 ** 32 + 3501, false],
  ] as const) {
    const server = new ServerCookies(secret, at(stamped)).make(client, '192.0.2.1');
    assert.equal(
      new ServerCookies(secret, at(now)).isValid(client, server, '192.0.2.1'),
      valid,
      `${stamped} at ${now}`,
    );
  }
  const server = new ServerCookies(secret, at(1559731985)).make(client, '192.0.2.1');
  const checker = new ServerCookies(secret, at(1559731985));
  const other = Buffer.from(server);
  other[0] = 2;
  assert.equal(checker.isValid(client, other, '192.0.2.1'), false, 'another version');
  assert.equal(checker.isValid(client, server.subarray(0, 8), '192.0.2.1'), false, 'another length');
  assert.equal(
    new ServerCookies(hex('00'.repeat(16)), at(1559731985)).isValid(client, server, '192.0.2.1'),
    false,
    'another secret',
  );
});

test('COOKIE option lengths: 8, or 16 to 40; anything else is malformed (RFC 7873 §5.2.2)', () => {
  for (const length of [0, 1, 7, 9, 15, 41, 64])
    assert.equal(parseCookie(Buffer.alloc(length)), 'malformed', `${length}`);
  for (const length of [8, 16, 24, 40]) {
    const cookie = parseCookie(Buffer.alloc(length, 1));
    assert.ok(cookie !== 'malformed');
    assert.equal(cookie.client.length, 8);
    assert.equal(cookie.server?.length, length === 8 ? undefined : length - 8);
  }
});

test('the cookie secret is derived from SECRET_KEY: the same key, the same secret, and never the key', () => {
  const key = hex('11'.repeat(32));
  assert.deepEqual(cookieSecret(key), cookieSecret(Buffer.from(key)));
  assert.equal(cookieSecret(key).length, 16);
  assert.notDeepEqual(cookieSecret(key), cookieSecret(hex('22'.repeat(32))));
  assert.ok(!key.includes(cookieSecret(key)));
  assert.throws(() => new ServerCookies(Buffer.alloc(32)), RangeError);
});
