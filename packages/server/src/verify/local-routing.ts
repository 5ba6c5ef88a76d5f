/**
 * Verification of the zones published in the development local DNS (issue 40,
 * `dns/local-dns.ts`): a question about a name in one of them goes, over the wire, to that
 * server, by the same authoritative walk as any zone (its NS set, the server's address, an
 * AA answer, CNAMEs followed into the provider zone it also serves), as tests point the walk at
 * BIND on a port of its own. Every other name goes where it went before. Only outside
 * production mode, and only for the `.test` zones a user published.
 */
import type { HostPort } from '../config.js';
import { type AuthoritativeResolve, createAuthoritativeResolve } from './authoritative.js';
import type { AskedType, DnsResolve } from './resolver.js';

/** A local DNS as verification sees it: which names it holds, and where it answers. */
export interface LocalZones {
  serves(name: string): boolean;
  /** `undefined` until it listens. */
  readonly address: HostPort | undefined;
}

export interface LocalRoutingOptions {
  timeoutMs: number;
  tries: number;
}

/**
 * `main`, but with the names `local` serves asked of `local`. The result has `firstAnswer` and
 * `zoneOf` when `main` has them (the authoritative resolver), so the checks read it the same.
 */
export function routeLocalZones<R extends DnsResolve | AuthoritativeResolve>(
  main: R,
  local: LocalZones,
  options: LocalRoutingOptions,
): R {
  let resolver: { at: string; resolve: AuthoritativeResolve } | undefined;
  /** The authoritative resolver for the local DNS at its current address, made once per address. */
  const localResolve = (): AuthoritativeResolve | undefined => {
    const address = local.address;
    if (address === undefined) return undefined;
    const at = address.host.includes(':')
      ? `[${address.host}]:${address.port}`
      : `${address.host}:${address.port}`;
    if (resolver?.at !== at) {
      resolver = {
        at,
        resolve: createAuthoritativeResolve({
          servers: [at],
          port: address.port,
          timeoutMs: options.timeoutMs,
          tries: options.tries,
          concurrency: 16,
          // records change at a developer's hand: every check walks afresh (a few local packets)
          zoneCacheMs: 0,
        }),
      };
    }
    return resolver.resolve;
  };
  const pick = (name: string) => (local.serves(name) ? localResolve() : undefined);
  const route = (of: (r: AuthoritativeResolve) => DnsResolve, fallback: DnsResolve) =>
    ((name: string, rrtype: AskedType) => {
      const chosen = pick(name);
      return chosen ? of(chosen)(name, rrtype as 'TXT') : fallback(name, rrtype as 'TXT');
    }) as DnsResolve;
  const authoritative = main as Partial<AuthoritativeResolve>;
  const routed = route((r) => r, main);
  if (authoritative.firstAnswer === undefined || authoritative.zoneOf === undefined) return routed as R;
  const mainZoneOf = authoritative.zoneOf;
  return Object.assign(routed, {
    firstAnswer: route((r) => r.firstAnswer, authoritative.firstAnswer),
    zoneOf: (name: string) => {
      const chosen = pick(name);
      return chosen ? chosen.zoneOf(name) : mainZoneOf(name);
    },
  }) as R;
}
