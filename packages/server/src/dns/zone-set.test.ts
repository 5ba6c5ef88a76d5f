/**
 * Several zones behind one responder (the development local DNS, issue 40): each question goes
 * to the deepest zone holding its name; CNAMEs answer every type, A and AAAA name the server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket from 'dns-packet';
import { decodeReply, query } from '../test-support/dns-client.js';
import { answerMessage } from './answer.js';
import { DkimZone } from './zone.js';
import { ZoneSet } from './zone-set.js';

const server = (origin: string) => ({
  serial: 1,
  nameServers: [`ns.${origin}`],
  soaContact: `hostmaster.${origin}`,
  ttl: 5,
  extraAddresses: new Map([['ns', ['127.0.0.1', '::1']]]),
});
const customer = new DkimZone({
  origin: 'acme.test',
  ...server('acme.test'),
  keys: [],
  extraCname: new Map([['sel._domainkey', 'sel.dkim.provider.test']]),
  extraTxt: new Map([['_dmarc', ['v=DMARC1; p=none;']]]),
});
const provider = new DkimZone({
  origin: 'dkim.provider.test',
  ...server('dkim.provider.test'),
  keys: [{ token: 'sel', publicKey: 'MIIB' }],
});
/** A zone above the provider's: the provider's names still go to the deeper one. */
const parent = new DkimZone({ origin: 'provider.test', ...server('provider.test'), keys: [] });
const zones = new ZoneSet([customer, provider, parent]);
const udp = { transport: 'udp', transferAllowed: false } as const;

const ask = (name: string, type: Parameters<typeof query>[1]) => {
  const replies = answerMessage(dnsPacket.encode(query(name, type)), zones, udp);
  assert.equal(replies.length, 1);
  return decodeReply(replies[0]!);
};

test('a CNAME answers every type, alone (its target is in another zone): RFC 1034 §3.6.2, §4.3.2', () => {
  for (const type of ['CNAME', 'TXT', 'A'] as const) {
    const reply = ask('SEL._domainkey.acme.test', type);
    assert.equal(reply.rcode, 'NOERROR');
    assert.equal(reply.flag_aa, true);
    assert.deepEqual(
      reply.answers!.map((a) => [a.name, a.type, (a as { data: unknown }).data]),
      [['SEL._domainkey.acme.test', 'CNAME', 'sel.dkim.provider.test']],
      type,
    );
  }
});

test('each name goes to the deepest zone holding it; a name in none is REFUSED', () => {
  const key = ask('sel.dkim.provider.test', 'TXT');
  assert.equal(key.rcode, 'NOERROR');
  assert.equal(String((key.answers![0] as { data: Buffer[] }).data.join('')), 'v=DKIM1; k=rsa; p=MIIB');
  const dmarc = ask('_dmarc.acme.test', 'TXT');
  assert.equal(String((dmarc.answers![0] as { data: Buffer[] }).data[0]), 'v=DMARC1; p=none;');
  const missing = ask('nothing.dkim.provider.test', 'TXT');
  assert.equal(missing.rcode, 'NXDOMAIN');
  assert.equal((missing.authorities![0] as { name: string }).name, 'dkim.provider.test');
  assert.equal(ask('example.com', 'A').rcode, 'REFUSED');
  assert.equal(zones.find('test'), undefined);
});

test('the name server: NS at each apex, its A and AAAA records from the addresses given', () => {
  assert.deepEqual(
    ask('acme.test', 'NS').answers!.map((a) => (a as { data: unknown }).data),
    ['ns.acme.test'],
  );
  assert.deepEqual(
    ask('ns.acme.test', 'A').answers!.map((a) => (a as { data: unknown }).data),
    ['127.0.0.1'],
  );
  assert.deepEqual(
    ask('ns.acme.test', 'AAAA').answers!.map((a) => (a as { data: unknown }).data),
    ['::1'],
  );
  // the CNAME, the A records and the rest are in the zone's transfer too
  const names = [...customer.transferRecords()].map((r) => `${r.type} ${r.name}`);
  assert.ok(names.includes('CNAME sel._domainkey.acme.test'), names.join(', '));
  assert.ok(names.includes('AAAA ns.acme.test'), names.join(', '));
});
