/**
 * A small authoritative DNS server with one broken habit, for the cases real BIND will not
 * reproduce: a lame server answering with an upward referral, a server from before EDNS0 that
 * answers FORMERR to an OPT record, one that truncates every UDP answer, one that alternates
 * SERVFAIL and REFUSED. Built on dns-packet; UDP and TCP on one address and port.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Packet } from 'dns-packet';
import { FrameReader, framed } from '../dns/tcp-frame.js';

export type Quirk = 'upward-referral' | 'formerr-on-edns' | 'truncate-udp' | 'servfail-refused';

export interface QuirkyServerOptions {
  host: string;
  port?: number;
  /** The zone it serves (when it serves one): its apex, NS names and records. */
  zone: string;
  nameServers: string[];
  records: Answer[];
  quirk: Quirk;
}

export interface QuirkyServer {
  /** Questions received, as `name TYPE` (lowercase name), for asserting who was asked. */
  asked: string[];
  close(): Promise<void>;
}

const same = (a: string, b: string) =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

export async function startQuirkyServer(options: QuirkyServerOptions): Promise<QuirkyServer> {
  const port = options.port ?? 53;
  const asked: string[] = [];
  let replies = 0;
  const soa: Answer = {
    name: options.zone,
    type: 'SOA',
    ttl: 60,
    data: {
      mname: options.nameServers[0]!,
      rname: `hostmaster.${options.zone}`,
      serial: 1,
      refresh: 60,
      retry: 10,
      expire: 86400,
      minimum: 10,
    },
  };
  const all: Answer[] = [
    soa,
    ...options.nameServers.map((ns): Answer => ({ name: options.zone, type: 'NS', ttl: 60, data: ns })),
    ...options.records,
  ];

  const answer = (query: DecodedPacket, transport: 'udp' | 'tcp'): Buffer => {
    const question = query.questions?.[0];
    const hasOpt = (query.additionals ?? []).some((a) => a.type === 'OPT');
    const base: Packet = { id: query.id, type: 'response', questions: question ? [question] : [] };
    const flags = (rcode: number, authoritative = true) =>
      (authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | rcode;
    if (question === undefined) return dnsPacket.encode({ ...base, flags: flags(1, false) });
    asked.push(`${question.name.toLowerCase()} ${question.type}`);
    replies++;
    switch (options.quirk) {
      case 'upward-referral':
        return dnsPacket.encode({
          ...base,
          flags: flags(0, false),
          authorities: [{ name: '.', type: 'NS', ttl: 518400, data: 'ns.root-servers.invalid' }],
        });
      case 'servfail-refused':
        return dnsPacket.encode({ ...base, flags: flags(replies % 2 === 0 ? 2 : 5, false) });
      case 'formerr-on-edns':
        if (hasOpt) return dnsPacket.encode({ ...base, flags: flags(1, false) });
        break;
      case 'truncate-udp':
        if (transport === 'udp')
          return dnsPacket.encode({ ...base, flags: flags(0) | dnsPacket.TRUNCATED_RESPONSE });
        break;
    }
    const atName = all.filter((record) => same(record.name, question.name));
    const answers = atName.filter((record) => record.type === question.type || record.type === 'CNAME');
    const negative = answers.length === 0;
    return dnsPacket.encode({
      ...base,
      flags: flags(negative && atName.length === 0 ? 3 : 0),
      answers,
      authorities: negative ? [soa] : [],
    });
  };

  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, remote) => {
    try {
      udp.send(answer(dnsPacket.decode(message), 'udp'), remote.port, remote.address);
    } catch {}
  });
  const connections = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    const frames = new FrameReader();
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      for (const message of frames.push(chunk)) {
        try {
          socket.write(framed(answer(dnsPacket.decode(message), 'tcp')));
        } catch {}
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, options.host, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, options.host, () => resolve());
  });
  return {
    asked,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
