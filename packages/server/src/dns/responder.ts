/**
 * The DNS responder's sockets: UDP and TCP on one address and port (RFC 1035 §4.2; TCP per
 * RFC 7766). All decisions are made by `answerMessage`; this file only frames and moves bytes,
 * and bounds what one client can make us hold (connections, buffered bytes, idle time).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { HostPort } from '../config.js';
import { answerMessage } from './answer.js';
import { answerUdpCached } from './answer-cache.js';
import type { DkimZone } from './zone.js';

export interface DnsResponderOptions {
  listen: HostPort;
  /** The zone to answer from, read on every query (a reload swaps it atomically). */
  zone: () => DkimZone;
  /** Whether a client address may transfer the zone (AXFR/IXFR over TCP). */
  transferAllowed: (address: string) => boolean;
  /** A TCP connection idle this long is closed (RFC 7766 §6.2.3 suggests seconds). Default 10 s. */
  tcpIdleMs?: number;
  /** Concurrent TCP connections; more are closed at once. Default 256. */
  maxTcpConnections?: number;
}

export interface DnsResponder {
  /** The bound address (the real port when `listen.port` was 0). */
  readonly address: HostPort;
  close(): Promise<void>;
}

/** Longest DNS message over TCP, plus its 2-byte length prefix. */
const MAX_TCP_FRAME = 2 + 65_535;

/** Listen on UDP and TCP at `options.listen`; with port 0 both share one free port. */
export async function startDnsResponder(options: DnsResponderOptions): Promise<DnsResponder> {
  for (let attempt = 1; ; attempt++) {
    const udp = await bindUdp(options);
    const port = udp.address().port;
    try {
      const tcp = await listenTcp(options, port);
      return {
        address: { host: options.listen.host, port },
        close: async () => {
          await Promise.all([
            new Promise<void>((resolve) => udp.close(() => resolve())),
            new Promise<void>((resolve) => {
              tcp.close(() => resolve());
              for (const socket of tcpSockets.get(tcp) ?? []) socket.destroy();
            }),
          ]);
        },
      };
    } catch (error) {
      udp.close();
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

function bindUdp(options: DnsResponderOptions): Promise<dgram.Socket> {
  const type = net.isIPv6(options.listen.host) ? 'udp6' : 'udp4';
  const socket = dgram.createSocket({ type, ipv6Only: type === 'udp6' });
  socket.on('message', (message, remote) => {
    const reply = answerUdpCached(message, options.zone());
    if (reply) socket.send(reply, remote.port, remote.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.listen.port, options.listen.host, () => {
      socket.off('error', reject);
      // An ICMP error for one client must not stop the socket.
      socket.on('error', () => {});
      resolve(socket);
    });
  });
}

const tcpSockets = new WeakMap<net.Server, Set<net.Socket>>();

function listenTcp(options: DnsResponderOptions, port: number): Promise<net.Server> {
  const sockets = new Set<net.Socket>();
  const maxConnections = options.maxTcpConnections ?? 256;
  const server = net.createServer((socket) => {
    if (sockets.size >= maxConnections) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(options.tcpIdleMs ?? 10_000, () => socket.destroy());
    socket.setNoDelay(true);
    const address = normaliseAddress(socket.remoteAddress ?? '');
    const transferAllowed = options.transferAllowed(address);
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        for (const reply of answerMessage(message, options.zone(), { transport: 'tcp', transferAllowed })) {
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(reply.length);
          socket.write(Buffer.concat([prefix, reply]));
        }
      }
      // A complete frame is at most MAX_TCP_FRAME, so more than that pending cannot happen;
      // the check keeps a misbehaving client from growing the buffer regardless.
      if (buffered.length > MAX_TCP_FRAME) socket.destroy();
    });
  });
  tcpSockets.set(server, sockets);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: options.listen.host, ipv6Only: net.isIPv6(options.listen.host) }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so allow-lists compare plain IPv4 addresses. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}
