/**
 * How the DNS responder groups client addresses. One host usually has one IPv4 address or one
 * IPv6 /64; one network (a resolver farm, or a victim whose address is forged) one IPv4 /24
 * or one IPv6 /56, the prefixes BIND's `rate-limit` uses by default.
 */
import net from 'node:net';

/** `::ffff:127.0.0.1` → `127.0.0.1`, so allow-lists and prefixes see plain IPv4 addresses. */
export function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

/** One client host: the IPv4 address itself, or the IPv6 address's /64. */
export function clientHost(address: string): string {
  if (!net.isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** One client network: the IPv4 /24, or the IPv6 /56. */
export function clientNetwork(address: string): string {
  if (!net.isIPv6(address)) return `${address.slice(0, address.lastIndexOf('.'))}.0/24`;
  const groups = ipv6Groups(address);
  return `${groups.slice(0, 3).join(':')}:${groups[3]!.slice(0, 2)}00::/56`;
}

/**
 * The address's bytes (4 for IPv4, 16 for IPv6), written at `out[offset]`; returns how many, or
 * 0 when `address` is neither. RFC 9018 §4.4 hashes the client's address in this form.
 */
export function writeAddressBytes(address: string, out: Uint8Array, offset: number): number {
  if (!address.includes(':')) {
    // a dotted quad, read by hand: this runs for every query that carries a DNS cookie
    let parts = 0;
    let value = 0;
    let digits = 0;
    for (let i = 0; i <= address.length; i++) {
      const code = i === address.length ? 0x2e : address.charCodeAt(i);
      if (code === 0x2e) {
        if (digits === 0 || value > 255 || parts === 4) return 0;
        out[offset + parts++] = value;
        value = 0;
        digits = 0;
      } else if (code >= 0x30 && code <= 0x39 && digits < 3) {
        value = value * 10 + code - 0x30;
        digits++;
      } else return 0;
    }
    return parts === 4 ? 4 : 0;
  }
  if (!net.isIPv6(address)) return 0;
  ipv6Groups(address).forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    out[offset + 2 * i] = value >> 8;
    out[offset + 2 * i + 1] = value & 0xff;
  });
  return 16;
}

/** The eight groups of an IPv6 address, four lower-case hex digits each. */
function ipv6Groups(address: string): string[] {
  const dotted = address.lastIndexOf(':');
  if (address.includes('.', dotted)) {
    // an IPv4 tail (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`) is the last two groups
    const [a = 0, b = 0, c = 0, d = 0] = address
      .slice(dotted + 1)
      .split('.')
      .map(Number);
    const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
    return ipv6Groups(`${address.slice(0, dotted + 1)}${hex(a, b)}:${hex(c, d)}`);
  }
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) =>
    g.padStart(4, '0').toLowerCase(),
  );
}
