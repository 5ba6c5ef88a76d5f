/**
 * The DNS responder's sockets: UDP and TCP on one address and port (RFC 1035 §4.2; TCP per
 * RFC 7766). All decisions are made by `answerMessage`; this file only frames and moves bytes.
 * What one client can make us do is bounded elsewhere: UDP answers by `ResponseRateLimiter`,
 * TCP connections and their deadlines by `TcpConnectionTable`. DNS cookies (RFC 7873) are
 * answered over both, bound to the client's address. A question whose key is not in the
 * zone's key cache (issue 39) waits for its load and is answered then (SERVFAIL when the
 * database cannot say); a zone transfer of such a zone is streamed from the database.
 *
 * Over UDP a plain query of a name held is answered first from a ready answer, read and written
 * at the wire (`answer-template.ts`); everything else goes through `answerMessage`.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { HostPort } from '../config.js';
import type { DnsCounters } from '../metrics/dns-counters.js';
import { answerMessage, type Pending, type QueryContext } from './answer.js';
import { answerUdpCached, hasValidServerCookie } from './answer-cache.js';
import { answerFromTemplate } from './answer-template.js';
import { transferStream } from './axfr.js';
import { normalizeAddress } from './client-address.js';
import { ServerCookies } from './cookie.js';
import {
  questionEnd,
  ResponseRateLimiter,
  type ResponseRateLimitOptions,
  truncatedReply,
} from './response-rate-limit.js';
import { TcpConnectionTable, type TcpLimits } from './tcp-connections.js';
import { FrameReader, framed } from './tcp-frame.js';
import { nativeUdpBatch, openBatchSocket, type UdpAnswerer, type UdpSender } from './udp-batch.js';
import type { ServedZones } from './zone-set.js';

export interface DnsResponderOptions {
  listen: HostPort;
  /** The zone (or zones) to answer from, read on every query (a reload swaps it atomically). */
  zone: () => ServedZones;
  /** Whether a client address may transfer the zone (AXFR/IXFR over TCP). */
  transferAllowed: (address: string) => boolean;
  /** TCP connections: how many, per client, and their deadlines (see `TcpConnectionTable`). */
  tcp?: TcpLimits;
  /**
   * UDP response rate limiting (see `ResponseRateLimiter`); `false` turns it off. Default 20
   * identical answers per second per client network, every 2nd dropped one sent truncated.
   */
  responseRateLimit?: ResponseRateLimitOptions | false;
  /**
   * The 16-byte secret of DNS server cookies (RFC 9018), which every server of the zone must
   * share (`cookieSecret(SECRET_KEY)`); by default a random one, which suits one responder alone.
   */
  cookieSecret?: Uint8Array;
  /** Where queries, rate-limit decisions and TCP connections are counted (issue 39). */
  counters?: DnsCounters;
  /**
   * UDP in batches through the native socket when it was built (`udp-batch.ts`; default true);
   * false: through `dgram`. The answers are the same bytes either way.
   */
  udpBatch?: boolean;
}

export interface DnsResponder {
  /** The bound address (the real port when `listen.port` was 0). */
  readonly address: HostPort;
  /** How UDP is read and written: in batches through the native socket, or through `dgram`. */
  readonly udp: 'batch' | 'dgram';
  /** TCP connections held now. */
  tcpConnections(): number;
  close(): Promise<void>;
}

/** Longest DNS message over TCP, plus its 2-byte length prefix. */
const MAX_TCP_FRAME = 2 + 65_535;

/** Listen on UDP and TCP at `options.listen`; with port 0 both share one free port. */
export async function startDnsResponder(options: DnsResponderOptions): Promise<DnsResponder> {
  const cookies = new ServerCookies(options.cookieSecret);
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(options, cookies);
    const port = udp.port;
    try {
      const tcp = await listenTcp(options, cookies, port);
      return {
        address: { host: options.listen.host, port },
        udp: udp.kind,
        tcpConnections: () => tcp.connections.size,
        close: async () => {
          await Promise.all([
            udp.close(),
            new Promise<void>((resolve) => {
              tcp.server.close(() => resolve());
              tcp.connections.closeAll();
            }),
          ]);
        },
      };
    } catch (error) {
      await udp.close();
      // With port 0 the UDP port's TCP twin may be taken: pick another pair.
      if (
        options.listen.port !== 0 ||
        attempt >= 10 ||
        (error as NodeJS.ErrnoException).code !== 'EADDRINUSE'
      )
        throw error;
    }
  }
}

/** The UDP side: its port, and closing it. */
interface UdpListener {
  kind: 'batch' | 'dgram';
  port: number;
  close(): Promise<void>;
}

/**
 * Binds UDP at `options.listen`: in batches through the native socket when it was built
 * (`udp-batch.ts`), else through `dgram`; the same answers either way.
 */
async function bindUdp(options: DnsResponderOptions, maker: ServerCookies): Promise<UdpListener> {
  let sendLater: (reply: Buffer, sender: UdpSender) => void = () => {};
  const answer = udpAnswerer(options, maker, (reply, sender) => sendLater(reply, sender));
  const native = options.udpBatch === false ? undefined : nativeUdpBatch();
  if (native) {
    const socket = openBatchSocket(native, options.listen.host, options.listen.port, answer);
    sendLater = socket.sendTo;
    return { kind: 'batch', port: socket.port, close: async () => socket.close() };
  }
  const type = net.isIPv6(options.listen.host) ? 'udp6' : 'udp4';
  // A reply goes to the address its query came from, always an IP: no lookup (Node's own
  // costs a check and a tick per datagram).
  const socket = dgram.createSocket({ type, ipv6Only: type === 'udp6', lookup: literalAddress });
  sendLater = (reply, sender) => socket.send(reply, sender.port, sender.address);
  socket.on('message', (message, remote) => {
    const reply = answer(message, remote);
    if (reply !== undefined) socket.send(reply, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.listen.port, options.listen.host, () => {
      socket.off('error', reject);
      // An ICMP error for one client must not stop the socket.
      socket.on('error', () => {});
      resolve();
    });
  });
  return {
    kind: 'dgram',
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/**
 * What answers a UDP query: the answer to send now, or undefined (none, or one that waits for
 * its key's load and goes out through `sendLater`). Every answer passes the rate limiter.
 */
function udpAnswerer(
  options: DnsResponderOptions,
  maker: ServerCookies,
  sendLater: (reply: Buffer, sender: UdpSender) => void,
): UdpAnswerer {
  const counters = options.counters;
  const limiter =
    options.responseRateLimit === false
      ? undefined
      : new ResponseRateLimiter(
          // The zone's secondaries are never limited, as BIND's `exempt-clients`.
          options.responseRateLimit ?? { perSecond: 20, slip: 2, exempt: options.transferAllowed },
        );
  /** What to send of `reply`: itself, truncated (a slip) or nothing, as the limiter decides. */
  const limited = (
    message: Buffer,
    reply: Buffer,
    cookies: { maker: ServerCookies; address: string },
  ): Buffer | undefined => {
    let decision = limiter?.decide(cookies.address, message, reply) ?? 'send';
    // A valid server cookie proves the address (a forged one never saw it): answered whatever
    // the rate, as BIND does. Checked only for an answer the limiter holds back, so the usual
    // answer costs nothing more.
    if (decision !== 'send' && hasValidServerCookie(message, cookies)) decision = 'send';
    if (counters) {
      counters.answered(0, message, reply);
      if (decision !== 'send') counters.rateLimited(decision);
    }
    return decision === 'send' ? reply : decision === 'slip' ? truncatedReply(reply) : undefined;
  };
  return (message, sender, into, at) => {
    // the plain query of a name held: a ready answer, no decoding (`answer-template.ts`)
    const ready = answerFromTemplate(message, options.zone(), maker, sender.address, into, at);
    if (ready !== undefined) {
      if (limiter !== undefined)
        return limited(message, ready, { maker, address: normalizeAddress(sender.address) });
      counters?.answered(0, message, ready);
      return ready;
    }
    const address = normalizeAddress(sender.address);
    const cookies = { maker, address };
    // A secondary's IXFR is answered for it (the SOA: "ask over TCP"); the cache, which does
    // not look at who asks, keeps everyone else's REFUSED.
    const secondaryIxfr = options.transferAllowed(address) && asksIxfr(message);
    // without a pending (the load failed): SERVFAIL, which no cache keeps
    const answer = (query: Buffer, pending: Pending | undefined) =>
      secondaryIxfr || pending === undefined
        ? answerMessage(query, options.zone(), {
            transport: 'udp',
            transferAllowed: secondaryIxfr,
            cookies,
            ...(pending && { pending }),
          })[0]
        : // a key just loaded: its ready answer made now, the first of many
          (answerFromTemplate(query, options.zone(), maker, address) ??
          answerUdpCached(query, options.zone(), cookies, pending));
    const pending: Pending = {};
    const reply = answer(message, pending);
    if (pending.load === undefined) return reply && limited(message, reply, cookies);
    // The query waits for its key's load: its own copy, as the batch socket reuses its bytes.
    const kept = Buffer.from(message);
    void answerLoaded(pending.load, (later) => answer(kept, later)).then((late) => {
      const sent = late && limited(kept, late, cookies);
      if (sent) sendLater(sent, sender);
    });
    return undefined;
  };
}

/** `dgram`'s `lookup` for addresses that are IPs already: handed back as they are, at once. */
function literalAddress(
  address: string,
  family: unknown,
  callback: (error: Error | null, address: string, family: number) => void,
): void {
  // dgram asks with the socket's family, 4 or 6
  callback(null, address, typeof family === 'number' ? family : net.isIPv6(address) ? 6 : 4);
}

/** Loads asked again when the key was invalidated between its load and the answer. */
const ANSWER_TRIES = 3;

/**
 * The answer to a question that waited for `token` to load: asked again once the key is in
 * the cache; SERVFAIL (`answer` without a pending) when the database did not answer.
 */
async function answerLoaded<T>(
  load: NonNullable<Pending['load']>,
  answer: (pending: Pending | undefined) => T,
): Promise<T> {
  for (let tries = 0; tries < ANSWER_TRIES; tries++) {
    if (!(await load.zone.load(load.token))) break;
    const pending: Pending = {};
    const reply = answer(pending);
    if (pending.load === undefined) return reply;
    load = pending.load;
  }
  return answer(undefined);
}

/**
 * A zone transfer read from the database page by page (`transferStream`), written as it comes,
 * waiting for the client to read when its buffer is full. A first page that cannot be read is
 * SERVFAIL; a later one ends the connection, as the secondary then knows the transfer failed
 * (RFC 5936 §2.2: a transfer ends with the SOA, which never came).
 */
async function streamTransfer(
  socket: net.Socket,
  transfer: NonNullable<Pending['transfer']>,
  message: Buffer,
  write: (message: Buffer, reply: Buffer) => void,
): Promise<void> {
  let sent = 0;
  try {
    for await (const reply of transferStream(transfer.zone, transfer.id, transfer.question)) {
      if (socket.destroyed) return;
      write(message, reply);
      sent++;
      if (socket.writableLength > MAX_PENDING_WRITE)
        await new Promise<void>((resolve) => {
          const done = () => {
            socket.off('drain', done);
            socket.off('close', done);
            resolve();
          };
          socket.on('drain', done);
          socket.on('close', done);
        });
    }
  } catch {
    if (sent === 0 && !socket.destroyed) {
      const context: QueryContext = { transport: 'tcp', transferAllowed: true };
      for (const reply of answerMessage(message, transfer.zone, context)) write(message, reply);
    } else socket.destroy();
  }
}

const TYPE_IXFR = 251;

/** Whether `message` is a plain query of type IXFR (its one question read as the limiter reads it). */
function asksIxfr(message: Buffer): boolean {
  if (message.length < 12 || message.readUInt16BE(4) !== 1) return false;
  const end = questionEnd(message);
  return end !== undefined && message.readUInt16BE(end - 4) === TYPE_IXFR;
}

/** Most answer bytes waiting to be written to one TCP client before we stop reading from it. */
const MAX_PENDING_WRITE = 1024 * 1024;

interface TcpListener {
  server: net.Server;
  connections: TcpConnectionTable;
}

function listenTcp(options: DnsResponderOptions, maker: ServerCookies, port: number): Promise<TcpListener> {
  const connections = new TcpConnectionTable(options.tcp);
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    const address = normalizeAddress(socket.remoteAddress ?? '');
    const connection = connections.admit(socket, address);
    const counters = options.counters;
    if (counters) {
      counters.tcpConnection(connection !== undefined);
      counters.tcpOpen = connections.size;
      socket.once('close', () => {
        counters.tcpOpen = connections.size;
      });
    }
    if (!connection) return;
    socket.setNoDelay(true);
    const context = {
      transport: 'tcp',
      transferAllowed: options.transferAllowed(address),
      cookies: { maker, address },
    } as const;
    const frames = new FrameReader();
    const write = (message: Buffer, reply: Buffer) => {
      options.counters?.answered(1, message, reply);
      socket.write(framed(reply));
    };
    /** Answers waiting for the database: later messages queue behind them, to keep the order. */
    let waiting: Promise<void> | undefined;
    const answerTcp = (message: Buffer): Promise<void> | undefined => {
      const pending: Pending = {};
      const replies = answerMessage(message, options.zone(), { ...context, pending });
      if (pending.load !== undefined)
        return answerLoaded(pending.load, (again) =>
          answerMessage(message, options.zone(), again ? { ...context, pending: again } : context),
        ).then((loaded) => {
          for (const reply of loaded) write(message, reply);
        });
      if (pending.transfer !== undefined) return streamTransfer(socket, pending.transfer, message, write);
      for (const reply of replies) write(message, reply);
      return undefined;
    };
    const enqueue = (message: Buffer) => {
      const waited = waiting ? waiting.then(() => answerTcp(message)) : answerTcp(message);
      if (waited === undefined) return;
      const settled: Promise<void> = waited.then(() => {
        if (waiting === settled) waiting = undefined;
      });
      waiting = settled;
    };
    socket.on('data', (chunk: Buffer) => {
      if (frames.pending === 0) connection.messageStarted();
      const messages = frames.push(chunk);
      for (const message of messages) {
        connection.messageDone();
        enqueue(message);
      }
      // Only a whole message renews a deadline: trickled bytes of one never do.
      if (frames.pending === 0) connection.waitForMessage();
      else if (messages.length > 0) connection.messageStarted();
      // A complete frame is at most MAX_TCP_FRAME, so more than that pending cannot happen;
      // the check keeps a misbehaving client from growing the buffer regardless.
      if (frames.pending > MAX_TCP_FRAME) connection.close();
      // A client that pipelines queries without reading the answers is read no further until
      // it catches up (its deadlines still run).
      if (socket.writableLength > MAX_PENDING_WRITE) {
        socket.pause();
        socket.once('drain', () => socket.resume());
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: options.listen.host, ipv6Only: net.isIPv6(options.listen.host) }, () => {
      server.off('error', reject);
      resolve({ server, connections });
    });
  });
}
