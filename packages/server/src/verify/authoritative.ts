/**
 * Asking the customer's own DNS servers, as receivers' resolvers end up doing, instead of
 * trusting a caching resolver's memory. A resolver that was asked before the customer published
 * keeps the "no such name" for the zone's negative TTL (RFC 2308 §5: minutes to hours), and
 * would make a status say "add the record" about a record already there.
 *
 * So each question goes to the zone's authoritative servers: the zone cut is found by asking
 * the configured resolvers for NS records from the name upwards, the servers' addresses by
 * asking them for A and AAAA (positive answers, which a cache may hold without harm), and the
 * question itself to those addresses directly. When none of them answers definitively, the
 * configured resolvers answer instead, so a network that blocks outgoing DNS still verifies.
 */
import { Resolver } from 'node:dns/promises';
import pLimit from 'p-limit';
import {
  type AskedType,
  askResolver,
  classifyLookupError,
  type DnsResolve,
  markViaResolvers,
  type ResolverOptions,
} from './resolver.js';

/** CNAMEs followed from one name before the chain counts as a loop (resolvers stop near here too). */
const MAX_ALIASES = 8;

export interface AuthoritativeOptions extends ResolverOptions {
  /** The port authoritative servers answer on; 53 everywhere but in some tests. */
  port?: number;
  /** How long a zone cut and its servers' addresses are reused (they are positive answers). */
  zoneCacheMs?: number;
  now?: () => number;
}

/** A zone's apex, its NS names, and the addresses of its name servers. */
interface ZoneServers {
  apex: string;
  /** The NS names at the apex, sorted. */
  nameServers: string[];
  /** `host` (NS name) and address, in the order they are tried. */
  servers: { host: string; address: string }[];
}

/** A lookup error that says which server gave it, for `describeLookupError`. */
export type ServerError = Error & { code?: string; server?: string };

/** The zone a name belongs to: the apex of its deepest zone cut and the NS names there. */
export interface ZoneFacts {
  /** `example.com` */
  apex: string;
  /** The NS names at the apex, lowercase and sorted (`ada.ns.cloudflare.com`, …). */
  nameServers: string[];
}

/** A {@link DnsResolve} that also tells the zone a name belongs to. */
export type AuthoritativeResolve = DnsResolve & {
  /** The deepest zone cut at or above `name`, or `undefined` when none is found. */
  zoneOf(name: string): Promise<ZoneFacts | undefined>;
};

/**
 * A {@link DnsResolve} that asks the authoritative servers of each name's zone (see the module
 * comment). Errors from those servers carry `server` (`ns1.example.com (192.0.2.1)`).
 */
export function createAuthoritativeResolve(options: AuthoritativeOptions): AuthoritativeResolve {
  const now = options.now ?? Date.now;
  const port = options.port ?? 53;
  const cacheMs = options.zoneCacheMs ?? 5 * 60_000;
  const limit = pLimit(options.concurrency);
  const recursive = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) recursive.setServers(options.servers);
  const direct = new Map<string, Resolver>();
  /** Remembered answers (zone cuts, server addresses): positive data, reused for `cacheMs`. */
  const memo = new Map<string, { at: number; value: Promise<unknown> }>();
  /** `compute()`, shared and reused while fresh; an answer `keep` refuses is asked again next time. */
  const remember = <T>(key: string, compute: () => Promise<T>, keep: (value: T) => boolean): Promise<T> => {
    const hit = memo.get(key);
    if (hit && now() - hit.at < cacheMs) return hit.value as Promise<T>;
    const value = compute();
    memo.set(key, { at: now(), value });
    value.then(
      (v) => keep(v) || memo.delete(key),
      () => memo.delete(key),
    );
    return value;
  };

  /** A resolver asking one authoritative server; one try each, the next server is the retry. */
  const serverResolver = (address: string): Resolver => {
    let resolver = direct.get(address);
    if (resolver === undefined) {
      resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
      resolver.setServers([address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`]);
      direct.set(address, resolver);
    }
    return resolver;
  };

  const ask = (resolver: Resolver, name: string, rrtype: AskedType) =>
    limit(() => askResolver(resolver, name, rrtype));

  /**
   * NS names at `name`: `[]` when it is no zone cut (NXDOMAIN, NODATA), kept like a cut, so the
   * four records of a domain and its next checks ask once; `undefined` on errors, asked again.
   */
  const nsAt = (name: string): Promise<string[] | undefined> =>
    remember(
      `ns ${name}`,
      async () => {
        try {
          return await limit(() => recursive.resolveNs(name));
        } catch (error) {
          return classifyLookupError(error) === 'error' ? undefined : [];
        }
      },
      (ns) => ns !== undefined,
    );

  /** A name server's addresses; none found (or the lookups failed) is asked again next time. */
  const addresses = (host: string): Promise<string[]> =>
    remember(
      `addr ${host}`,
      async () => {
        const lookups = [() => recursive.resolve4(host), () => recursive.resolve6(host)];
        const found = await Promise.all(lookups.map((lookup) => limit(lookup).catch(() => [] as string[])));
        return found.flat();
      },
      (list) => list.length > 0,
    );

  /**
   * The deepest zone cut at or above `name`, with its servers; `undefined` when none is found.
   * Labels from the last one starting with `_` down (`<token>._domainkey`, `_dmarc`) are
   * service names inside a zone, never cuts in practice: the walk starts above them, so the
   * four records of a domain share one walk. The top-level domain is never asked.
   */
  const zoneOf = async (name: string): Promise<ZoneServers | undefined> => {
    const labels = name.toLowerCase().replace(/\.$/, '').split('.');
    const start = labels.findLastIndex((label) => label.startsWith('_')) + 1;
    for (let i = start; i < labels.length - 1; i++) {
      const candidate = labels.slice(i).join('.');
      const ns = await nsAt(candidate);
      if (ns === undefined || ns.length === 0) continue;
      const nameServers = [...new Set(ns.map((host) => host.toLowerCase().replace(/\.$/, '')))].sort();
      const found = await Promise.all(
        nameServers.map(async (host) => ({ host, list: await addresses(host) })),
      );
      const servers = found.flatMap(({ host, list }) => list.map((address) => ({ host, address })));
      return servers.length > 0 ? { apex: candidate, nameServers, servers } : undefined;
    }
    return undefined;
  };

  /**
   * Records of `rrtype` at `name` as a resolver finds them: an alias is followed to its target,
   * in whatever zone that lies (RFC 1034 §3.6.2), up to {@link MAX_ALIASES} links. A zone's own
   * server answers a question at an alias with the CNAME alone when the target is in another
   * zone: read as it came, a `_dmarc` CNAME to a DMARC vendor was "no record" (issue 36). The
   * extra CNAME question is asked only when the answer holds nothing.
   */
  const resolve = async (name: string, rrtype: AskedType, links = 0): Promise<string[] | string[][]> => {
    let answer: string[] | string[][];
    try {
      answer = await resolveAt(name, rrtype);
    } catch (error) {
      if (rrtype === 'CNAME' || classifyLookupError(error) !== 'nodata') throw error;
      const target = await aliasAt(name, links);
      if (target === undefined) throw error;
      return resolve(target, rrtype, links + 1);
    }
    if (answer.length > 0 || rrtype === 'CNAME') return answer;
    const target = await aliasAt(name, links);
    return target === undefined ? answer : resolve(target, rrtype, links + 1);
  };

  /** The CNAME target at `name`, if it is an alias; a chain too long (a loop) is an error. */
  const aliasAt = async (name: string, links: number): Promise<string | undefined> => {
    const target = (await resolveAt(name, 'CNAME').catch(() => [] as string[]))[0] as string | undefined;
    if (target !== undefined && links >= MAX_ALIASES)
      throw Object.assign(new Error(`more than ${MAX_ALIASES} CNAMEs from ${name}: a loop`), {
        code: 'ESERVFAIL',
      });
    return target;
  };

  const resolveAt = async (name: string, rrtype: AskedType): Promise<string[] | string[][]> => {
    const zone = await zoneOf(name).catch(() => undefined);
    let lastError: ServerError | undefined;
    for (const { host, address } of zone?.servers ?? []) {
      try {
        return await ask(serverResolver(address), name, rrtype);
      } catch (error) {
        // NXDOMAIN and NODATA from the zone's own server are the truth; anything else, ask the next
        if (classifyLookupError(error) !== 'error') throw error;
        lastError = Object.assign(error as ServerError, { server: `${host} (${address})` });
      }
    }
    // No authoritative server answered (or none was found): the configured resolvers answer.
    // A definitive answer from them stands; their failure is reported with the servers' own.
    const fallback = zone !== undefined; // servers were found, and none answered
    try {
      const answer = await ask(recursive, name, rrtype);
      return fallback ? markViaResolvers(answer) : answer;
    } catch (error) {
      if (classifyLookupError(error) !== 'error') throw fallback ? markViaResolvers(error as Error) : error;
      throw lastError ?? error;
    }
  };
  return Object.assign(((name: string, rrtype: AskedType) => resolve(name, rrtype)) as DnsResolve, {
    zoneOf: async (name: string): Promise<ZoneFacts | undefined> => {
      const zone = await zoneOf(name);
      return zone && { apex: zone.apex, nameServers: zone.nameServers };
    },
  });
}
