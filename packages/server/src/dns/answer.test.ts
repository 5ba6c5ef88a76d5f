/** The pure answer logic, message in and messages out, over a declarative zone. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket, { type Packet, type TxtAnswer } from 'dns-packet';
import { type DnsReply, decodeReply, query } from '../test-support/dns-client.js';
import { answerMessage, MAX_UDP_PAYLOAD } from './answer.js';
import { ServerCookies } from './cookie.js';
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

// DNS cookies (RFC 7873, RFC 9018), on the clock and at the address of RFC 9018 Appendix A.1
const A1 = {
  secret: 'e5e973e5a6b2a43f48e7dc849e37bfcf',
  client: '2464c4abcf10c957',
  address: '198.51.100.100',
  now: 1559731985,
  server: '010000005cf79f111f8130c3eee29480',
};
const maker = new ServerCookies(Buffer.from(A1.secret, 'hex'), () => A1.now * 1000);
const udpCookies = { ...udp, cookies: { maker, address: A1.address } };
const tcpCookies = { ...tcp, cookies: { maker, address: A1.address } };

/** `packet` with an OPT record (its own payload size, or 1232) carrying COOKIE options of these hex data. */
function withCookie(packet: Packet, ...cookies: string[]): Packet {
  const opt = {
    name: '.',
    type: 'OPT',
    udpPayloadSize:
      (packet.additionals?.[0] as { udpPayloadSize?: number } | undefined)?.udpPayloadSize ?? 1232,
    flags: 0,
    options: cookies.map((data) => ({ code: 10, data: Buffer.from(data, 'hex') })),
  };
  return { ...packet, additionals: [opt as never] };
}
const optOf = (reply: DnsReply) =>
  reply.additionals!.find((a) => a.type === 'OPT') as unknown as {
    extendedRcode: number;
    options: { code: number; data: Buffer }[];
  };
/** The COOKIE option data of a reply, hex; undefined when it has none. */
const cookieOf = (reply: DnsReply) =>
  optOf(reply)
    ?.options.find((o) => o.code === 10)
    ?.data.toString('hex');
const noQuestion = (): Packet => ({ ...query('x', 'A'), questions: [] });

test('a COOKIE option comes back with the client cookie and an RFC 9018 server cookie (Appendix A.1), over UDP and TCP', () => {
  const ask = withCookie(query('tok1.dkim.provider.test', 'TXT'), A1.client);
  for (const context of [udpCookies, tcpCookies]) {
    const reply = one(ask, context);
    assert.equal(reply.rcode, 'NOERROR');
    assert.equal(reply.answers!.length, 1);
    assert.equal(cookieOf(reply), A1.client + A1.server);
  }
  // a server cookie sent back (ours, or one we cannot check) gets a fresh one of ours
  const foreign = one(
    withCookie(query('tok1.dkim.provider.test', 'TXT'), A1.client + 'ff'.repeat(24)),
    udpCookies,
  );
  assert.equal(cookieOf(foreign), A1.client + A1.server);
  // NXDOMAIN, REFUSED and NOTIMP carry it too, as BIND's do
  assert.equal(
    cookieOf(one(withCookie(query('nobody.dkim.provider.test', 'TXT'), A1.client), udpCookies)),
    A1.client + A1.server,
  );
  assert.equal(
    cookieOf(one(withCookie(query('example.com', 'TXT'), A1.client), udpCookies)),
    A1.client + A1.server,
  );
  const notify = { ...withCookie(query('dkim.provider.test', 'SOA'), A1.client), flags: 4 << 11 };
  assert.equal(cookieOf(one(notify, udpCookies)), A1.client + A1.server);
  // BADVERS is decided before the options are read, as BIND does: no cookie
  const v1 = withCookie(query('tok1.dkim.provider.test', 'TXT'), A1.client);
  (v1.additionals![0] as { ednsVersion?: number }).ednsVersion = 1;
  assert.equal(optOf(one(v1, udpCookies)).extendedRcode, 1);
  assert.equal(cookieOf(one(v1, udpCookies)), undefined);
});

test('a truncated UDP answer keeps its cookie, which counts toward the size', () => {
  const reply = one(
    withCookie(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 512 }), A1.client),
    udpCookies,
  );
  assert.equal(reply.flag_tc, true);
  assert.equal(reply.answers!.length, 0);
  assert.ok(reply.size <= 512);
  assert.equal(cookieOf(reply), A1.client + A1.server);
});

// Regression (issue 36): a cookie-only query (QDCOUNT=0) got FORMERR
test('a query with no question but a cookie (RFC 7873 §5.4) gets NOERROR and the cookies alone; BADCOOKIE when its server cookie is not ours', () => {
  const reply = one(withCookie(noQuestion(), A1.client), udpCookies);
  assert.equal(reply.rcode, 'NOERROR');
  assert.equal(reply.flag_aa, false, 'no zone answered');
  assert.equal(reply.flag_rd, true, 'RD copied');
  assert.deepEqual([reply.questions!.length, reply.answers!.length, reply.authorities!.length], [0, 0, 0]);
  assert.equal(cookieOf(reply), A1.client + A1.server);
  // the server cookie we just made confirms as valid
  assert.equal(one(withCookie(noQuestion(), A1.client + A1.server), udpCookies).rcode, 'NOERROR');
  // one that is not ours: BADCOOKIE (extended RCODE 23: 1 in the OPT, 7 in the header) and a good one
  const bad = one(withCookie(noQuestion(), A1.client + '00'.repeat(16)), udpCookies);
  assert.equal((bad.flags ?? 0) & 0xf, 7);
  assert.equal(optOf(bad).extendedRcode, 1);
  assert.equal(cookieOf(bad), A1.client + A1.server);
  // without a cookie (or without cookies at all) no question stays FORMERR
  assert.equal(
    one({ ...noQuestion(), additionals: query('x', 'A', { edns: 1232 }).additionals }, udpCookies).rcode,
    'FORMERR',
  );
  assert.equal(one(noQuestion(), udpCookies).rcode, 'FORMERR');
  assert.equal(one(withCookie(noQuestion(), A1.client), udp).rcode, 'FORMERR');
});

test('a COOKIE option of a wrong length is FORMERR without a cookie (RFC 7873 §5.2.2), even after a good one', () => {
  for (const data of ['', '01020304050607', '010203040506070809', '00'.repeat(15), '00'.repeat(41)]) {
    for (const packet of [
      withCookie(query('tok1.dkim.provider.test', 'TXT'), data),
      withCookie(noQuestion(), data),
    ]) {
      const reply = one(packet, udpCookies);
      assert.equal(reply.rcode, 'FORMERR', `${data.length / 2} bytes`);
      assert.equal(cookieOf(reply), undefined);
    }
  }
  assert.equal(
    one(withCookie(query('tok1.dkim.provider.test', 'TXT'), A1.client, '0102'), udpCookies).rcode,
    'FORMERR',
  );
  // of two good ones the first counts
  const two = one(
    withCookie(query('tok1.dkim.provider.test', 'TXT'), A1.client, '1111111111111111'),
    udpCookies,
  );
  assert.equal(cookieOf(two), A1.client + A1.server);
});

test('queries without a COOKIE option are answered byte for byte as without cookies, cached or not', async () => {
  const { answerUdpCached } = await import('./answer-cache.js');
  const dnssec = query('tok1.dkim.provider.test', 'TXT', { edns: 1232 });
  (dnssec.additionals![0] as { flags: number }).flags = 0x8000;
  const v1 = query('tok1.dkim.provider.test', 'TXT', { edns: 1232 });
  (v1.additionals![0] as { ednsVersion: number }).ednsVersion = 1;
  const packets: Packet[] = [
    query('tok1.dkim.provider.test', 'TXT', { edns: 1232 }),
    query(`${TOKEN}.dkim.provider.test`, 'TXT'),
    query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 512 }),
    query('nobody.dkim.provider.test', 'TXT', { edns: 4096 }),
    query('dkim.provider.test', 'ANY'),
    query('dkim.provider.test', 'IXFR'),
    query('example.com', 'TXT', { edns: 1232 }),
    dnssec,
    v1,
    noQuestion(),
  ];
  for (const packet of packets) {
    const wire = dnsPacket.encode(packet);
    const plain = answerMessage(wire, zone, udp);
    assert.deepEqual(answerMessage(wire, zone, udpCookies), plain);
    assert.deepEqual(answerMessage(wire, zone, tcpCookies), answerMessage(wire, zone, tcp));
    for (let i = 0; i < 2; i++) assert.deepEqual(answerUdpCached(wire, zone, udpCookies.cookies), plain[0]);
  }
});

test('the UDP answer cache serves queries with cookies: each client gets its own cookie, as uncached', async () => {
  const { answerUdpCached } = await import('./answer-cache.js');
  const clients = [
    { address: '198.51.100.100', cookie: A1.client },
    { address: '203.0.113.203', cookie: 'fc93fc62807ddb86' },
    { address: '2001:db8:220:1:59de:d0f4:8769:82b8', cookie: '22681ab97d52c298' + A1.server },
  ];
  for (let round = 0; round < 3; round++) {
    for (const [i, client] of clients.entries()) {
      for (const packet of [
        query(`${TOKEN}.dkim.provider.test`, 'TXT', { id: round * 10 + i }),
        query(`${TOKEN}.dkim.provider.test`, 'TXT', { id: round * 10 + i, edns: 512 }),
        query('nobody.dkim.provider.test', 'TXT'),
        noQuestion(),
      ]) {
        const message = dnsPacket.encode(withCookie(packet, client.cookie));
        const cookies = { maker, address: client.address };
        const cached = answerUdpCached(message, zone, cookies);
        assert.deepEqual(
          cached,
          answerMessage(message, zone, { ...udp, cookies })[0],
          `${client.address} round ${round}`,
        );
        assert.equal(
          cookieOf(decodeReply(cached!)),
          client.cookie.slice(0, 16) +
            maker.make(Buffer.from(client.cookie.slice(0, 16), 'hex'), client.address).toString('hex'),
        );
      }
    }
  }
  // the same question without a cookie is another entry: no cookie comes back
  const plain = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }));
  assert.equal(
    cookieOf(decodeReply(answerUdpCached(plain, zone, { maker, address: A1.address })!)),
    undefined,
  );
  // malformed cookies stay FORMERR from the cache
  const malformed = dnsPacket.encode(withCookie(query(`${TOKEN}.dkim.provider.test`, 'TXT'), '0102030405'));
  for (let i = 0; i < 2; i++)
    assert.equal(
      decodeReply(answerUdpCached(malformed, zone, { maker, address: A1.address })!).rcode,
      'FORMERR',
    );
});
