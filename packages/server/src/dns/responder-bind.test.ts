/**
 * The responder beside BIND 9 serving the same zone (BIND as its secondary, as in production),
 * asked the same questions on the wire: where they agree, and the few places we differ on
 * purpose (issue 36 item 10: IXFR over UDP, DNS cookies).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { after, before, test } from 'node:test';
import dnsPacket, { type Packet } from 'dns-packet';
import { type BindServer, startBind } from '../test-support/bind.js';
import { type DnsReply, decodeReply, query } from '../test-support/dns-client.js';
import { type DnsResponder, startDnsResponder } from './responder.js';
import { DkimZone } from './zone.js';

const ORIGIN = 'dkim.provider.test';
const TOKEN = 'b'.repeat(32);
const zone = new DkimZone({
  origin: ORIGIN,
  serial: 42,
  nameServers: ['ns.provider.test'],
  soaContact: 'hostmaster.provider.test',
  ttl: 300,
  keys: [{ token: TOKEN, publicKey: randomBytes(294).toString('base64') }],
});
/** 127.0.0.1 is the secondary (BIND pulls from there); 127.0.0.2 is anyone else. */
const OUTSIDER = '127.0.0.2';

let responder: DnsResponder;
let bind: BindServer;
/** Both servers, by name, each as its port. */
let servers: { name: 'ours' | 'BIND'; port: number }[];
before(async () => {
  responder = await startDnsResponder({
    listen: { host: '127.0.0.1', port: 0 },
    zone: () => zone,
    transferAllowed: (address) => address === '127.0.0.1',
  });
  // BIND's own test configuration allows transfers to 127.0.0.1 alone too
  bind = await startBind({ secondaries: [{ zone: ORIGIN, primary: `127.0.0.1:${responder.address.port}` }] });
  await bind.retransfer(ORIGIN);
  await bind.waitFor(ORIGIN, 'SOA', (soa) => soa[0]?.serial === 42, 10_000);
  servers = [
    { name: 'ours', port: responder.address.port },
    { name: 'BIND', port: bind.port },
  ];
});
after(async () => {
  await bind?.close();
  await responder?.close();
});

function dig(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=2', ...args], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** One UDP query from `localAddress`, its decoded reply. */
function ask(port: number, packet: Packet, localAddress = '127.0.0.1'): Promise<DnsReply> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const message = dnsPacket.encode(packet);
    const timer = setInterval(() => socket.send(message, port, '127.0.0.1'), 1000);
    const finish = (done: () => void) => {
      clearInterval(timer);
      socket.close();
      done();
    };
    socket.on('message', (reply) => finish(() => resolve(decodeReply(reply))));
    socket.on('error', (error) => finish(() => reject(error)));
    socket.bind(0, localAddress, () => socket.send(message, port, '127.0.0.1'));
  });
}

/** `packet` with an OPT record carrying one COOKIE option of this hex data. */
function withCookie(packet: Packet, hex: string): Packet {
  const opt = {
    name: '.',
    type: 'OPT',
    udpPayloadSize: 1232,
    flags: 0,
    options: [{ code: 10, data: Buffer.from(hex, 'hex') }],
  };
  return { ...packet, additionals: [opt as never] };
}
/** The COOKIE option data of a reply, hex. */
const cookieOf = (reply: DnsReply) =>
  (reply.additionals ?? [])
    .flatMap((a) => (a as { options?: { code: number; data: Buffer }[] }).options ?? [])
    .find((o) => o.code === 10)
    ?.data.toString('hex');
/** What the header says (dns-packet keeps QR apart, as `type`): AA, TC, RD, RA, and the RCODE with the OPT's extension. */
const header = (reply: DnsReply) => ({
  type: reply.type,
  flags: (reply.flags ?? 0) & 0x0780,
  rcode:
    (((reply.additionals?.find((a) => a.type === 'OPT') as { extendedRcode?: number })?.extendedRcode ?? 0) <<
      4) |
    ((reply.flags ?? 0) & 0xf),
  questions: reply.questions?.length,
  answers: reply.answers?.length,
});
const BADCOOKIE = 23;

// Issue 36 reported the IXFR "dropped": dig prints only a transfer's records, so a REFUSED reply
// shows as nothing at all. Both servers do answer it.
test('IXFR over UDP: REFUSED by both to an address that is no secondary, with or without the SOA in authority; the SOA alone to the secondary', async () => {
  for (const { name, port } of servers) {
    const quiet = await dig(port, '-b', OUTSIDER, '+notcp', 'ixfr=1', ORIGIN);
    assert.doesNotMatch(quiet, /status:/, `${name}: dig shows no status for a transfer`);
    assert.match(quiet, /MSG SIZE {2}rcvd: \d+/, `${name}: but a reply came`);
    const shown = await dig(port, '-b', OUTSIDER, '+notcp', '+comments', 'ixfr=1', ORIGIN);
    assert.match(shown, /status: REFUSED/, name);
    assert.match(
      shown,
      /flags: qr; QUERY: 1, ANSWER: 0, AUTHORITY: 0/,
      `${name}: not authoritative, no records`,
    );
    // as RFC 1995 §3 sends it (dig's above carries the SOA too), and without the SOA
    const soa = { ...zone.soa(), data: { ...zone.soa().data, serial: 1 } };
    for (const authorities of [[soa], []]) {
      const reply = await ask(port, { ...query(ORIGIN, 'IXFR'), authorities } as Packet, OUTSIDER);
      assert.equal(reply.rcode, 'REFUSED', `${name}, ${authorities.length} SOA`);
      assert.equal(reply.flag_aa, false);
    }
  }
  // From the secondary itself, both answer a UDP IXFR with the SOA alone (RFC 1995 §2: "ask over
  // TCP"); ours refused it before (issue 36's leftover).
  for (const { name, port } of servers) {
    const fromSecondary = await dig(port, '+notcp', '+comments', 'ixfr=1', ORIGIN);
    assert.match(fromSecondary, /status: NOERROR/, name);
    // (BIND leaves AA off this answer; ours sets it, as on every answer from the zone)
    assert.match(fromSecondary, /flags: qr( aa)?; QUERY: 1, ANSWER: 1, AUTHORITY: 0/, name);
    assert.match(fromSecondary, /IN\s+SOA\s+ns\.provider\.test\. hostmaster\.provider\.test\. 42 /, name);
  }
});

test('DNS cookies beside BIND: the same answers, each with its own good RFC 9018 server cookie', async () => {
  const answerSections: string[] = [];
  for (const { name, port } of servers) {
    const out = await dig(port, '+cookie', `${TOKEN}.${ORIGIN}`, 'TXT');
    assert.match(out, /status: NOERROR/, name);
    assert.match(out, /flags: qr aa rd;/, name);
    const cookie = /; COOKIE: ([0-9a-f]{48}) \(good\)/.exec(out)?.[1];
    assert.ok(cookie, `${name}: no good cookie in\n${out}`);
    assert.equal(cookie.slice(16, 24), '01000000', `${name}: version 1, reserved 0`);
    // the timestamps are the servers' clocks, seconds apart at most
    const stamped = Number.parseInt(cookie.slice(24, 32), 16);
    assert.ok(Math.abs(stamped - Date.now() / 1000) < 60, `${name}: timestamp ${stamped}`);
    answerSections.push(/;; ANSWER SECTION:\n([\s\S]*?)\n\n/.exec(out)?.[1] ?? '');
  }
  assert.match(answerSections[0]!, /IN\s+TXT\s+"v=DKIM1; k=rsa; p=/);
  assert.equal(answerSections[0], answerSections[1]);
});

test('cookie-only queries (QDCOUNT=0, built with dns-packet) beside BIND: NOERROR and the cookies; a forged server cookie is where we differ', async () => {
  const client = randomBytes(8).toString('hex');
  const noQuestion = (cookie: string) => withCookie({ ...query('x', 'A'), questions: [] }, cookie);
  const replies = await Promise.all(servers.map(({ port }) => ask(port, noQuestion(client))));
  for (const [i, reply] of replies.entries()) {
    const name = servers[i]!.name;
    assert.deepEqual(
      header(reply),
      { type: 'response', flags: 0x0100, rcode: 0, questions: 0, answers: 0 },
      `${name}: qr rd, NOERROR, nothing else`,
    );
    assert.equal(cookieOf(reply)?.slice(0, 24), `${client}01000000`, name);
    // its own server cookie sent back: NOERROR again
    const confirmed = await ask(servers[i]!.port, noQuestion(cookieOf(reply)!));
    assert.equal(header(confirmed).rcode, 0, `${name}: its own cookie confirmed`);
  }
  // A server cookie neither made: RFC 7873 §5.4 says BADCOOKIE, which we answer; BIND 9.18 answers
  // NOERROR (it checks the cookie of a query with no question for form only). Both give a good one.
  const forged = `${client}${'00'.repeat(16)}`;
  const [ours, theirs] = await Promise.all(servers.map(({ port }) => ask(port, noQuestion(forged))));
  assert.equal(header(ours!).rcode, BADCOOKIE);
  assert.equal(header(theirs!).rcode, 0);
  for (const reply of [ours!, theirs!]) assert.equal(cookieOf(reply)?.slice(0, 24), `${client}01000000`);
});

test('malformed COOKIE options beside BIND: FORMERR from both, with the question and no cookie; BADVERS carries none either', async () => {
  for (const { name, port } of servers) {
    for (const data of ['01020304050607', '010203040506070809', '00'.repeat(41)]) {
      const reply = await ask(port, withCookie(query(ORIGIN, 'SOA'), data));
      assert.deepEqual(
        header(reply),
        { type: 'response', flags: 0x0100, rcode: 1, questions: 1, answers: 0 },
        `${name}, ${data.length / 2} bytes`,
      );
      assert.equal(cookieOf(reply), undefined, name);
    }
    const badvers = await dig(port, '+cookie', '+edns=1', '+noednsneg', ORIGIN, 'SOA');
    assert.match(badvers, /status: BADVERS/, name);
    assert.doesNotMatch(badvers, /COOKIE:/, name);
  }
});
