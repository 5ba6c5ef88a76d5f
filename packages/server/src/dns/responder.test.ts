/** The responder over real sockets: UDP and TCP, robustness, AXFR access, and dig's view. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { after, before, test } from 'node:test';
import dnsPacket from 'dns-packet';
import {
  decodeReply,
  query,
  tcpExchange,
  tcpQuery,
  udpExchange,
  udpQuery,
} from '../test-support/dns-client.js';
import { type DnsResponder, startDnsResponder } from './responder.js';
import { DkimZone } from './zone.js';

const TOKEN = 'a'.repeat(32);
const KEY = randomBytes(294).toString('base64'); // 392 characters, as a 2048-bit key's p=
const zone = new DkimZone({
  origin: 'dkim.provider.test',
  serial: 42,
  nameServers: ['ns.provider.test'],
  soaContact: 'hostmaster.provider.test',
  ttl: 300,
  keys: [{ token: TOKEN, publicKey: KEY }],
});
let responder: DnsResponder;
before(async () => {
  responder = await startDnsResponder({
    listen: { host: '127.0.0.1', port: 0 },
    zone: () => zone,
    // Only 127.0.0.1 is a secondary; tests connect from 127.0.0.2 to be someone else.
    transferAllowed: (address) => address === '127.0.0.1',
  });
});
after(() => responder?.close());

function dig(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'dig',
      ['@127.0.0.1', '-p', String(responder.address.port), '+time=2', '+tries=1', ...args],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

test('UDP and TCP share one port; dig sees an authoritative answer with the whole key', async () => {
  assert.ok(responder.address.port > 0);
  const out = await dig(`${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(out, /flags: qr aa rd;/);
  assert.match(out, /status: NOERROR/);
  const short = (await dig('+short', `${TOKEN}.dkim.provider.test`, 'TXT')).trim();
  assert.equal(short.split('" "').length, 2, 'two character-strings');
  assert.equal(short.replace(/" "/g, '').replace(/"/g, ''), `v=DKIM1; k=rsa; p=${KEY}`);
});

test('without EDNS0 the UDP answer is truncated and dig completes it over TCP', async () => {
  const truncated = await dig('+noedns', '+ignore', `${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(truncated, /flags: qr aa tc rd;/);
  assert.match(truncated, /ANSWER: 0/);
  const retried = await dig('+noedns', `${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(retried, /Truncated, retrying in TCP mode/);
  assert.match(retried, /ANSWER: 1/);
  const viaTcp = await tcpQuery(responder.address, query(`${TOKEN}.dkim.provider.test`, 'TXT'));
  assert.equal(viaTcp.flag_tc, false);
  assert.equal(viaTcp.answers!.length, 1);
});

test('EDNS0 buffer sizes are honoured over the wire', async () => {
  for (const [size, truncated] of [
    [512, true],
    [1232, false],
    [4096, false],
  ] as const) {
    const reply = await udpQuery(
      responder.address,
      query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: size }),
    );
    assert.equal(reply.flag_tc, truncated, `payload ${size}`);
    assert.ok(reply.size <= Math.max(512, Math.min(size, 1232)));
  }
});

test('EDNS version 1 gets BADVERS on the wire (dig then retries with version 0); two OPTs get FORMERR', async () => {
  // dig negotiates by default, so its final status is NOERROR after a BADVERS: the first answer
  // is the one under test.
  const strict = await dig('+edns=1', '+noednsneg', `${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(strict, /status: BADVERS/);
  assert.match(strict, /EDNS: version: 0/);
  assert.match(
    await dig('+edns=1', `${TOKEN}.dkim.provider.test`, 'TXT'),
    /BADVERS, retrying with EDNS version 0/,
  );
  const opt = { name: '.', type: 'OPT', udpPayloadSize: 1232, flags: 0 } as never;
  const twoOpts = dnsPacket.encode({
    ...query(`${TOKEN}.dkim.provider.test`, 'TXT'),
    additionals: [opt, opt],
  });
  assert.equal(decodeReply((await udpExchange(responder.address, twoOpts))!).rcode, 'FORMERR');
});

test('NXDOMAIN with the SOA in authority; ANY gets RFC 8482’s tiny answer; DO comes back, as dig sees them', async () => {
  const out = await dig('nobody.dkim.provider.test', 'TXT');
  assert.match(out, /status: NXDOMAIN/);
  assert.match(
    out,
    /AUTHORITY SECTION:\ndkim\.provider\.test\.\s+300\s+IN\s+SOA\s+ns\.provider\.test\. hostmaster\.provider\.test\. 42 /,
  );
  const any = await udpQuery(responder.address, query(`${TOKEN}.dkim.provider.test`, 'ANY', { edns: 4096 }));
  assert.equal(any.rcode, 'NOERROR');
  // the name twice (dns-packet does not compress) and one HINFO: never the key's 400 bytes
  assert.ok(any.size < 160, `${any.size} bytes`);
  assert.match(await dig(`${TOKEN}.dkim.provider.test`, 'ANY'), /IN\s+HINFO\s+"RFC8482" ""/);
  // dig +dnssec sets DO; the answer's OPT says "flags: do" as BIND's does
  assert.match(await dig('+dnssec', `${TOKEN}.dkim.provider.test`, 'TXT'), /EDNS: version: 0, flags: do;/);
  assert.match(await dig(`${TOKEN}.dkim.provider.test`, 'TXT'), /EDNS: version: 0, flags:;/);
});

test('random and truncated packets are dropped and the responder keeps answering', async () => {
  const good = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }));
  const socket = dgram.createSocket('udp4');
  let replies = 0;
  let biggest = 0;
  // A good query with its own id goes after the junk, on the same socket: the responder reads
  // datagrams in order, so its answer comes after whatever the junk drew, however slow the
  // machine, and no fixed sleep has to guess how long that takes.
  const marker = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232, id: 7777 }));
  const answered = new Promise<void>((resolve) =>
    socket.on('message', (m) => {
      if (m.length > 12 && m.readUInt16BE(0) === 7777 && decodeReply(m).answers?.length === 1)
        return resolve();
      replies += 1;
      biggest = Math.max(biggest, m.length);
    }),
  );
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  for (let i = 0; i < 3000; i++) {
    const junk = i % 3 === 0 ? good.subarray(0, i % good.length) : randomBytes(1 + (i % 600));
    socket.send(junk, responder.address.port, '127.0.0.1');
  }
  // sent again each second, as a resolver would, in case the flood overran the socket buffer
  const resend = setInterval(() => socket.send(marker, responder.address.port, '127.0.0.1'), 1000);
  socket.send(marker, responder.address.port, '127.0.0.1');
  await Promise.race([
    answered,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('no answer to a good query within 20 s')), 20_000).unref(),
    ),
  ]);
  clearInterval(resend);
  socket.close();
  assert.ok(replies < 100, `${replies} replies to 3000 junk datagrams`);
  assert.ok(biggest <= 512, 'nothing sent to junk is larger than a classic DNS message');
  // TCP: two junk messages (tcpExchange frames each with its true length), then a good query.
  const junkFrames = [randomBytes(50), Buffer.from([0xff, 0xff, 1, 2, 3])];
  const junkReplies = await tcpExchange(responder.address, junkFrames, () => false, 300);
  assert.deepEqual(junkReplies, [], 'no replies to junk TCP frames');
  const reply = await udpQuery(
    responder.address,
    query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }),
  );
  assert.equal(reply.answers!.length, 1);
  const tcpReply = await tcpQuery(responder.address, query(`${TOKEN}.dkim.provider.test`, 'TXT'));
  assert.equal(tcpReply.answers!.length, 1, 'TCP still serves after junk');
});

test('TCP: pipelined queries are all answered, in order, on one connection', async () => {
  const messages = [1, 2, 3].map((id) =>
    dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { id })),
  );
  const replies = await tcpExchange(responder.address, messages, (r) => r.length === 3);
  assert.deepEqual(
    replies.map((r) => r.id),
    [1, 2, 3],
  );
});

test('AXFR to an allow-listed secondary, REFUSED to anyone else and over UDP; a secondary’s IXFR over UDP gets the SOA', async () => {
  const transfer = await dig('dkim.provider.test', 'AXFR');
  const records = transfer.split('\n').filter((l) => /\sIN\s/.test(l) && !l.startsWith(';'));
  assert.deepEqual(
    records.map((l) => l.split(/\s+/)[3]),
    ['SOA', 'NS', 'TXT', 'SOA'],
  );
  const outsider = await new Promise<Buffer>((resolve, reject) => {
    const socket = net.connect({
      port: responder.address.port,
      host: '127.0.0.1',
      localAddress: '127.0.0.2',
    });
    const message = dnsPacket.streamEncode(query('dkim.provider.test', 'AXFR'));
    socket.on('connect', () => socket.write(message));
    socket.on('data', (d) => {
      socket.destroy();
      resolve(d);
    });
    socket.on('error', reject);
  });
  assert.equal(decodeReply(outsider.subarray(2)).rcode, 'REFUSED');
  const overUdp = await udpExchange(responder.address, dnsPacket.encode(query('dkim.provider.test', 'AXFR')));
  assert.equal(decodeReply(overUdp!).rcode, 'REFUSED');
  // an IXFR over UDP from an address that is no secondary is refused too, never dropped (dig
  // +notcp prints a transfer's records only, so its empty output looked like a drop: issue 36)
  const ixfr = dnsPacket.encode({
    ...query('dkim.provider.test', 'IXFR'),
    authorities: [{ ...zone.soa(), data: { ...zone.soa().data, serial: 1 } }],
  } as never);
  const fromOutsider = await udpExchange(responder.address, ixfr, { localAddress: '127.0.0.2' });
  assert.equal(decodeReply(fromOutsider!).rcode, 'REFUSED');
  // from the secondary (127.0.0.1 here), RFC 1995 §2's answer: the current SOA, "ask over TCP"
  const fromSecondary = decodeReply((await udpExchange(responder.address, ixfr))!);
  assert.equal(fromSecondary.rcode, 'NOERROR');
  assert.deepEqual(
    fromSecondary.answers?.map((a) => a.type),
    ['SOA'],
  );
});

// Regression (issue 36): a cookie-only query (QDCOUNT=0, RFC 7873 §5.4) got FORMERR, and no
// answer carried a server cookie
test('DNS cookies as dig sees them: a good server cookie over UDP and TCP, a cookie-only query, BADCOOKIE, FORMERR', async () => {
  const cookieOf = (out: string) => /; COOKIE: ([0-9a-f]{48}) \(good\)/.exec(out)?.[1];
  const first = await dig('+cookie', `${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(first, /status: NOERROR/);
  const cookie = cookieOf(first);
  assert.ok(cookie, `dig saw no good cookie:\n${first}`);
  assert.equal(cookie.slice(16, 24), '01000000', 'RFC 9018: version 1, three reserved bytes');
  // sent back, as a resolver does, it is good and gets a fresh one
  const again = await dig(`+cookie=${cookie}`, `${TOKEN}.dkim.provider.test`, 'TXT');
  assert.match(again, /status: NOERROR/);
  assert.equal(cookieOf(again)?.slice(0, 16), cookie.slice(0, 16));
  assert.ok(cookieOf(await dig('+tcp', '+cookie', 'dkim.provider.test', 'SOA')), 'over TCP too');
  // no question: the cookies alone
  const only = await dig('+header-only', '+cookie');
  assert.match(only, /status: NOERROR/);
  assert.match(only, /QUERY: 0, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1/);
  assert.ok(cookieOf(only));
  assert.match(await dig('+header-only', `+cookie=${cookie}`), /status: NOERROR/);
  // a server cookie that is not ours, with no question: BADCOOKIE (dig would retry without +nobadcookie)
  const forged = await dig('+header-only', '+nobadcookie', `+cookie=${cookie.slice(0, 24)}${'0'.repeat(24)}`);
  assert.match(forged, /status: BADCOOKIE/);
  assert.ok(cookieOf(forged), 'with a good cookie to retry with');
  // a COOKIE option of 7 bytes
  const malformed = await dig(
    '+nocookie',
    '+ednsopt=10:01020304050607',
    `${TOKEN}.dkim.provider.test`,
    'TXT',
  );
  assert.match(malformed, /status: FORMERR/);
  assert.doesNotMatch(malformed, /COOKIE:/);
});
