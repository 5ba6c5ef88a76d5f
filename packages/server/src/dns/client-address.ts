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

/** The eight groups of an IPv6 address, four lower-case hex digits each. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) =>
    g.padStart(4, '0').toLowerCase(),
  );
}
