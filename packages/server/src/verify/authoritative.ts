/**
 * Asking the customer's own DNS servers, as receivers' resolvers end up doing, instead of
 * trusting a caching resolver's memory. A resolver that was asked before the customer published
 * keeps the "no such name" for the zone's negative TTL (RFC 2308 §5: minutes to hours), and
 * would make a status say "add the record" about a record already there.
 *
 * So each question goes to the zone's authoritative servers, read at the packet level as a
 * resolver reads them (issue 36):
 * - The zone cut is found by asking the configured resolvers for NS records from the name
 *   upwards; an NS set counts only when its owner is the name asked, so a name that is a CNAME
 *   (`mail.example.com CNAME example.com.`) is no cut, whatever NS set its target has.
 * - Every name server of the zone is asked, in parallel. Only an answer with the AA bit is
 *   definitive: a referral downwards (a delegated `_domainkey.mail` subzone) is followed to the
 *   child's servers; a referral upwards or sideways, or an answer without AA, marks a lame
 *   server, and the others decide. When servers disagree, the answer most of them give stands
 *   (the newest SOA serial breaks a tie), and the result carries what each one holds.
 * - A CNAME (or a DNAME's synthesized CNAME) is followed for every type, into any zone.
 * When none of the servers answers definitively, the configured resolvers answer instead, so a
 * network that blocks outgoing DNS still verifies.
 */
import { Resolver } from 'node:dns/promises';
import type { Answer, RecordType } from 'dns-packet';
import pLimit from 'p-limit';
import { splitHostPort } from '../net/host-port.js';
import {
  type AskedType,
  askResolver,
  classifyLookupError,
  type DnsResolve,
  markViaResolvers,
  type ResolverOptions,
} from './resolver.js';
import { queryServer, type WireReply, type WireServer } from './wire-query.js';

/** CNAMEs followed from one name before the chain counts as a loop (resolvers stop near here too). */
const MAX_ALIASES = 8;
/** Referrals followed down from a zone's servers for one question (a subzone of a subzone…). */
const MAX_REFERRALS = 4;

export interface AuthoritativeOptions extends ResolverOptions {
  /** The port authoritative servers answer on; 53 everywhere but in some tests. */
  port?: number;
  /** How long a zone cut and its servers' addresses are reused (they are positive answers). */
  zoneCacheMs?: number;
  /** How many zone cuts, zones and server addresses are remembered at most (the oldest go first). */
  zoneCacheSize?: number;
  now?: () => number;
}

/** A zone's apex, its NS names, and the addresses of its name servers. */
interface ZoneServers {
  apex: string;
  /** The NS names at the apex, sorted. */
  nameServers: string[];
  /** Each name server with its addresses, IPv4 first: one answer per server is asked for. */
  servers: { host: string; addresses: string[] }[];
}

/** What one authoritative server holds for a name, said when the zone's servers disagree. */
export interface ServerHolding {
  /** `ns1.example.com (192.0.2.1)` */
  server: string;
  /** The zone's SOA serial on that server, when it answered one. */
  serial?: number;
  /** `CNAME sel.dkim.example`, `TXT "v=DMARC1; p=none"`, `no such name`… */
  holds: string;
}

/** The servers' holdings attached to an answer or error when they disagreed; `undefined` otherwise. */
export function disagreementOf(answer: unknown): ServerHolding[] | undefined {
  return typeof answer === 'object' && answer !== null
    ? (answer as { disagreement?: ServerHolding[] }).disagreement
    : undefined;
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
  /**
   * The same question put to the zone's servers one after the other until one answers, as
   * resolvers do: for lookups that only shape advice (where else a record might be), which need
   * no account of servers that disagree and should not cost every server a question.
   */
  firstAnswer: DnsResolve;
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
  const cacheSize = options.zoneCacheSize ?? 100_000;
  const limit = pLimit(options.concurrency);
  const recursive = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) recursive.setServers(options.servers);
  // `ip`, `ip:port` or `[v6]:port`, as DNS_RESOLVERS was checked to be
  const recursiveServers = recursive.getServers().flatMap((server): WireServer[] => {
    const parts = splitHostPort(server);
    return 'host' in parts ? [{ address: parts.host, port: Number(parts.port ?? 53) }] : [];
  });
  /**
   * Bounded: a check of each of a million domains leaves its own names in these maps. Entries
   * are in the order they were made, so the oldest (expired first) go first.
   */
  const setBounded = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    for (const [old] of map) {
      if (map.size <= cacheSize) break;
      map.delete(old);
    }
  };
  /** Remembered answers (zone cuts, server addresses): positive data, reused for `cacheMs`. */
  const memo = new Map<string, { at: number; value: Promise<unknown> }>();
  /** `compute()`, shared and reused while fresh; an answer `keep` refuses is asked again next time. */
  const remember = <T>(key: string, compute: () => Promise<T>, keep: (value: T) => boolean): Promise<T> => {
    const hit = memo.get(key);
    if (hit && now() - hit.at < cacheMs) return hit.value as Promise<T>;
    const value = compute();
    setBounded(memo, key, { at: now(), value });
    // forget a refused answer, unless a newer one took its place meanwhile
    const forget = () => memo.get(key)?.value === value && memo.delete(key);
    value.then((v) => keep(v) || forget(), forget);
    return value;
  };

  const ask = (resolver: Resolver, name: string, rrtype: AskedType) =>
    limit(() => askResolver(resolver, name, rrtype));
  const askWire = (server: WireServer, name: string, rrtype: RecordType, recursionDesired = false) =>
    limit(() => queryServer(server, name, rrtype, { timeoutMs: options.timeoutMs, recursionDesired }));

  /** One question to the configured resolvers, each tried in turn, `tries` rounds. */
  const askRecursive = async (name: string, rrtype: RecordType): Promise<WireReply> => {
    let lastError: unknown = new Error('no resolvers configured');
    for (let round = 0; round < options.tries; round++) {
      for (const server of recursiveServers) {
        try {
          const reply = await askWire(server, name, rrtype, true);
          if (reply.rcode === 'NOERROR' || reply.rcode === 'NXDOMAIN') return reply;
          lastError = serverError(reply.rcode, `${server.address} answered ${reply.rcode}`);
        } catch (error) {
          lastError = error;
        }
      }
    }
    throw lastError;
  };

  /**
   * NS names at `name`: `[]` when it is no zone cut (NXDOMAIN, NODATA, an alias), kept like a
   * cut, so the records of a domain and its next checks ask once; `undefined` on errors, asked
   * again. Only an NS set owned by `name` itself counts: a resolver asked at an alias answers
   * the target's NS set after the CNAME, and that is the target's zone, not this name's.
   */
  const nsAt = (name: string): Promise<string[] | undefined> =>
    remember(
      `ns ${name}`,
      async () => {
        let reply: WireReply;
        try {
          reply = await askRecursive(name, 'NS');
        } catch {
          return undefined;
        }
        if (reply.rcode === 'NXDOMAIN') {
          setBounded(nonexistent, normalize(name), now());
          return [];
        }
        const owned = reply.answers.filter((a) => sameName(a.name, name));
        if (owned.some((a) => a.type === 'CNAME')) return [];
        return owned.filter((a) => a.type === 'NS').map((a) => normalize(dataOf(a) as string));
      },
      (ns) => ns !== undefined,
    );

  /**
   * Names the resolvers called NXDOMAIN, and when: nothing exists below them (RFC 8020), so
   * the walk asks no name under one while it is fresh. The names a customer may have made by
   * entering a full name where the zone's is appended (`_dmarc.mail.example.com.example.com`)
   * are looked up on every check of a missing record; their walk cost a question each.
   */
  const nonexistent = new Map<string, number>();
  const belowNonexistent = (labels: string[], index: number) => {
    for (let j = index + 1; j < labels.length - 1; j++) {
      const at = nonexistent.get(labels.slice(j).join('.'));
      if (at !== undefined && now() - at < cacheMs) return true;
    }
    return false;
  };

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

  /** The servers of the zone at `apex`: glue addresses where a referral gave them, else looked up. */
  const serversOf = async (
    apex: string,
    nameServers: string[],
    glue: ReadonlyMap<string, string[]> = new Map(),
  ): Promise<ZoneServers | undefined> => {
    const hosts = [...new Set(nameServers.map(normalize))].sort();
    const found = await Promise.all(
      hosts.map(async (host) => ({ host, addresses: glue.get(host) ?? (await addresses(host)) })),
    );
    const servers = found.filter((server) => server.addresses.length > 0);
    return servers.length > 0 ? { apex, nameServers: hosts, servers } : undefined;
  };

  /**
   * The deepest zone cut at or above `name`, with its servers; `undefined` when none is found.
   * Labels from the last one starting with `_` down (`<token>._domainkey`, `_dmarc`) are
   * service names inside a zone: the walk starts above them, so the four records of a domain
   * share one walk, and a delegated `_domainkey` subzone is reached by its parent's referral.
   * The top-level domain is never asked. Found zones are reused as their cuts are, so the
   * questions of a check cost one lookup here, not a walk each.
   */
  const zoneOf = (name: string): Promise<ZoneServers | undefined> => {
    const labels = normalize(name).split('.');
    const start = labels.findLastIndex((label) => label.startsWith('_')) + 1;
    return remember(
      `zone ${labels.slice(start).join('.')}`,
      () => walk(labels.slice(start)),
      (zone) => zone !== undefined,
    );
  };

  const walk = async (labels: string[]): Promise<ZoneServers | undefined> => {
    for (let i = 0; i < labels.length - 1; i++) {
      const candidate = labels.slice(i).join('.');
      if (belowNonexistent(labels, i)) continue;
      const ns = await nsAt(candidate);
      if (ns === undefined || ns.length === 0) continue;
      return serversOf(candidate, ns);
    }
    return undefined;
  };

  /** One server's view of `rrtype` at `name`, its addresses tried in turn until one answers. */
  const askServer = async (
    server: ZoneServers['servers'][number],
    apex: string,
    name: string,
    rrtype: AskedType,
  ): Promise<View> => {
    let view: View | undefined;
    for (const address of server.addresses) {
      const label = `${server.host} (${address})`;
      try {
        view = readReply(await askWire({ address, port }, name, rrtype), apex, name, rrtype, {
          server: label,
          address,
        });
      } catch (error) {
        view = {
          kind: 'failed',
          server: label,
          address,
          error: Object.assign(error as ServerError, { server: label }),
        };
      }
      if (view.kind !== 'failed') return view;
    }
    return (
      view ?? {
        kind: 'failed',
        server: server.host,
        address: '',
        error: serverError('ESERVFAIL', 'no address'),
      }
    );
  };

  /** The zone's SOA serial on one server, for the account of a disagreement. */
  const serialAt = async (address: string, apex: string): Promise<number | undefined> => {
    const reply = await askWire({ address, port }, apex, 'SOA').catch(() => undefined);
    const soa = reply?.answers.find((a) => a.type === 'SOA');
    return soa ? (dataOf(soa) as { serial: number }).serial : undefined;
  };

  /** The servers asked one after the other until one answers (not lame, not failing). */
  const firstViews = async (zone: ZoneServers, name: string, rrtype: AskedType): Promise<View[]> => {
    const views: View[] = [];
    for (const server of zone.servers) {
      const view = await askServer(server, zone.apex, name, rrtype);
      views.push(view);
      if (view.kind !== 'failed') break;
    }
    return views;
  };

  /**
   * What the zone's servers say of `rrtype` at `name`: with `every`, every server asked at
   * once, else the first that answers; a downward referral followed, lame and failing servers
   * left out, and a disagreement settled by the answer most servers give (then the newest
   * serial, then a record over its absence).
   */
  const resolveIn = async (
    zone: ZoneServers,
    name: string,
    rrtype: AskedType,
    every: boolean,
    hops = 0,
  ): Promise<Settled> => {
    const views = every
      ? await Promise.all(zone.servers.map((server) => askServer(server, zone.apex, name, rrtype)))
      : await firstViews(zone, name, rrtype);
    const referral = views.find((view) => view.kind === 'referral');
    if (referral !== undefined && hops < MAX_REFERRALS) {
      const child = await serversOf(referral.apex, referral.nameServers, referral.glue);
      if (child !== undefined) return resolveIn(child, name, rrtype, every, hops + 1);
    }
    const definitive = views.filter((view): view is Definitive => DEFINITIVE.has(view.kind));
    if (definitive.length === 0) {
      const failedView = views.find((view) => view.kind === 'failed');
      return {
        kind: 'failed',
        error: failedView?.error ?? serverError('ESERVFAIL', `no answer for ${name}`),
      };
    }
    const groups = new Map<string, Definitive[]>();
    for (const view of definitive) groups.set(keyOf(view), [...(groups.get(keyOf(view)) ?? []), view]);
    if (groups.size === 1) return definitive[0]!;
    await Promise.all(
      definitive.map(async (view) => {
        view.serial ??= await serialAt(view.address, zone.apex);
      }),
    );
    const serialOf = (group: Definitive[]) => Math.max(...group.map((view) => view.serial ?? -1));
    const [chosen] = [...groups.values()].sort(
      (a, b) =>
        b.length - a.length ||
        serialOf(b) - serialOf(a) ||
        Number(POSITIVE.has(b[0]!.kind)) - Number(POSITIVE.has(a[0]!.kind)),
    );
    const disagreement = definitive.map((view) => ({
      server: view.server,
      ...(view.serial !== undefined && { serial: view.serial }),
      holds: describeView(view, rrtype),
    }));
    return { ...chosen![0]!, disagreement };
  };

  /**
   * Records of `rrtype` at `name` as a resolver finds them: an alias is followed to its target,
   * in whatever zone that lies (RFC 1034 §3.6.2), up to {@link MAX_ALIASES} links. A zone's own
   * server answers a question at an alias with the CNAME alone when the target is in another
   * zone: read as it came, a `_dmarc` CNAME to a DMARC vendor was "no record" (issue 36).
   */
  const resolve = async (
    name: string,
    rrtype: AskedType,
    every: boolean,
    links = 0,
  ): Promise<string[] | string[][]> => {
    const zone = await zoneOf(name).catch(() => undefined);
    const settled = zone === undefined ? undefined : await resolveIn(zone, name, rrtype, every);
    const mark = <T extends object>(answer: T): T =>
      settled?.disagreement
        ? Object.defineProperty(answer, 'disagreement', { value: settled.disagreement })
        : answer;
    switch (settled?.kind) {
      case 'records':
        return mark(settled.values);
      case 'alias':
        if (links >= MAX_ALIASES)
          throw serverError('ESERVFAIL', `more than ${MAX_ALIASES} CNAMEs from ${name}: a loop`);
        // the servers' disagreement at this link stays known at the chain's end, unless one there says more
        return resolve(settled.target, rrtype, every, links + 1).then(
          (answer) => (disagreementOf(answer) ? answer : mark(answer)),
          (error: Error) => {
            throw disagreementOf(error) || classifyLookupError(error) === 'error' ? error : mark(error);
          },
        );
      case 'nxdomain':
        throw mark(serverError('ENOTFOUND', `no such name: ${name}`));
      case 'nodata':
        throw mark(serverError('ENODATA', `no ${rrtype} record at ${name}`));
      default:
        return viaResolvers(name, rrtype, zone !== undefined, settled?.error);
    }
  };

  /**
   * No authoritative server answered (or none was found): the configured resolvers answer. A
   * definitive answer from them stands, marked as theirs when the zone's servers were found;
   * their failure is reported with the servers' own.
   */
  const viaResolvers = async (
    name: string,
    rrtype: AskedType,
    fallback: boolean,
    lastError: ServerError | undefined,
  ): Promise<string[] | string[][]> => {
    try {
      const answer = await ask(recursive, name, rrtype);
      return fallback ? markViaResolvers(answer) : answer;
    } catch (error) {
      if (classifyLookupError(error) !== 'error') throw fallback ? markViaResolvers(error as Error) : error;
      throw lastError ?? error;
    }
  };

  return Object.assign(((name: string, rrtype: AskedType) => resolve(name, rrtype, true)) as DnsResolve, {
    firstAnswer: ((name: string, rrtype: AskedType) => resolve(name, rrtype, false)) as DnsResolve,
    zoneOf: async (name: string): Promise<ZoneFacts | undefined> => {
      const zone = await zoneOf(name);
      return zone && { apex: zone.apex, nameServers: zone.nameServers };
    },
  });
}

/** One server's answer, as a resolver reads it; `server` names it for people. */
type View = { server: string; address: string } & (
  | Definitive
  | { kind: 'referral'; apex: string; nameServers: string[]; glue: Map<string, string[]> }
  | { kind: 'failed'; error: ServerError }
);

/** An answer that settles the question: records, an alias to follow, or an authoritative miss. */
type Definitive = { server: string; address: string; serial?: number } & (
  | { kind: 'records'; values: string[] | string[][] }
  | { kind: 'alias'; target: string }
  | { kind: 'nxdomain' | 'nodata' }
);

/** The zone's verdict, with every server's holding when they disagreed. */
type Settled = (Definitive | { kind: 'failed'; error: ServerError }) & {
  disagreement?: ServerHolding[];
};

const DEFINITIVE = new Set(['records', 'alias', 'nxdomain', 'nodata']);
const POSITIVE = new Set(['records', 'alias']);

/** rcodes that say a server could not answer, as Node's resolver codes them. */
const RCODE_ERRORS: Record<string, string> = {
  SERVFAIL: 'ESERVFAIL',
  REFUSED: 'EREFUSED',
  NOTIMP: 'ENOTIMP',
  FORMERR: 'EFORMERR',
};

/** Lowercase, without the final dot: called for every name of every answer, so no pattern. */
const normalize = (name: string) => {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
};
const sameName = (a: string, b: string) => normalize(a) === normalize(b);
/** `name` is `ancestor` or below it. */
const isAtOrBelow = (name: string, ancestor: string) =>
  sameName(name, ancestor) || normalize(name).endsWith(`.${normalize(ancestor)}`);

/** The RDATA of a record, whatever its type (dns-packet's types leave it off OPT). */
const dataOf = (record: Answer): unknown => (record as { data?: unknown }).data;

/**
 * The error for an answer that says no (no such name, no data, a server's rcode), made without
 * a stack trace: every check of a missing record makes several, and capturing where each was
 * made cost more than reading the answer.
 */
const serverError = (code: string, message: string): ServerError => {
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return Object.assign(new Error(message), { code });
  } finally {
    Error.stackTraceLimit = depth;
  }
};

/**
 * Read one server's reply to `rrtype` at `name`, asked as a server of the zone at `apex`:
 * - AA set: the records (after any CNAME chain in the answer), an alias whose target lies
 *   elsewhere, or an authoritative NXDOMAIN / NODATA, which alone mean "missing";
 * - AA clear, no answer, an NS set below `apex` at or above `name` in authority: a referral
 *   down to a delegated zone;
 * - anything else: the server is lame for this zone (an upward or sideways referral, an
 *   answer from a cache), and the zone's other servers decide.
 */
function readReply(
  reply: WireReply,
  apex: string,
  name: string,
  rrtype: AskedType,
  who: { server: string; address: string },
): View {
  const { server } = who;
  if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') {
    const code = RCODE_ERRORS[reply.rcode] ?? 'EBADRESP';
    return {
      kind: 'failed',
      ...who,
      error: Object.assign(serverError(code, `${server} answered ${reply.rcode}`), { server }),
    };
  }
  if (reply.authoritative) {
    const serial = soaSerial(reply.authorities);
    if (reply.rcode === 'NXDOMAIN') return { kind: 'nxdomain', ...who, serial };
    let owner = name;
    for (let step = 0; rrtype !== 'CNAME' && step < MAX_ALIASES; step++) {
      const alias = reply.answers.find((a) => a.type === 'CNAME' && sameName(a.name, owner));
      if (alias === undefined) break;
      owner = dataOf(alias) as string;
    }
    const records = reply.answers.filter((a) => a.type === rrtype && sameName(a.name, owner));
    if (records.length > 0) return { kind: 'records', ...who, values: valuesOf(records, rrtype) };
    if (!sameName(owner, name)) return { kind: 'alias', ...who, target: normalize(owner) };
    return { kind: 'nodata', ...who, serial };
  }
  const cut = reply.answers.length === 0 ? reply.authorities.filter((a) => a.type === 'NS') : [];
  const owner = cut[0]?.name;
  if (owner !== undefined && !sameName(owner, apex) && isAtOrBelow(owner, apex) && isAtOrBelow(name, owner)) {
    const nameServers = cut.filter((a) => sameName(a.name, owner)).map((a) => normalize(dataOf(a) as string));
    const glue = new Map<string, string[]>();
    for (const record of reply.additionals) {
      if (record.type !== 'A' && record.type !== 'AAAA') continue;
      const host = normalize(record.name);
      // glue counts only inside the zone that gave it (RFC 2181 §5.4.1), the rest is looked up
      if (nameServers.includes(host) && isAtOrBelow(host, apex))
        glue.set(host, [...(glue.get(host) ?? []), dataOf(record) as string]);
    }
    return { kind: 'referral', ...who, apex: normalize(owner), nameServers, glue };
  }
  return {
    kind: 'failed',
    ...who,
    error: Object.assign(serverError('ELAME', `${server} does not answer for ${apex} (a lame delegation)`), {
      server,
    }),
  };
}

/** The values of answer records in `dns.promises.resolve`'s shapes. */
function valuesOf(records: Answer[], rrtype: AskedType): string[] | string[][] {
  if (rrtype !== 'TXT') return records.map((record) => normalize(String(dataOf(record))));
  return records.map((record) => {
    const data = dataOf(record) as Buffer | string | (Buffer | string)[];
    return (Array.isArray(data) ? data : [data]).map((chunk) => chunk.toString());
  });
}

const soaSerial = (authorities: Answer[]): number | undefined => {
  const soa = authorities.find((a) => a.type === 'SOA');
  return soa ? (dataOf(soa) as { serial: number }).serial : undefined;
};

/** A key that is equal for views saying the same thing. */
function keyOf(view: Definitive): string {
  switch (view.kind) {
    case 'records':
      return `records ${JSON.stringify(
        view.values.map((value) => (Array.isArray(value) ? value.join('') : value)).sort(),
      )}`;
    case 'alias':
      return `alias ${view.target}`;
    default:
      return view.kind;
  }
}

/** What a server holds, for people: `CNAME x`, `TXT "v=DMARC1; p=none"`, `no such name`. */
function describeView(view: Definitive, rrtype: AskedType): string {
  const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);
  switch (view.kind) {
    case 'records':
      return clip(
        view.values
          .map((value) => (Array.isArray(value) ? `${rrtype} "${value.join('')}"` : `${rrtype} ${value}`))
          .join(', '),
      );
    case 'alias':
      return `CNAME ${view.target}`;
    case 'nxdomain':
      return 'no such name';
    case 'nodata':
      return `no ${rrtype} record`;
  }
}
