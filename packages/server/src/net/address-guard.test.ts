import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHost, refuseAddress } from './address-guard.js';

test('only public unicast addresses are allowed', () => {
  for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']) {
    assert.equal(refuseAddress(address), null, address);
  }
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/],
    ['::1', /loopback/],
    ['10.0.0.1', /private/],
    ['172.16.5.4', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /linkLocal/],
    ['fe80::1', /linkLocal/],
    ['100.64.0.1', /carrierGradeNat/],
    ['fd00:ec2::254', /uniqueLocal/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:127.0.0.1', /loopback/],
    // issue 33: IPv4-compatible literals passed as unicast
    ['::7f00:1', /IPv4-compatible/],
    ['::a00:7', /IPv4-compatible/],
    ['64:ff9b::7f00:1', /rfc6052/],
  ];
  for (const [address, why] of refused) assert.match(refuseAddress(address) ?? 'allowed', why, address);
});

test('a host is refused when any of its addresses is not public', async () => {
  const zone: Record<string, string[]> = {
    'public.test': ['93.184.215.14'],
    'mixed.test': ['93.184.215.14', '10.0.0.7'],
  };
  const resolve = async (host: string) => (zone[host] ?? []).map((address) => ({ address, family: 4 }));
  assert.deepEqual(await checkHost('public.test', false, resolve), {
    addresses: [{ address: '93.184.215.14', family: 4 }],
  });
  assert.deepEqual(await checkHost('mixed.test', false, resolve), {
    refused: 'mixed.test resolves to the private address 10.0.0.7',
  });
  assert.deepEqual(await checkHost('none.test', false, resolve), { refused: 'none.test has no address' });
  // a literal in a URL meets the same classifier as an address from DNS (issue 33)
  assert.deepEqual(await checkHost('[::7f00:1]', false, resolve), {
    refused: '[::7f00:1] resolves to the IPv4-compatible address ::7f00:1',
  });
  assert.deepEqual(await checkHost('[::1]', true, resolve), { addresses: [{ address: '::1', family: 6 }] });
});
