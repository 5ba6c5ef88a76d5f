/**
 * The DNS questions verification asks, over the wire, with timeouts, retries and bounded
 * concurrency. Functions that need DNS take a `DnsResolve` with the contract of Node's
 * `dns.promises.resolve(name, rrtype)` (as mailauth does), so the checks read as pure rules.
 */
import { Resolver } from 'node:dns/promises';
import pLimit from 'p-limit';

/**
 * `dns.promises.resolve` for the types we ask: CNAME → names, TXT → string chunks per record,
 * A and AAAA → addresses (only to describe what stands where a CNAME belongs).
 */
export interface DnsResolve {
  (name: string, rrtype: 'CNAME' | 'A' | 'AAAA'): Promise<string[]>;
  (name: string, rrtype: 'TXT'): Promise<string[][]>;
}

/** The types {@link DnsResolve} asks. */
export type AskedType = 'CNAME' | 'TXT' | 'A' | 'AAAA';

/** One question to a Node resolver, by type. */
export function askResolver(
  resolver: Resolver,
  name: string,
  rrtype: AskedType,
): Promise<string[] | string[][]> {
  switch (rrtype) {
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'TXT':
      return resolver.resolveTxt(name);
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
  }
}

export interface ResolverOptions {
  /** `ip` or `ip:port` (`[v6]:port`); the system's resolvers when empty. */
  servers: string[];
  /** Per attempt. */
  timeoutMs: number;
  tries: number;
  /** Queries in flight at once, across all checks of this process. */
  concurrency: number;
}

export function createResolver(options: ResolverOptions): DnsResolve {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const limit = pLimit(options.concurrency);
  const resolve = (name: string, rrtype: AskedType): Promise<string[] | string[][]> =>
    limit(() => askResolver(resolver, name, rrtype));
  return resolve as DnsResolve;
}

/** How a failed lookup reads: NXDOMAIN, NODATA, or no definitive answer. */
export type LookupFailure = 'nxdomain' | 'nodata' | 'error';

/** Node's resolver error codes: ENOTFOUND is NXDOMAIN, ENODATA is NODATA; the rest say nothing. */
export function classifyLookupError(error: unknown): LookupFailure {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND') return 'nxdomain';
  if (code === 'ENODATA') return 'nodata';
  return 'error';
}

/**
 * A short human description of a lookup error, e.g. "the DNS server answered SERVFAIL"; an
 * error from an authoritative server names it (`server`, set by the authoritative resolver):
 * "ns1.example.com (192.0.2.1) answered SERVFAIL", so the customer knows whose server fails.
 */
export function describeLookupError(error: unknown): string {
  const { code, server } = error as { code?: string; server?: string };
  const who = server ?? 'the DNS server';
  const names: Record<string, string> = {
    ETIMEOUT: `${server ?? 'the DNS query'} timed out`,
    ESERVFAIL: `${who} answered SERVFAIL`,
    EREFUSED: `${who} refused the query`,
    ECONNREFUSED: `${who} could not be reached`,
    ELAME: `${who} does not answer for the zone it is named for (a lame delegation)`,
    EFORMERR: `${who} could not read the query (FORMERR)`,
    ENOTIMP: `${who} does not implement the query (NOTIMP)`,
    EBADRESP: `${who} sent an answer that could not be read`,
    ECANCELLED: 'the DNS query was cancelled',
  };
  return (code && names[code]) ?? `the DNS query failed (${code ?? String(error)})`;
}

/**
 * Marks an answer (an array, or a definitive NXDOMAIN/NODATA error) as given by the configured
 * resolvers in place of the zone's own servers, which did not answer: such an answer may come
 * from a resolver's cache. The mark is a non-enumerable property, invisible to comparisons.
 */
export function markViaResolvers<T extends object>(answer: T): T {
  return Object.defineProperty(answer, 'viaResolvers', { value: true });
}

/** Whether {@link markViaResolvers} marked this answer or error. */
export function viaResolvers(answer: unknown): boolean {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    (answer as { viaResolvers?: boolean }).viaResolvers === true
  );
}
