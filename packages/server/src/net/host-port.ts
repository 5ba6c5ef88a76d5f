import { isIP } from 'node:net';

/**
 * `ip`, `ip:port` or `[ipv6]:port`: the address and the port as written, or what is wrong.
 * A bare IPv6 address is an `ip` too; its colons make `ipv6:port` ambiguous, so an IPv6
 * address with a port needs the brackets.
 */
export function splitHostPort(raw: string): { host: string; port?: string } | { problem: string } {
  if (raw === '') return { problem: 'is empty' };
  if (isIP(raw) !== 0) return { host: raw };
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(raw);
  if (bracketed) {
    return isIP(bracketed[1]!) === 6
      ? { host: bracketed[1]!, port: bracketed[2] }
      : { problem: `has "${bracketed[1]}" in brackets, which is not an IPv6 address` };
  }
  const withPort = /^([^:]*):([^:]*)$/.exec(raw);
  if (withPort) {
    return isIP(withPort[1]!) === 4
      ? { host: withPort[1]!, port: withPort[2] }
      : { problem: `has "${withPort[1]}" before the port, which is not an IPv4 address` };
  }
  return {
    problem: raw.includes(':')
      ? 'is not an IPv6 address (write one with a port as [ipv6]:port)'
      : 'is not an IP address',
  };
}
