/**
 * Where the service may connect to on a customer's word (webhook URLs, issue 20; Domain
 * Connect providers, issue 23), so no SSRF: only public unicast addresses. A URL's
 * host is resolved, every address checked, and the request then connects to a checked
 * address, never resolving again, so a DNS answer that changes between check and connect
 * (DNS rebinding) cannot reach an internal service.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused (`the private address 10.0.0.7`); `null` when allowed. */
export type AddressRefusal = string | null;

/**
 * The ranges ipaddr.js calls `unicast` are the only public ones: it classifies loopback,
 * private (RFC 1918), link-local (169.254/16, so the cloud metadata address 169.254.169.254,
 * and fe80::/10), carrier-grade NAT (RFC 6598), unique-local (fc00::/7, so AWS's
 * fd00:ec2::254), multicast, reserved, 6to4/Teredo and the unspecified address apart.
 */
export function refuseAddress(address: string): AddressRefusal {
  if (!ipaddr.isValid(address)) return `the non-address ${address}`;
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range = parsed.range();
  if (range !== 'unicast') return `the ${range} address ${address}`;
  // The rest of ::/96 (:: and ::1 are named above) holds the deprecated IPv4-compatible
  // addresses (RFC 4291 §2.5.5.1): ::7f00:1 is 127.0.0.1 to some stacks. ipaddr.js calls them
  // unicast; no public host has one.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    return `the IPv4-compatible address ${address}`;
  }
  return null;
}

/** A host resolved to addresses that were all checked; connect only to these. */
export interface CheckedHost {
  addresses: { address: string; family: 4 | 6 }[];
}

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: ResolveHost = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolve `host` and check every address (one bad address refuses the host: a resolver may
 * hand out any of them). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS, DOMAIN_CONNECT_ALLOW_PRIVATE_URLS) skips the check.
 */
export async function checkHost(
  host: string,
  allowPrivate: boolean,
  resolve: ResolveHost = systemResolve,
): Promise<CheckedHost | { refused: string }> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const found = ipaddr.isValid(bare)
    ? [{ address: bare, family: bare.includes(':') ? 6 : 4 }]
    : await resolve(bare);
  if (found.length === 0) return { refused: `${host} has no address` };
  if (!allowPrivate) {
    for (const { address } of found) {
      const refusal = refuseAddress(address);
      if (refusal !== null) return { refused: `${host} resolves to ${refusal}` };
    }
  }
  return { addresses: found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
}

/**
 * A `lookup` for Node's HTTP clients that answers the checked address only, so the connection
 * goes where {@link checkHost} looked, whatever DNS says by then (no rebinding).
 */
export function pinnedLookup(checked: CheckedHost): LookupFunction {
  const pinned = checked.addresses[0]!;
  return (_host, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
