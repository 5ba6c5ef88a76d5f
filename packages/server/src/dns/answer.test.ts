/** The pure answer logic, message in and messages out, over a declarative zone. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket, { type Packet, type TxtAnswer } from 'dns-packet';
import { type DnsReply, decodeReply, query } from '../test-support/dns-client.js';
import { answerMessage, MAX_UDP_PAYLOAD } from './answer.js';
import { DkimZone } from './zone.js';

const KEY = 'M'.repeat(392); // a 2048-bit SubjectPublicKeyInfo in base64 is 392 characters
/** Real tokens are 32 characters, which matters for what fits in 512 bytes. */
const TOKEN = 'k'.repeat(32);
const zone = new DkimZone({
  origin: 'dkim.provider.test',
  serial: 7,
  nameServers: ['ns1.provider.test', 'ns2.provider.test'],
  soaContact: 'hostmaster.provider.test',
  ttl: 300,
  keys: [
    { token: 'tok1', publicKey: KEY },
    { token: TOKEN, publicKey: KEY },
    { token: 'revoked', publicKey: null },
  ],
});
const udp = { transport: 'udp', transferAllowed: false } as const;
const tcp = { transport: 'tcp', transferAllowed: false } as const;

function ask(
  packet: Packet,
  context: Parameters<typeof answerMessage>[2] = udp,
): (DnsReply & { size: number })[] {
  return answerMessage(dnsPacket.encode(packet), zone, context).map((wire) =>
    Object.assign(decodeReply(wire), { size: wire.length }),
  );
}
const one = (packet: Packet, context?: Parameters<typeof answerMessage>[2]) => {
  const replies = ask(packet, context);
  assert.equal(replies.length, 1);
  return replies[0]!;
};

test('a key record: AA, the whole TXT in ≤255-byte strings, question case kept, RD copied, no RA', () => {
  const reply = one(query('TOK1.Dkim.Provider.Test', 'TXT', { edns: 1232, id: 99 }));
  assert.equal(reply.id, 99);
  assert.equal(reply.rcode, 'NOERROR');
  assert.equal(reply.flag_aa, true);
  assert.equal(reply.flag_rd, true);
  assert.equal(reply.flag_ra, false);
  assert.equal(reply.flag_tc, false);
  assert.equal(reply.questions![0]!.name, 'TOK1.Dkim.Provider.Test');
  const [answer] = reply.answers as TxtAnswer[];
  assert.equal(answer!.name, 'TOK1.Dkim.Provider.Test');
  assert.equal(answer!.ttl, 300);
  const strings = (answer!.data as Buffer[]).map(String);
  assert.ok(strings.every((s) => s.length <= 255));
  assert.equal(strings.join(''), `v=DKIM1; k=rsa; p=${KEY}`);
  assert.equal(reply.authorities!.length, 0, 'no authority padding on positive answers');
  assert.equal(reply.additionals!.length, 1, 'only the OPT');
});

test('a revoked key publishes an empty p= (RFC 6376 §3.6.1)', () => {
  const reply = one(query('revoked.dkim.provider.test', 'TXT'));
  assert.equal(String((reply.answers![0] as TxtAnswer).data), 'v=DKIM1; k=rsa; p=');
});

test('SOA and NS at the apex; NODATA and NXDOMAIN carry the SOA in authority (RFC 2308)', () => {
  const soa = one(query('dkim.provider.test', 'SOA'));
  assert.equal(soa.flag_aa, true);
  assert.deepEqual((soa.answers![0] as any).data, {
    mname: 'ns1.provider.test',
    rname: 'hostmaster.provider.test',
    serial: 7,
    refresh: 3600,
    retry: 600,
    expire: 1_209_600,
    minimum: 300,
  });
  const ns = one(query('dkim.provider.test', 'NS'));
  assert.deepEqual(
    ns.answers!.map((a) => (a as any).data),
    ['ns1.provider.test', 'ns2.provider.test'],
  );
  for (const [name, type, rcode] of [
    ['dkim.provider.test', 'TXT', 'NOERROR'],
    ['tok1.dkim.provider.test', 'A', 'NOERROR'],
    ['unknown.dkim.provider.test', 'TXT', 'NXDOMAIN'],
    ['x.tok1.dkim.provider.test', 'TXT', 'NXDOMAIN'],
  ] as const) {
    const reply = one(query(name, type));
    assert.equal(reply.rcode, rcode, `${name} ${type}`);
    assert.equal(reply.flag_aa, true);
    assert.equal(reply.answers!.length, 0);
    assert.equal(reply.authorities![0]!.type, 'SOA');
    assert.equal(reply.authorities![0]!.ttl, 300);
  }
});

// Regression (issue 36): ANY was REFUSED, where RFC 8482 asks for a small answer
test('ANY gets RFC 8482’s one synthesized HINFO at a name that exists, NXDOMAIN elsewhere', () => {
  const any = one(query('tok1.dkim.provider.test', 'ANY', { edns: 4096 }));
  assert.equal(any.rcode, 'NOERROR');
  assert.equal(any.flag_aa, true);
  assert.deepEqual(
    any.answers!.map((a) => [a.name, a.type, (a as { data: unknown }).data]),
    [['tok1.dkim.provider.test', 'HINFO', { cpu: 'RFC8482', os: '' }]],
  );
  assert.ok(any.size < 100, 'an ANY query gets a tiny answer, never the key');
  assert.equal(one(query('dkim.provider.test', 'ANY')).answers![0]!.type, 'HINFO');
  assert.equal(one(query('nobody.dkim.provider.test', 'ANY')).rcode, 'NXDOMAIN');
  assert.equal(one(query('example.com', 'ANY')).rcode, 'REFUSED');
});

// Regression (issue 36): the answer's OPT dropped the query's DO bit (RFC 3225 §3: copy it)
test('the DO bit of the query comes back in the answer’s OPT; without it, it stays clear', () => {
  const withDo = query('tok1.dkim.provider.test', 'TXT', { edns: 1232 });
  (withDo.additionals![0] as { flags: number }).flags = 0x8000;
  const opt = (reply: ReturnType<typeof one>) =>
    reply.additionals!.find((a) => a.type === 'OPT') as { flags: number; flag_do?: boolean };
  assert.equal(opt(one(withDo)).flags & 0x8000, 0x8000);
  assert.equal(opt(one(query('tok1.dkim.provider.test', 'TXT', { edns: 1232 }))).flags & 0x8000, 0);
});

test('names outside the zone, other classes, other opcodes and several questions are refused', () => {
  assert.equal(one(query('example.com', 'TXT')).rcode, 'REFUSED');
  assert.equal(one(query('example.com', 'TXT')).flag_aa, false);
  assert.equal(one(query('provider.test', 'SOA')).rcode, 'REFUSED');
  const chaos = query('tok1.dkim.provider.test', 'TXT');
  chaos.questions![0]!.class = 'CH';
  assert.equal(one(chaos).rcode, 'REFUSED');
  const update = { ...query('dkim.provider.test', 'SOA'), flags: 5 << 11 };
  assert.equal(one(update).rcode, 'NOTIMP');
  const two = query('tok1.dkim.provider.test', 'TXT');
  two.questions!.push({ name: 'dkim.provider.test', type: 'SOA', class: 'IN' });
  assert.equal(one(two).rcode, 'FORMERR');
  const none = { ...query('x', 'A'), questions: [] };
  assert.equal(one(none).rcode, 'FORMERR');
});

test('UDP answers that do not fit are truncated (TC, no records); EDNS0 sizes are honoured', () => {
  const plain = one(query(`${TOKEN}.dkim.provider.test`, 'TXT'));
  assert.equal(plain.flag_tc, true, 'a 2048-bit key record at a real token does not fit 512 bytes');
  assert.equal(plain.answers!.length, 0);
  assert.ok(plain.size <= 512);
  const small = one(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 300 }));
  assert.equal(small.flag_tc, true, 'a payload size below 512 counts as 512 (RFC 6891 §6.2.5)');
  const fits = one(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }));
  assert.equal(fits.flag_tc, false);
  assert.equal(fits.answers!.length, 1);
  assert.ok(fits.size <= 1232);
  const opt = fits.additionals!.find((a) => a.type === 'OPT') as any;
  assert.equal(opt.udpPayloadSize, MAX_UDP_PAYLOAD);
  const tcpReply = one(query(`${TOKEN}.dkim.provider.test`, 'TXT'), tcp);
  assert.equal(tcpReply.flag_tc, false);
  assert.equal(tcpReply.answers!.length, 1);
  assert.equal(tcpReply.additionals!.length, 0, 'no OPT in reply to a query without one');
});

test('EDNS0: two OPT records are FORMERR, version 1 is BADVERS (RFC 6891 §6.1.3)', () => {
  const twice = query('tok1.dkim.provider.test', 'TXT', { edns: 1232 });
  twice.additionals!.push({ name: '.', type: 'OPT', udpPayloadSize: 1232, flags: 0 } as never);
  assert.equal(one(twice).rcode, 'FORMERR');
  const v1 = query('tok1.dkim.provider.test', 'TXT', { edns: 1232 });
  (v1.additionals![0] as any).ednsVersion = 1;
  const reply = one(v1);
  const opt = reply.additionals!.find((a) => a.type === 'OPT') as any;
  assert.equal(reply.answers!.length, 0);
  assert.equal(opt.extendedRcode, 1, 'BADVERS = 16: upper bits 1 in OPT, 0 in the header');
  assert.equal(opt.ednsVersion, 0);
});

test('AXFR: only over TCP to allowed clients; SOA first and last, every record between', () => {
  assert.equal(one(query('dkim.provider.test', 'AXFR')).rcode, 'REFUSED');
  assert.equal(one(query('dkim.provider.test', 'AXFR'), tcp).rcode, 'REFUSED');
  assert.equal(
    one(query('tok1.dkim.provider.test', 'AXFR'), { transport: 'tcp', transferAllowed: true }).rcode,
    'REFUSED',
  );
  const messages = ask(query('dkim.provider.test', 'AXFR'), { transport: 'tcp', transferAllowed: true });
  const records = messages.flatMap((m) => m.answers!);
  assert.deepEqual(
    records.map((r) => `${r.name} ${r.type}`),
    [
      'dkim.provider.test SOA',
      'dkim.provider.test NS',
      'dkim.provider.test NS',
      `${TOKEN}.dkim.provider.test TXT`,
      'revoked.dkim.provider.test TXT',
      'tok1.dkim.provider.test TXT',
      'dkim.provider.test SOA',
    ],
  );
  assert.ok(messages.every((m) => m.flag_aa && m.id === 4242));
});

test('garbage, truncated messages and responses get no reply at all', () => {
  const good = dnsPacket.encode(query('tok1.dkim.provider.test', 'TXT'));
  for (let cut = 0; cut < good.length; cut++) {
    assert.deepEqual(answerMessage(good.subarray(0, cut), zone, udp), [], `cut ${cut}`);
  }
  const response = dnsPacket.encode({ ...query('tok1.dkim.provider.test', 'TXT'), type: 'response' });
  assert.deepEqual(answerMessage(response, zone, udp), []);
  assert.deepEqual(answerMessage(Buffer.alloc(0), zone, udp), []);
  // A self-referencing compression pointer in the question name.
  const loop = Buffer.from(good);
  loop.writeUInt16BE(0xc00c, 12);
  assert.deepEqual(answerMessage(loop, zone, udp), []);
});

test('a large zone transfers in several messages, none over 64 KiB', () => {
  const keys = Array.from({ length: 500 }, (_, i) => ({ token: `t${i}`, publicKey: KEY }));
  const big = new DkimZone({ ...zoneContent(), keys });
  const wires = answerMessage(dnsPacket.encode(query('dkim.provider.test', 'AXFR')), big, {
    transport: 'tcp',
    transferAllowed: true,
  });
  assert.ok(wires.length > 5);
  assert.ok(wires.every((w) => w.length < 65_535));
  const records = wires.flatMap((w) => dnsPacket.decode(w).answers!);
  assert.equal(records.length, 2 + 1 + 500, 'two SOA, one NS, the keys');
  assert.equal(dnsPacket.decode(wires[1]!).questions!.length, 0, 'the question only in the first message');
});

function zoneContent() {
  return {
    origin: 'dkim.provider.test',
    serial: 1,
    nameServers: ['ns1.provider.test'],
    soaContact: 'hostmaster.provider.test',
    ttl: 300,
  };
}

test('the UDP answer cache gives byte-identical answers but for the ID, and knows zone versions apart', async () => {
  const { answerUdpCached } = await import('./answer-cache.js');
  for (const id of [1, 2, 65535]) {
    const message = dnsPacket.encode(query(`${TOKEN}.Dkim.Provider.Test`, 'TXT', { id, edns: 1232 }));
    assert.deepEqual(answerUdpCached(message, zone), answerMessage(message, zone, udp)[0]);
  }
  const junk = Buffer.from('definitely not dns at all');
  assert.equal(answerUdpCached(junk, zone), undefined);
  assert.equal(answerUdpCached(junk, zone), undefined, 'a cached "no reply" stays no reply');
  const next = new DkimZone({ ...zoneContent(), keys: [] });
  const message = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }));
  assert.equal(decodeReply(answerUdpCached(message, zone)!).rcode, 'NOERROR');
  assert.equal(decodeReply(answerUdpCached(message, next)!).rcode, 'NXDOMAIN');
});
