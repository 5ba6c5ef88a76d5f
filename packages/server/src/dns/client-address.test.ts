/** Client addresses as bytes, the form RFC 9018 hashes into a server cookie. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeAddressBytes } from './client-address.js';

test('addresses as bytes: 4 for IPv4, 16 for IPv6 (an IPv4 tail included); 0 for anything else', () => {
  const bytes = (address: string) => {
    const out = Buffer.alloc(18);
    const length = writeAddressBytes(address, out, 2);
    return out.subarray(2, 2 + length).toString('hex');
  };
  assert.equal(bytes('198.51.100.100'), 'c6336464');
  assert.equal(bytes('255.255.255.255'), 'ffffffff');
  assert.equal(bytes('2001:db8:220:1:59de:d0f4:8769:82b8'), '20010db80220000159ded0f4876982b8');
  assert.equal(bytes('::1'), '00000000000000000000000000000001');
  assert.equal(bytes('::ffff:198.51.100.100'), '00000000000000000000ffffc6336464');
  for (const junk of ['256.1.1.1', '1.2.3', '1.2.3.4.5', '1..2.3', 'x', '', '::g'])
    assert.equal(bytes(junk), '', junk);
});
