import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { test } from 'node:test';
import { DKIM_KEY_BITS, generateDkimKeyPair, privateKeyObject } from '../dkim/key-pair.js';
import { dkimKeyRecord, txtStrings } from './key-record.js';

test('a generated key pair is RSA-2048 (RFC 8301) and p= is its SubjectPublicKeyInfo', async () => {
  const pair = await generateDkimKeyPair();
  const pub = createPublicKey({ key: Buffer.from(pair.publicKey, 'base64'), format: 'der', type: 'spki' });
  assert.equal(pub.asymmetricKeyType, 'rsa');
  assert.equal(pub.asymmetricKeyDetails?.modulusLength, DKIM_KEY_BITS);
  assert.equal(pub.asymmetricKeyDetails?.publicExponent, 65537n);
  const priv = privateKeyObject(pair.privateKey);
  assert.equal(
    createPublicKey(priv).export({ format: 'der', type: 'spki' }).toString('base64'),
    pair.publicKey,
  );
});

test('the key record text, revoked as an empty p=, cut into ≤255-byte strings', () => {
  assert.equal(dkimKeyRecord('QUJD'), 'v=DKIM1; k=rsa; p=QUJD');
  assert.equal(dkimKeyRecord(null), 'v=DKIM1; k=rsa; p=');
  const long = dkimKeyRecord('A'.repeat(392)); // a 2048-bit SPKI is 392 base64 characters
  const strings = txtStrings(long);
  assert.deepEqual(
    strings.map((s) => s.length),
    [255, long.length - 255],
  );
  assert.equal(strings.join(''), long);
  assert.deepEqual(txtStrings(''), ['']);
  assert.deepEqual(txtStrings('x'.repeat(510)).length, 2);
  assert.throws(() => txtStrings('é'), RangeError);
});
