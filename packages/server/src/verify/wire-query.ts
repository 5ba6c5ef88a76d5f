/**
 * One DNS question to one server, read at the packet level: the AA bit, the rcode and the
 * authority section, which a stub resolver library (Node's, c-ares) hides. Verification needs
 * them to tell an authoritative "no such record" from a referral or a lame server (issue 36).
 *
 * As a resolver asks: over UDP with EDNS0 (a 1232-byte buffer, the DNS Flag Day 2020 value),
 * again over TCP when the answer is truncated (RFC 7766 §5), again without EDNS0 when a server
 * answers FORMERR to it (RFC 6891 §7). A reply counts only when its ID and question match ours
 * (RFC 5452 §9.1); anything else on the socket is ignored, as a forgery or a late answer.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Packet, type RecordType } from 'dns-packet';
import { FrameReader, framed } from '../dns/tcp-frame.js';

/** An address and port to ask. */
export interface WireServer {
  address: string;
  port: number;
}

/** The parts of a reply verification reads. */
export interface WireReply {
  /** `NOERROR`, `NXDOMAIN`, `SERVFAIL`, `REFUSED`… as dns-packet names them. */
  rcode: string;
  /** The AA bit: the server answered from a zone it serves (RFC 1035 §4.1.1). */
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
}

export interface WireQueryOptions {
  /** The wait for each message exchanged (UDP, then TCP or plain UDP when needed). */
  timeoutMs: number;
  /** RD: set when asking a recursive resolver, clear when asking an authoritative server. */
  recursionDesired?: boolean;
}

/** The buffer size we offer (and the largest UDP answer we take). */
const UDP_PAYLOAD = 1232;

/** A failed exchange, with a code in the style of Node's resolver (`ETIMEOUT`, `ECONNREFUSED`). */
const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * Ask `server` for `type` at `name`. Rejects with `code` `ETIMEOUT` (no matching reply in
 * time: one that does not decode is ignored like a stranger's), `ECONNREFUSED` (nobody
 * listens), or `EBADRESP` (the TCP connection closed before the reply).
 */
export async function queryServer(
  server: WireServer,
  name: string,
  type: RecordType,
  options: WireQueryOptions,
): Promise<WireReply> {
  const waiting = socketFor(server).waiting;
  const ask = (edns: boolean) => {
    const id = freeId(waiting);
    return {
      id,
      wire: dnsPacket.encode(question(id, name, type, edns, options.recursionDesired ?? false)),
    };
  };
  let sent = ask(true);
  let reply = await udpExchange(server, sent, name, type, options);
  if (rcodeOf(reply) === 'FORMERR' && !hasOpt(reply)) {
    // a server from before EDNS0 (RFC 6891 §7): the same question without the OPT record
    sent = ask(false);
    reply = await udpExchange(server, sent, name, type, options);
  }
  if (reply.flag_tc) reply = await tcpExchange(server, sent, name, type, options.timeoutMs);
  return {
    rcode: rcodeOf(reply),
    authoritative: reply.flag_aa === true,
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
    additionals: reply.additionals ?? [],
  };
}

function question(id: number, name: string, type: RecordType, edns: boolean, recursion: boolean): Packet {
  return {
    id,
    type: 'query',
    flags: recursion ? dnsPacket.RECURSION_DESIRED : 0,
    questions: [{ name, type, class: 'IN' }],
    additionals: edns ? [{ name: '.', type: 'OPT', udpPayloadSize: UDP_PAYLOAD, flags: 0 } as Answer] : [],
  };
}

/** dns-packet decodes the rcode's name, which its types leave out. */
type Decoded = DecodedPacket & { rcode?: string };
const rcodeOf = (reply: DecodedPacket) => (reply as Decoded).rcode ?? 'NOERROR';

const hasOpt = (reply: DecodedPacket) => (reply.additionals ?? []).some((a) => a.type === 'OPT');

/** A random ID that no question waiting on the socket has. */
function freeId(waiting: SharedSocket['waiting']): number {
  for (;;) {
    const id = randomInt(0x10000);
    if (!waiting.has(id)) return id;
  }
}

/** The decoded reply when it answers our question (ID, QR, and the question echoed), else `undefined`. */
function matching(wire: Buffer, id: number, name: string, type: RecordType): DecodedPacket | undefined {
  let reply: DecodedPacket;
  try {
    reply = dnsPacket.decode(wire);
  } catch {
    return undefined;
  }
  const asked = reply.questions?.[0];
  if (reply.id !== id || !reply.flag_qr) return undefined;
  // A reply without the question is allowed only for errors that could not parse ours.
  if (asked === undefined) return rcodeOf(reply) === 'FORMERR' ? reply : undefined;
  return asked.type === type && asked.name.toLowerCase() === name.toLowerCase().replace(/\.$/, '')
    ? reply
    : undefined;
}

/**
 * The UDP sockets questions leave from: one per server, connected to it, shared by every
 * question to that server as c-ares shares its sockets (a socket per question cost more than
 * the question: 3.4k against 14k questions/s on loopback). Connected, because only then does
 * the ICMP "port unreachable" of a server that is not there end its questions at once; an
 * unconnected socket never hears it and waits out every timeout. Replies are told apart by ID,
 * sender and question. A socket is replaced every {@link QUESTIONS_PER_SOCKET} questions, so
 * its port does not stay guessable for long, and the {@link MAX_SOCKETS} most recently used
 * are kept open, the oldest closed when its questions are done.
 */
interface SharedSocket {
  socket: dgram.Socket;
  /** Settles once the socket is connected. */
  ready: Promise<void>;
  asked: number;
  /**
   * The server is not there: fail every question waiting. Linux reports a connected socket's
   * ICMP error once, to whichever call comes next (a receive, or the send of another question),
   * so one error stands for all of them.
   */
  failAll: (error: NodeJS.ErrnoException) => void;
  /** Questions waiting, by ID; `fail` ends one with an error. */
  waiting: Map<
    number,
    { take: (wire: Buffer, from: dgram.RemoteInfo) => boolean; fail: (error: Error) => void }
  >;
}

const QUESTIONS_PER_SOCKET = 10_000;
const MAX_SOCKETS = 256;
/** Sockets by server, least recently used first. */
const sockets = new Map<string, SharedSocket>();

/** The socket for questions to `server`. */
function socketFor(server: WireServer): SharedSocket {
  const key = `${server.address} ${server.port}`;
  let shared = sockets.get(key);
  sockets.delete(key);
  if (shared && shared.asked < QUESTIONS_PER_SOCKET) {
    sockets.set(key, shared);
    return shared;
  }
  if (shared) retire(shared);
  const socket = dgram.createSocket(net.isIPv6(server.address) ? 'udp6' : 'udp4');
  const waiting: SharedSocket['waiting'] = new Map();
  const failAll = (error: NodeJS.ErrnoException) => {
    const failed = failure(error.code ?? 'ECONNREFUSED', error.message);
    for (const question of waiting.values()) question.fail(failed);
    waiting.clear();
  };
  socket.on('error', failAll);
  socket.on('message', (wire, from) => {
    if (wire.length < 2) return;
    const id = wire.readUInt16BE(0);
    if (waiting.get(id)?.take(wire, from)) waiting.delete(id);
  });
  const ready = new Promise<void>((resolve) => socket.connect(server.port, server.address, () => resolve()));
  // a process with nothing else to do is not kept alive by an idle socket
  socket.unref();
  shared = { socket, ready, asked: 0, waiting, failAll };
  sockets.set(key, shared);
  if (sockets.size > MAX_SOCKETS) {
    const [oldest, least] = sockets.entries().next().value!;
    sockets.delete(oldest);
    retire(least);
  }
  return shared;
}

/** Close a replaced socket once its last question is answered or has timed out. */
function retire(shared: SharedSocket): void {
  const closeWhenDone = () =>
    shared.waiting.size === 0 ? shared.socket.close() : setTimeout(closeWhenDone, 1000).unref();
  closeWhenDone();
}

function udpExchange(
  server: WireServer,
  sent: { id: number; wire: Buffer },
  name: string,
  type: RecordType,
  options: WireQueryOptions,
): Promise<DecodedPacket> {
  const shared = socketFor(server);
  shared.asked++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      shared.waiting.delete(sent.id);
      reject(failure('ETIMEOUT', `no answer from ${server.address} in ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    shared.waiting.set(sent.id, {
      take: (wire, from) => {
        if (from.address !== server.address || from.port !== server.port) return false;
        const reply = matching(wire, sent.id, name, type);
        if (reply === undefined) return false;
        clearTimeout(timer);
        resolve(reply);
        return true;
      },
      fail,
    });
    const done = (error: Error | null) => {
      if (error) shared.failAll(error);
    };
    shared.ready.then(() => shared.socket.send(sent.wire, done));
  });
}

function tcpExchange(
  server: WireServer,
  sent: { id: number; wire: Buffer },
  name: string,
  type: RecordType,
  timeoutMs: number,
): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: server.address, port: server.port });
    const frames = new FrameReader();
    const timer = setTimeout(
      () => finish(failure('ETIMEOUT', `no TCP answer from ${server.address} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const finish = (outcome: DecodedPacket | Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(failure(error.code === 'ETIMEDOUT' ? 'ETIMEOUT' : 'ECONNREFUSED', error.message)),
    );
    socket.on('close', () => finish(failure('EBADRESP', `${server.address} closed the TCP connection`)));
    socket.on('connect', () => socket.write(framed(sent.wire)));
    socket.on('data', (chunk) => {
      for (const message of frames.push(chunk)) {
        const reply = matching(message, sent.id, name, type);
        if (reply) return finish(reply);
      }
    });
  });
}
