/**
 * Verification's questions about the zones published in the development local DNS go to it,
 * over the wire, by the authoritative walk; every other name goes where it went before (issue 40).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LocalDns } from '../dns/local-dns.js';
import { createAuthoritativeResolve } from './authoritative.js';
import { routeLocalZones } from './local-routing.js';
import { createResolver, type DnsResolve } from './resolver.js';

let local: LocalDns;
/** Nothing listens on the discard port: the ordinary path fails at once, and says so. */
const offline = { servers: ['127.0.0.1:9'], timeoutMs: 300, tries: 1, concurrency: 4 };
const routing = { timeoutMs: 1000, tries: 1 };

before(async () => {
  local = new LocalDns({
    listen: { host: '127.0.0.1', port: 0 },
    anyFreePort: false,
    providerOrigin: 'dkim.provider.test',
    keys: async (tokens) => tokens.map((token) => ({ token, publicKey: 'MIIB' })),
  });
  await local.listen();
  await local.publish('acme.test', [
    { fqdn: 'sel._domainkey.mail.acme.test', type: 'CNAME', value: 'sel.dkim.provider.test' },
    { fqdn: '_dmarc.mail.acme.test', type: 'TXT', value: 'v=DMARC1; p=none;' },
  ]);
});
after(() => local.close());

const failsOffline = (resolve: DnsResolve, name: string) =>
  assert.rejects(resolve(name, 'TXT'), (error: { code?: string }) => error.code !== 'ENOTFOUND');

for (const [kind, main] of [
  ['the authoritative walk', () => createAuthoritativeResolve(offline)],
  ['the resolvers (VERIFY_AUTHORITATIVE=false)', () => createResolver(offline)],
] as const) {
  test(`over ${kind}: published zones are asked of the local DNS, other names as before`, async () => {
    const resolve = routeLocalZones(main(), local, routing);
    assert.deepEqual(await resolve('sel._domainkey.mail.acme.test', 'CNAME'), ['sel.dkim.provider.test']);
    assert.deepEqual(await resolve('_dmarc.mail.acme.test', 'TXT'), [['v=DMARC1; p=none;']]);
    // the CNAME is followed into the provider zone the local DNS also serves
    assert.deepEqual(await resolve('sel._domainkey.mail.acme.test', 'TXT'), [['v=DKIM1; k=rsa; p=MIIB']]);
    await assert.rejects(resolve('_dmarc.acme.test', 'TXT'), { code: 'ENOTFOUND' });
    // a .test zone not published, and any other name: the ordinary path (offline here)
    await failsOffline(resolve, '_dmarc.other.test');
    await failsOffline(resolve, '_dmarc.example.com');
  });
}

test('the zone of a published name is the local DNS’s, with its name server', async () => {
  const resolve = routeLocalZones(createAuthoritativeResolve(offline), local, routing);
  assert.deepEqual(await resolve.zoneOf('_dmarc.mail.acme.test'), {
    apex: 'acme.test',
    nameServers: ['ns.acme.test'],
  });
  // removing a record is seen at the next question: nothing is remembered
  local.remove('acme.test', ['_dmarc.mail.acme.test']);
  await assert.rejects(resolve('_dmarc.mail.acme.test', 'TXT'), { code: 'ENOTFOUND' });
});
