/**
 * A tiny DNS client over the wire (dns-packet + dgram/net) for responder tests: raw bytes in
 * and out, so tests can send what no resolver library would.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type DecodedPacket, type Packet } from 'dns-packet';
import type { HostPort } from '../config.js';
import { FrameReader, framed } from '../dns/tcp-frame.js';

/** A decoded message with the header fields dns-packet returns but its types omit. */
export type DnsReply = DecodedPacket & { rcode: string; opcode: string };

/** Decode a message (throws on garbage). */
export function decodeReply(wire: Buffer): DnsReply {
  return dnsPacket.decode(wire) as DnsReply;
}

/**
 * Send one UDP query and resolve with the raw reply, or `undefined` when none comes. Like a
 * stub resolver (RFC 1035 §4.2.1: UDP may lose datagrams), it sends again after 500 ms, then
 * 1 s, 2 s…, `tries` times in all: a server busy with other work (or a loaded machine) still
 * gets a fair chance to answer. Pass `tries: 1` to wait once for a reply that should not come.
 */
export function udpExchange(
  server: HostPort,
  message: Buffer,
  {
    tries = 4,
    firstWaitMs = 500,
    localAddress,
  }: {
    tries?: number;
    firstWaitMs?: number /** the loopback address to ask from */;
    localAddress?: string;
  } = {},
): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    let timer: NodeJS.Timeout | undefined;
    const finish = (reply: Buffer | undefined) => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const send = (attempt: number) => {
      socket.send(message, server.port, server.host);
      const wait = firstWaitMs * 2 ** attempt;
      timer = setTimeout(() => (attempt + 1 < tries ? send(attempt + 1) : finish(undefined)), wait);
    };
    socket.on('message', (reply) => finish(reply));
    if (localAddress === undefined) send(0);
    else socket.bind(0, localAddress, () => send(0));
  });
}

/** A query packet: `type` at `name`, with optional EDNS0 payload size. */
export function query(
  name: string,
  type: string,
  options: { id?: number; edns?: number; flags?: number } = {},
): Packet {
  return {
    id: options.id ?? 4242,
    type: 'query',
    flags: options.flags ?? dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as never, class: 'IN' }],
    additionals:
      options.edns === undefined
        ? []
        : [{ name: '.', type: 'OPT', udpPayloadSize: options.edns, flags: 0 } as never],
  };
}

/** Query over UDP and decode the answer (throws on timeout). */
export async function udpQuery(server: HostPort, packet: Packet): Promise<DnsReply & { size: number }> {
  const reply = await udpExchange(server, dnsPacket.encode(packet));
  if (!reply) throw new Error('no UDP reply');
  return Object.assign(decodeReply(reply), { size: reply.length });
}

/**
 * Send messages over one TCP connection and collect decoded replies until `until` says the
 * exchange is complete or the server closes (or `timeoutMs`).
 */
export function tcpExchange(
  server: HostPort,
  messages: Buffer[],
  until: (replies: DnsReply[]) => boolean,
  timeoutMs = 2000,
  localAddress?: string,
): Promise<DnsReply[]> {
  return new Promise((resolve, reject) => {
    const replies: DnsReply[] = [];
    const frames = new FrameReader();
    const socket = net.connect({ port: server.port, host: server.host, localAddress });
    const timer = setTimeout(() => finish(), timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(replies);
    };
    socket.on('error', reject);
    socket.on('close', finish);
    socket.on('connect', () => {
      for (const message of messages) socket.write(framed(message));
    });
    socket.on('data', (chunk) => {
      for (const message of frames.push(chunk)) replies.push(decodeReply(message));
      if (until(replies)) finish();
    });
  });
}

/**
 * One query over TCP, its one reply; `localAddress` picks the client address (127.0.0.x).
 * `timeoutMs` longer than the 2 s default where the server answers in the test's own process:
 * one resuming from a pause on a loaded run (5 files on 2 cores) runs the timer before it reads
 * the answer waiting in the socket.
 */
export async function tcpQuery(
  server: HostPort,
  packet: Packet,
  localAddress?: string,
  timeoutMs = 2000,
): Promise<DnsReply> {
  const [reply] = await tcpExchange(
    server,
    [dnsPacket.encode(packet)],
    (r) => r.length >= 1,
    timeoutMs,
    localAddress,
  );
  if (!reply) throw new Error('no TCP reply');
  return reply;
}
