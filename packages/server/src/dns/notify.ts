/**
 * NOTIFY (RFC 1996): tell each secondary that the zone changed, so it checks the SOA serial and
 * transfers at once instead of at its next refresh. Sent over UDP and retransmitted until the
 * secondary answers (§3.6), with a bounded number of tries.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { HostPort } from '../config.js';
import type { DkimZone } from './zone.js';

export interface NotifyOptions {
  /** First wait for an answer, doubled at each retry (§3.6 leaves the interval to us). */
  timeoutMs?: number;
  tries?: number;
  /**
   * The address NOTIFY leaves from: the responder's own (`DNS_LISTEN`), because a secondary
   * takes NOTIFY only from its primary's address (BIND's `masters`/`primaries`); unset or a
   * wildcard, the system picks one (issue 36: it left from 127.0.0.1 and was ignored).
   */
  source?: string;
}

/** The NOTIFY message for `zone`: opcode NOTIFY, AA, question `<origin> SOA`, and the new SOA as a hint (§3.7). */
export function notifyMessage(zone: DkimZone, id: number): Buffer {
  return dnsPacket.encode({
    id,
    type: 'query',
    flags: (4 << 11) | dnsPacket.AUTHORITATIVE_ANSWER,
    questions: [{ name: zone.origin, type: 'SOA', class: 'IN' }],
    answers: [zone.soa()],
  });
}

/** Notify every target; resolves with those that acknowledged (never rejects). */
export async function sendNotify(
  zone: DkimZone,
  targets: HostPort[],
  options: NotifyOptions = {},
): Promise<HostPort[]> {
  const acked = await Promise.all(targets.map((target) => notifyOne(zone, target, options)));
  return targets.filter((_, i) => acked[i]);
}

async function notifyOne(zone: DkimZone, target: HostPort, options: NotifyOptions): Promise<boolean> {
  const family = net.isIPv6(target.host) ? 'udp6' : 'udp4';
  const socket = dgram.createSocket(family);
  const source = options.source;
  if (source && source !== '0.0.0.0' && source !== '::' && net.isIPv6(source) === (family === 'udp6')) {
    const bound = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind({ address: source, port: 0 }, () => resolve(true));
    });
    if (!bound) {
      socket.close();
      return false;
    }
  }
  const id = Math.floor(Math.random() * 0x10000);
  const message = notifyMessage(zone, id);
  let resolveAck: () => void = () => {};
  const ack = new Promise<void>((resolve) => (resolveAck = resolve));
  socket.on('error', () => {});
  socket.on('message', (reply, remote) => {
    if (remote.port !== target.port || reply.length < 12) return;
    try {
      const decoded = dnsPacket.decode(reply);
      // §4.7: the answer is a NOTIFY response with our id; any rcode ends the retries.
      if (decoded.id === id && decoded.flag_qr && (((decoded.flags ?? 0) >> 11) & 0xf) === 4) resolveAck();
    } catch {}
  });
  try {
    let wait = options.timeoutMs ?? 1000;
    for (let attempt = 0; attempt < (options.tries ?? 5); attempt++) {
      socket.send(message, target.port, target.host);
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        ack.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), wait))),
      ]);
      clearTimeout(timer);
      if (answered) return true;
      wait *= 2;
    }
    return false;
  } finally {
    socket.close();
  }
}
