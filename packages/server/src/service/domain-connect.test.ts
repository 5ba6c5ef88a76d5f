/**
 * Domain Connect end to end (issue 23): a customer zone in BIND whose `_domainconnect` record
 * names a DNS provider (a small HTTPS server implementing the spec's settings, template and
 * apply endpoints); the service finds it, signs an apply URL; the "browser" opens it; the
 * provider checks the signature with the key it reads from our DNS responder, writes the
 * template's records into BIND by RFC 2136, and redirects back; the status goes `verified`
 * without a record typed by hand.
 */
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BindServer, startBind } from '../test-support/bind.js';
import {
  type DomainConnectProvider,
  type ProviderTemplate,
  startDomainConnectProvider,
} from '../test-support/domain-connect-provider.js';
import { claimLoopbackAddress } from '../test-support/loopback.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

const CONNECTED = 'connect.test'; // its provider supports our template
const UNSUPPORTED = 'unsupported.test'; // its provider does not (yet)
const PLAIN = 'plain.test'; // no Domain Connect at all
const INTERNAL = 'internal.test'; // its _domainconnect record points at an internal address

const authAddress = await claimLoopbackAddress();
const AUTH_HOST = authAddress.address;
let customer: BindServer;
let resolver: BindServer;
let provider: DomainConnectProvider;
let otherProvider: DomainConnectProvider;
let api: TestServer;
let key: string;

before(async () => {
  const zones = [CONNECTED, UNSUPPORTED, PLAIN, INTERNAL];
  customer = await startBind({ host: AUTH_HOST, port: 53, zones });
  resolver = await startBind({
    recursion: true,
    delegations: zones.map((zone) => ({ zone, host: AUTH_HOST })),
  });
  // The provider knows our template as the service prints it (`cli domain-connect template`),
  // as a real provider knows it from the public templates repository.
  const keyResolver = new Resolver();
  const common = {
    resolveTxt: (name: string) => keyResolver.resolveTxt(name),
    write: (r: { fqdn: string; type: string; value: string; ttl: number }) =>
      customer.addRecord(r.fqdn, r.type, r.value, r.ttl),
  };
  const templates: ProviderTemplate[] = [];
  provider = await startDomainConnectProvider({
    providerName: 'Test DNS',
    zones: [CONNECTED],
    templates,
    ...common,
  });
  otherProvider = await startDomainConnectProvider({
    providerName: 'Other DNS',
    zones: [UNSUPPORTED],
    templates: [],
    ...common,
  });
  // one CA file trusting both providers' self-signed certificates
  const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'dc-ca-')), 'ca.pem');
  writeFileSync(caFile, provider.certificate + otherProvider.certificate);
  await customer.addRecord(`_domainconnect.${CONNECTED}`, 'TXT', provider.txtValue);
  await customer.addRecord(`_domainconnect.${UNSUPPORTED}`, 'TXT', otherProvider.txtValue);
  api = await startTestServer({
    DNS_RESOLVERS: resolver.address,
    DNS_LISTEN: '127.0.0.1:0',
    DKIM_PROVIDER_HOST: 'provider.test',
    DOMAIN_CONNECT_PROVIDER_ID: 'sender.test',
    DOMAIN_CONNECT_ALLOW_PRIVATE_URLS: 'true',
    DOMAIN_CONNECT_CA_FILE: caFile,
    STATUS_CHECK_MAX_AGE_MS: '0',
  });
  keyResolver.setServers([`127.0.0.1:${api.server.dkim.responder!.address.port}`]);
  templates.push(api.server.domainConnect!.template() as ProviderTemplate);
  ({ key } = await api.createKey());
});
after(async () => {
  await api?.close();
  await provider?.close();
  await otherProvider?.close();
  await resolver?.close();
  await customer?.close();
  authAddress.release();
});

const register = async (domain: string) =>
  (
    await api.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain, domainType: 'Transactional' }] },
    })
  ).body[0].data;
const status = async (domain: string) =>
  (await api.request('POST', '/api/public/domain/status', { key, body: { domains: [domain] } })).body[0].data;
const setupLink = (query: Record<string, string>) =>
  api.request('GET', `/api/public/domain/setup-link?${new URLSearchParams(query)}`, { key });

/** The customer's browser opening the link: the provider's answer and where it sends them. */
function open(url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { ca: provider.certificate }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
      );
    }).on('error', reject);
  });
}

test('a supported provider: the signed link applies the records, and the domain verifies with nothing typed', async () => {
  await register(`mail.${CONNECTED}`);
  const checked = await status(`mail.${CONNECTED}`);
  assert.equal(checked.status, 'pending');
  assert.deepEqual(
    { ...checked.domainConnect, url: typeof checked.domainConnect.url },
    { supported: true, providerName: 'Test DNS', url: 'string', detail: null },
  );
  const link = await setupLink({
    domain: `mail.${CONNECTED}`,
    redirect_uri: 'http://localhost:3000/done',
    state: 'st-42',
  });
  assert.equal(link.status, 200, JSON.stringify(link.body));
  const url = new URL(link.body.data.url);
  assert.equal(
    url.origin + url.pathname,
    `${provider.url}/sync/v2/domainTemplates/providers/sender.test/services/sending-domain/apply`,
  );
  assert.equal(url.searchParams.get('domain'), CONNECTED);
  assert.equal(url.searchParams.get('host'), 'mail');
  assert.equal(url.searchParams.get('key'), '_dck1');
  // no return path asked for: the template's return-path group is not applied
  assert.equal(url.searchParams.get('groupId'), 'dkim,dmarc');

  const opened = await open(link.body.data.url);
  assert.equal(opened.status, 302, JSON.stringify(provider.applied.at(-1)));
  assert.equal(opened.location, 'http://localhost:3000/done?state=st-42');
  const verified = await status(`mail.${CONNECTED}`);
  assert.deepEqual(
    [verified.status, ...verified.records.map((r: { status: string }) => r.status)],
    ['verified', 'verified', 'verified', 'verified', 'verified'],
  );
  await assert.rejects(
    customer.resolver().resolve(`bounces.mail.${CONNECTED}`, 'CNAME'),
    /ENOTFOUND|ENODATA/,
    'no bounces CNAME written',
  );
});

test('a registration with a return path: the link applies its CNAME too, and it verifies (issue 34)', async () => {
  const domain = `news.${CONNECTED}`;
  await api.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain, domainType: 'Marketing', returnPath: true }] },
  });
  const link = await setupLink({ domain });
  assert.equal(link.status, 200, JSON.stringify(link.body));
  assert.equal(new URL(link.body.data.url).searchParams.get('groupId'), 'dkim,dmarc,returnpath');
  const opened = await open(link.body.data.url);
  assert.equal(opened.status, 200, JSON.stringify(provider.applied.at(-1)));
  const verified = await status(domain);
  assert.deepEqual(
    [verified.status, ...verified.records.map((r: { status: string }) => r.status)],
    ['verified', 'verified', 'verified', 'verified', 'verified', 'verified'],
  );
  assert.equal(verified.records[4].fqdn, `bounces.${domain}`);
});

test('a registration with a tracking host: the link applies its CNAME too, and it verifies (issue 37: the template had no tracking record)', async () => {
  const domain = `promo.${CONNECTED}`;
  await api.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain, domainType: 'Marketing', tracking: true }] },
  });
  const link = await setupLink({ domain });
  assert.equal(link.status, 200, JSON.stringify(link.body));
  assert.equal(new URL(link.body.data.url).searchParams.get('groupId'), 'dkim,dmarc,tracking');
  const opened = await open(link.body.data.url);
  assert.equal(opened.status, 200, JSON.stringify(provider.applied.at(-1)));
  const checked = await status(domain);
  const tracking = checked.records.find((r: { fqdn: string }) => r.fqdn === `track.${domain}`);
  assert.equal(tracking?.status, 'verified', JSON.stringify(checked.records));
  assert.equal(checked.status, 'verified');
});

test('a tampered link is refused by the provider, which writes nothing', async () => {
  await register(`tamper.${CONNECTED}`);
  await status(`tamper.${CONNECTED}`);
  const link = await setupLink({ domain: `tamper.${CONNECTED}` });
  assert.equal(link.status, 200);
  const tampered = link.body.data.url.replace('dmarc=p%3Dnone%3B', 'dmarc=p%3Dreject%3B');
  assert.notEqual(tampered, link.body.data.url);
  const opened = await open(tampered);
  assert.equal(opened.status, 400);
  assert.deepEqual(provider.applied.at(-1)?.why, 'signature not valid');
  // the redirect and its state are signed too: a link sent elsewhere is refused as well
  const redirected = await setupLink({
    domain: `tamper.${CONNECTED}`,
    redirect_uri: 'http://localhost/back',
    state: 's1',
  });
  const elsewhere = redirected.body.data.url.replace('state=s1', 'state=s2');
  assert.equal((await open(elsewhere)).status, 400);
  const after = await status(`tamper.${CONNECTED}`);
  assert.equal(after.records[0].reason, 'not_found', 'nothing was written');
});

test('without a provider that supports the template, the result says why and the link is refused', async () => {
  await register(UNSUPPORTED);
  await register(PLAIN);
  const unsupported = (await status(UNSUPPORTED)).domainConnect;
  assert.equal(unsupported.supported, false);
  assert.equal(unsupported.providerName, 'Other DNS');
  assert.match(
    unsupported.detail,
    /Other DNS does not support this service's Domain Connect template yet; add the records by hand/,
  );
  const plain = (await status(PLAIN)).domainConnect;
  assert.deepEqual(
    { ...plain, detail: plain.detail.replace(/\(.*\)/, '(…)') },
    {
      supported: false,
      providerName: null,
      url: null,
      detail: `the DNS provider of ${PLAIN} offers no Domain Connect (…); add the records by hand`,
    },
  );
  const refused = await setupLink({ domain: PLAIN });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'SETUP_LINK_UNAVAILABLE');
  const unknown = await setupLink({ domain: 'never-registered.test' });
  assert.equal(unknown.body.error.code, 'SETUP_LINK_DOMAIN_UNKNOWN');
  const badRedirect = await setupLink({
    domain: `mail.${CONNECTED}`,
    redirect_uri: 'https://phish.example/',
  });
  assert.equal(badRedirect.status, 400);
  assert.equal(badRedirect.body.error.code, 'SETUP_LINK_REDIRECT_INVALID');
  assert.match(
    badRedirect.body.error.message,
    /DOMAIN_CONNECT_REDIRECT_DOMAINS/,
    'a signed redirect anywhere is refused',
  );
  const script = await setupLink({ domain: `mail.${CONNECTED}`, redirect_uri: 'javascript:alert(1)' });
  assert.equal(script.body.error.code, 'SETUP_LINK_REDIRECT_INVALID');
});

test('the signing key is published in our zone as the spec says: p=, a=RS256, d= pieces of one string each', async () => {
  const records = await new Promise<string[][]>((resolve, reject) => {
    const r = new Resolver();
    r.setServers([`127.0.0.1:${api.server.dkim.responder!.address.port}`]);
    r.resolveTxt('_dck1.dkim.provider.test').then(resolve, reject);
  });
  assert.ok(records.length >= 2);
  for (const record of records) {
    assert.equal(record.length, 1, 'one string per record');
    assert.match(record[0]!, /^p=\d,a=RS256,d=[A-Za-z0-9+/=]+$/);
    assert.ok(Buffer.byteLength(record[0]!) <= 255);
  }
});

test('discovery never connects to an internal address, by name or as written, unless allowed (tests)', async (t) => {
  // An HTTPS port on an internal (loopback) address, counting connections: where a customer's
  // _domainconnect record would send the service to probe internal hosts.
  let connections = 0;
  const internal = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => internal.listen(443, AUTH_HOST, resolve));
  t.after(() => new Promise<void>((resolve) => internal.close(() => resolve())));
  await customer.addRecord(`dc.${INTERNAL}`, 'A', AUTH_HOST);
  const guarded = await startTestServer({
    DNS_RESOLVERS: resolver.address,
    DNS_LISTEN: '127.0.0.1:0',
    DKIM_PROVIDER_HOST: 'provider.test',
    DOMAIN_CONNECT_PROVIDER_ID: 'sender.test',
    STATUS_CHECK_MAX_AGE_MS: '0',
  });
  t.after(() => guarded.close());
  const { key: guardedKey } = await guarded.createKey();
  for (const txt of [`dc.${INTERNAL}`, AUTH_HOST]) {
    await customer.deleteRecords(`_domainconnect.${INTERNAL}`, 'TXT');
    await customer.addRecord(`_domainconnect.${INTERNAL}`, 'TXT', txt);
    const name = `${txt === AUTH_HOST ? 'literal' : 'name'}.${INTERNAL}`;
    await guarded.request('POST', '/api/public/domain', {
      key: guardedKey,
      body: { domains: [{ domain: name, domainType: 'Transactional' }] },
    });
    const checked = (
      await guarded.request('POST', '/api/public/domain/status', {
        key: guardedKey,
        body: { domains: [name] },
      })
    ).body[0].data.domainConnect;
    assert.equal(checked.supported, false, txt);
    assert.match(checked.detail, /could not be reached; add the records by hand$/, txt);
  }
  assert.equal(connections, 0, 'no connection reached the internal address');
});
