/**
 * The return-path domain (issue 34) through HTTP and real DNS: a registration asked with
 * `returnPath` gets a fifth record, a CNAME from `bounces.<domain>` into our zone, verified
 * like the DKIM CNAMEs but on its own (the domain's status does not wait for it); our
 * responder answers the MX (`INBOUND_MX_HOST`) and the SPF record (`SENDING_IPS`) there.
 */
import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { after, before, test } from 'node:test';
import { type BindServer, startBind } from './test-support/bind.js';
import { startTestServer, type TestServer } from './test-support/test-server.js';

let bind: BindServer;
let t: TestServer;
let key: string;

before(async () => {
  bind = await startBind({ zones: ['rp.test'] });
  t = await startTestServer({
    DNS_RESOLVERS: bind.address,
    DNS_LISTEN: '127.0.0.1:0',
    STATUS_CHECK_MAX_AGE_MS: '0',
    // BIND here is the resolver and the zone's server at once: no need to find the zone's own
    // servers first (each status waited for that lookup to time out)
    VERIFY_AUTHORITATIVE: 'false',
    SENDING_IPS: '192.0.2.10,198.51.100.0/24,2001:db8::/48',
    INBOUND_MX_HOST: 'inbound.provider.test',
  });
  ({ key } = await t.createKey());
});
after(async () => {
  await t?.close();
  await bind?.close();
});

const register = async (domains: unknown[]) => {
  const res = await t.request('POST', '/api/public/domain', { key, body: { domains } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.contractProblems, []);
  return res.body as any[];
};
const status = async (domain: string) => {
  const res = await t.request('POST', '/api/public/domain/status', { key, body: { domains: [domain] } });
  assert.deepEqual(res.contractProblems, []);
  return res.body[0].data;
};
const publish = async (data: any, except: (record: any) => boolean = () => false) => {
  await t.server.dkim.generator.idle();
  for (const record of data.records) {
    if (except(record)) continue;
    if (record.type === 'CNAME') await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    else await bind.addRecord(record.fqdn, 'TXT', record.value.replace(/^"|"$/g, ''));
  }
};

test('returnPath adds a fifth record with its own status; the domain verifies without it', async () => {
  const [plain, asked, labelled] = await register([
    { domain: 'plain.rp.test', domainType: 'Transactional' },
    { domain: 'mail.rp.test', domainType: 'Transactional', returnPath: true },
    { domain: 'news.rp.test', domainType: 'Marketing', returnPath: 'Bounce-1' },
  ]);
  assert.equal(plain.data.records.length, 4, 'without it, the spec’s four records and nothing else');
  const returnPath = asked.data.records[4];
  assert.deepEqual(
    [returnPath.name, returnPath.type, returnPath.value, returnPath.fqdn, returnPath.status],
    ['bounces.mail', 'CNAME', 'return-path.dkim.provider.test', 'bounces.mail.rp.test', 'pending'],
  );
  assert.equal(labelled.data.records[4].fqdn, 'bounce-1.news.rp.test');

  // Everything but the return path published: the domain is verified, the return path is not.
  await publish(asked.data, (r) => r.fqdn === 'bounces.mail.rp.test');
  let checked = await status('mail.rp.test');
  assert.equal(checked.status, 'verified');
  assert.deepEqual([checked.records[4].status, checked.records[4].reason], ['pending', 'not_found']);
  assert.equal(
    checked.records[4].detail,
    'no record at bounces.mail.rp.test; add a CNAME to return-path.dkim.provider.test',
  );
  // A wrong target is named; the right one verifies.
  await bind.addRecord('bounces.mail.rp.test', 'CNAME', 'elsewhere.example.');
  checked = await status('mail.rp.test');
  assert.equal(checked.records[4].reason, 'wrong_value');
  await bind.deleteRecords('bounces.mail.rp.test');
  await bind.addRecord('bounces.mail.rp.test', 'CNAME', 'return-path.dkim.provider.test.');
  checked = await status('mail.rp.test');
  assert.deepEqual([checked.status, checked.records[4].status], ['verified', 'verified']);
});

test('asked again for a registered domain, the record is added; without it, nothing changes', async () => {
  const [first] = await register([{ domain: 'later.rp.test', domainType: 'Transactional' }]);
  assert.equal(first.data.records.length, 4);
  const [again] = await register([
    { domain: 'later.rp.test', domainType: 'Transactional', returnPath: 'rp' },
  ]);
  assert.deepEqual(
    again.data.records.map((r: any) => r.fqdn.split('.')[0]),
    [...first.data.records.slice(0, 4).map((r: any) => r.fqdn.split('.')[0]), 'rp'],
    'the DKIM tokens stay',
  );
  const [same] = await register([{ domain: 'later.rp.test', domainType: 'Transactional' }]);
  assert.equal(same.data.records[4].fqdn, 'rp.later.rp.test');
});

test('a returnPath that is not one DNS label is that entry’s error; its neighbours register', async () => {
  const answers = await register([
    { domain: 'a.rp.test', domainType: 'Marketing', returnPath: 'two.labels' },
    { domain: 'b.rp.test', domainType: 'Marketing', returnPath: '-dash' },
    { domain: 'c.rp.test', domainType: 'Marketing', returnPath: 'x'.repeat(64) },
    { domain: 'd.rp.test', domainType: 'Marketing', returnPath: 'fine' },
  ]);
  assert.deepEqual(
    answers.map((a) => a.error?.code ?? a.data.records[4].fqdn),
    ['RETURN_PATH_INVALID', 'RETURN_PATH_INVALID', 'RETURN_PATH_INVALID', 'fine.d.rp.test'],
  );
  const bad = await t.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain: 'e.rp.test', domainType: 'Marketing', returnPath: 42 }] },
  });
  assert.equal(bad.status, 400, 'a number is a schema error, as any mistyped field');
});

test('our zone answers the return paths’ MX and SPF record, authorising exactly SENDING_IPS', async () => {
  const resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${t.server.dkim.responder!.address.port}`]);
  assert.deepEqual(await resolver.resolveMx('return-path.dkim.provider.test'), [
    { exchange: 'inbound.provider.test', priority: 10 },
  ]);
  assert.deepEqual(await resolver.resolveTxt('return-path.dkim.provider.test'), [
    ['v=spf1 ip4:192.0.2.10 ip4:198.51.100.0/24 ip6:2001:db8::/48 -all'],
  ]);
});
