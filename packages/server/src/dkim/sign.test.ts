/**
 * Signing checked by an independent implementation (mailauth) over a declarative zone, and the
 * canonicalizations against RFC 6376's own example.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { dkimKeyRecord, txtStrings } from '../dns/key-record.js';
import { relaxedBody, relaxedHeader } from './canonicalize.js';
import { type DkimKeyPair, generateDkimKeyPair, privateKeyObject } from './key-pair.js';
import { dkimSignature, signMessage, UnsignableMessageError } from './sign.js';

let pair: DkimKeyPair;
before(async () => {
  pair = await generateDkimKeyPair();
});

const MESSAGE = [
  'From: Alice <alice@mail.example.test>',
  'To: bob@example.org',
  'Subject:  Hello\t  there ',
  '  folded subject',
  'Date: Sat, 22 Nov 2025 12:00:00 +0000',
  'Message-ID: <1@mail.example.test>',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  'X-Unsigned: not in h=',
  '',
  'Hi Bob,  ',
  '',
  'caf\u00e9 and   spaces\t',
  '',
  '',
].join('\n');

/** A resolver with the dns.resolve contract over a zone table, as mailauth takes it. */
const zoneResolver = (zone: Record<string, string[][]>) => async (name: string, type: string) => {
  const records = type === 'TXT' ? zone[name.toLowerCase()] : undefined;
  if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return records;
};

/** Verify with mailauth; a string is octets (latin1), as `toString('latin1')` of a signed message gives. */
async function verify(message: Buffer | string, publicKey: string | null = pair.publicKey) {
  const resolver = zoneResolver({
    'sel1._domainkey.mail.example.test': [txtStrings(dkimKeyRecord(publicKey))],
  });
  const { results } = await dkimVerify(
    typeof message === 'string' ? Buffer.from(message, 'latin1') : message,
    {
      resolver,
    },
  );
  return results[0]!;
}

const sign = (message: string) =>
  signMessage(message, {
    domain: 'mail.example.test',
    selector: 'sel1',
    privateKey: privateKeyObject(pair.privateKey),
    timestamp: 1_763_812_800,
  });

test('a signed message verifies with mailauth: rsa-sha256, relaxed/relaxed, the signed fields listed', async () => {
  const signed = sign(MESSAGE);
  const result = await verify(signed);
  assert.equal(result.status.result, 'pass', JSON.stringify(result.status));
  assert.equal(result.signingDomain, 'mail.example.test');
  assert.equal(result.selector, 'sel1');
  assert.equal((result as any).algo, 'rsa-sha256');
  assert.equal((result as any).format, 'relaxed/relaxed');
  const header = signed.toString('latin1').split('\r\n\r\n')[0]!;
  assert.match(
    header,
    /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=mail\.example\.test;\r\n\ts=sel1; t=1763812800;/,
  );
  assert.match(header, /h=from:from:subject:subject:date:date:to:to:message-id:mime-version:content-type;/);
  assert.ok(!header.includes('x-unsigned'));
  assert.ok(
    signed
      .toString('latin1')
      .split('\r\n')
      .every((line) => line.length <= 998),
  );
});

test('tampering with the body, a signed field, or adding a second From fails verification', async () => {
  const signed = sign(MESSAGE).toString('latin1');
  const body = await verify(signed.replace('Hi Bob', 'Hi Eve'));
  assert.notEqual(body.status.result, 'pass');
  assert.match(body.status.comment ?? '', /body hash/);
  assert.notEqual((await verify(signed.replace('Subject:  Hello', 'Subject:  Howdy'))).status.result, 'pass');
  const extraFrom = signed.replace('\r\n\r\n', '\r\nFrom: mallory@evil.test\r\n\r\n');
  assert.notEqual((await verify(extraFrom)).status.result, 'pass', 'oversigned From');
  // Whitespace changes relaxed canonicalization forgives still pass.
  const rewrapped = signed.replace('Subject:  Hello\t  there ', 'Subject: Hello there');
  assert.equal((await verify(rewrapped)).status.result, 'pass');
});

test('a revoked key (empty p=) or a missing key record fails verification', async () => {
  const signed = sign(MESSAGE);
  assert.notEqual((await verify(signed, null)).status.result, 'pass');
  const unknownResult = (await dkimVerify(signed, { resolver: zoneResolver({}) })).results[0]!.status.result;
  assert.notEqual(unknownResult, 'pass');
});

test('an empty body, a body without final newline, and a message with LF endings all verify', async () => {
  for (const message of [
    'From: a@mail.example.test\nSubject: x\n\n',
    'From: a@mail.example.test\nSubject: x\n\nno final newline',
    'From: a@mail.example.test\r\nSubject: x\r\n',
  ]) {
    assert.equal((await verify(sign(message))).status.result, 'pass', JSON.stringify(message));
  }
});

test('a message without From cannot be signed', () => {
  assert.throws(
    () =>
      dkimSignature('Subject: x\n\nbody', {
        domain: 'mail.example.test',
        selector: 'sel1',
        privateKey: privateKeyObject(pair.privateKey),
      }),
    UnsignableMessageError,
  );
});

test('relaxed canonicalization matches the example of RFC 6376 §3.4.5', () => {
  assert.equal(relaxedHeader('A: X'), 'a:X');
  assert.equal(relaxedHeader('B : Y\t\r\n\tZ  '), 'b:Y Z');
  assert.equal(relaxedBody(' C \r\nD \t E\r\n\r\n\r\n'), ' C\r\nD E\r\n');
  assert.equal(relaxedBody('\r\n\r\n'), '');
  assert.equal(relaxedBody('x'), 'x\r\n');
});
