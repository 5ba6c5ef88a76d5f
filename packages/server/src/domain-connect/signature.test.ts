import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { encodeComponent, encodeQuery, signedPart } from './query.js';
import { publicKeyFromRecords, publicKeyRecords, signQuery, verifyQuery } from './signature.js';

/**
 * The Domain Connect example service's demonstration key pair (public test material of
 * Domain-Connect/exampleservice `config.py`, never a production key), its published TXT
 * records, and a signature the DNS-provider library's tests accept
 * (Domain-Connect/DomainConnectApplyZone `test/test_DomainConnect.py`).
 */
const DEMO_PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${[
  'MIIEowIBAAKCAQEA18SgvpmeasN4BHkkv0SBjAzIc4grYLjiAXRtNiBUiGUDMeTzQrKTsWvy9Nux',
  'U1dIHCZy9o1CrKNg5EzLIZLNyMfI6qiXnM+HMd4byp97zs/3D39Q8iR5poubQcRaGozWx8yQpG0O',
  'cVdmEVcTfyR/XSEWC5u16EBNvRnNAOAvZYUdWqVyQvXsjnxQot8KcK0QP8iHpoL/1dbdRy2opRPQ',
  '2FdZpovUgknybq/6FkeDtW7uCQ6Mvu4QxcUa3+WP9nYHKtgWip/eFxpeb+qLvcLHf1h0JXtxLVdy',
  'y6OLk3f2JRYUX2ZZVDvG3biTpeJz6iRzjGg6MfGxXZHjI8weDjXrJwIDAQABAoIBAGiPedJDwXg9',
  'd1i7mCo0OY8z1qPeFh9OGP/Zet8i9bQPN2gjahslTNtK07cDC8C2aFRz8Xw3Ylsk5VxdNobzjFPD',
  'NUM6JhawnvR0jQU5GhdTwoc5DHH7aRRjTP6m938sRx0VrfZwfvJAB09Z4jHX7vyjfvprH9EH8GQ2',
  'L5lACtfnsSASVJB77H1vtgxTnum74CSqIck1MCjPD/TVUtYfMJwkUQWcbk79N4nvnEoagqsDrvw4',
  'okU2OYMWucQjyxfWTU4NGlsDScRbdDAb8sLr3DpMfXM8vpZJ3Ed6gfw14hEJym8XoHwDHmjGmgYH',
  '9iG6MODxuO5TLRmRR6b+jcUV/2kCgYEA4WGsDUO/NIXIqtDm5lTi5qeFl0sGKIgRLGuCrvjLF0Fq',
  '5Yx28wuow3OhZ3rbjlmhf9nUt24nUUY67plv2pi+vx3kVdbcNfk+Wkc0wfx8+U91qaTplMRhNjrn',
  'q/Kp9E7xtnzZRInpUG1Ha5ozTYobVvklUvjodFlF2c16Zz2X2AMCgYEA9RSeZm7oMyJbe985SScX',
  'ruwt5ZXlUBoBLDZAeMloPpaqknFmSVSNgtniywztF8HppJQyiMvmUOUL2tKnuShXwsvTkCTBC/vN',
  'GXutiPS8O2yqeQ8dHoHuKcoMFwgajrbPrVkuFtUkjbQJ/TKoZtrxUdCryDZ/AHmRtiHh9E4NUQ0C',
  'gYAE7ngvSh4y7gJ4Cl4jCBR26492wgN+e4u0px2S6oq3FY1bPHmV09l7fVo4w21ubfOksoV/BgAC',
  'PUEo216hL9psoCDQ6ASlgbCllQ1IeVfatKxka+FYift+jkdnccXaPKf5UD4Iy+O5CMsZRaR9u9nh',
  'S05PxHaBpTpsC5z0CVr7NQKBgQCsBTzpSQ9SVNtBpvzei8Hj1YKhkwTRpG8OSUYXgcbZp4cyIsZY',
  '0jBBmA3H19rSwhjsm9icjAGs5hfcD+AJ5nczEz37/tBBSQw8xsKXTrCQRUWikyktMKWqT1cNE3MQ',
  'mOBMHDxtak2t6KDaR6RMDYE0m/L3JMkf3DSaUk323JIcQQKBgD6lHhw79Cenpezzf0566uWE1QF6',
  'Sv3kWk6Gkzo2jUGmjo2tG1v2Nj82DvcTuqvfUKSr2wTKINxnKGyYXGto0BykdxeFbR04cNcBB46z',
  'Ujasro2ZCvIoAHCpohNBI2dL6dI+RI3jC/KY3jPNI0toaOTWkeAvJ7w09G2ttlv8qLNV',
].join('')}\n-----END RSA PRIVATE KEY-----\n`;
const DEMO_RECORDS = [
  'p=1,a=RS256,t=x509,d=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA18SgvpmeasN4BHkkv0SBjAzIc4grYLjiAXRtNiBUiGUDMeTzQrKTsWvy9NuxU1dIHCZy9o1CrKNg5EzLIZLNyMfI6qiXnM+HMd4byp97zs/3D39Q8iR5poubQcRaGozWx8yQpG0OcVdmEVcTfy',
  'p=2,a=RS256,t=x509,d=R/XSEWC5u16EBNvRnNAOAvZYUdWqVyQvXsjnxQot8KcK0QP8iHpoL/1dbdRy2opRPQ2FdZpovUgknybq/6FkeDtW7uCQ6Mvu4QxcUa3+WP9nYHKtgWip/eFxpeb+qLvcLHf1h0JXtxLVdyy6OLk3f2JRYUX2ZZVDvG3biTpeJz6iRzjGg6MfGxXZHjI8',
  'p=3,a=RS256,t=x509,d=weDjXrJwIDAQAB',
];
const VECTOR_QUERY = 'domain=arnoldblinn.com&RANDOMTEXT=shm%3A1551036164%3Ahello&IP=132.148.25.185&host=bar';
const VECTOR_SIG = [
  'LyCE+7H0zr/XHaxX36pdD1eSQENRiGTFxm79m7A5NLDPiUKLe71IrsEgnDLN76ndQcLTZlr4',
  '+HhpWzKZKyFl9ieEpNzZlDHRp35H83Erhm0eDctUmI1Zct51alZ8RuTL+aa29WC+AM7+gSpnL/AHl9mxckyeEuFFqXcl',
  '/3ShwK2F9x/7r+cICefiUEzsZN3EuqOvwqQkBSqcdVy/ohjNAG/InYAYSX+0fUK9UNQfQYkuPqOAptPRjX+hUnYsXUk',
  '/eQq16aX7TzhZm+eEq+En+oiEgh7qps1yvGbJm6QXKovan/sqng40R6FBP3R3dvfZC6QrfCUtGpQ8c0D0S5oLBw==',
].join('');

test('our signature of the ecosystem’s test query is the one its verifiers accept, byte for byte', () => {
  assert.equal(signQuery(VECTOR_QUERY, DEMO_PRIVATE_KEY), VECTOR_SIG);
  assert.equal(verifyQuery(VECTOR_QUERY, VECTOR_SIG, DEMO_RECORDS), true);
  assert.equal(verifyQuery(VECTOR_QUERY.replace('host=bar', 'host=baz'), VECTOR_SIG, DEMO_RECORDS), false);
  // the records are found in any order, as DNS returns them
  assert.equal(verifyQuery(VECTOR_QUERY, VECTOR_SIG, [...DEMO_RECORDS].reverse()), true);
});

test('the published records carry the key in pieces of one ≤255-byte string each, and give it back', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const records = publicKeyRecords(privateKey);
  assert.equal(records.length, 2);
  assert.ok(records.every((r, i) => r.startsWith(`p=${i + 1},a=RS256,d=`) && Buffer.byteLength(r) <= 255));
  assert.equal(
    publicKeyFromRecords(records).export({ type: 'spki', format: 'der' }).toString('base64'),
    publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  );
  assert.throws(
    () => publicKeyFromRecords(records.map((r) => r.replace('RS256', 'ES256'))),
    /unsupported algorithm/,
  );
  assert.throws(() => publicKeyFromRecords([]), /no key records/);
});

test('queries are encoded one way: RFC 3986, a space as %20, and the signed part is what was sent', () => {
  assert.equal(encodeComponent("a b+c/d~e*f'(g)!"), 'a%20b%2Bc%2Fd~e%2Af%27%28g%29%21');
  assert.equal(
    encodeQuery([
      ['domain', 'example.com'],
      ['redirect_uri', 'https://app.example/done?x=1'],
    ]),
    'domain=example.com&redirect_uri=https%3A%2F%2Fapp.example%2Fdone%3Fx%3D1',
  );
  assert.equal(signedPart('a=1&sig=xyz&b=2&key=_dck1'), 'a=1&b=2');
  assert.equal(
    signedPart('keyword=1&signature=2'),
    'keyword=1&signature=2',
    'only the sig and key parameters',
  );
});
