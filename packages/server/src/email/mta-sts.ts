/**
 * MTA-STS (RFC 8461): a recipient domain's published promise that its MX hosts take mail over
 * TLS with a valid certificate. A domain opts in with a TXT record at `_mta-sts.<domain>`
 * (`v=STSv1; id=…`) and a policy served at `https://mta-sts.<domain>/.well-known/mta-sts.txt`.
 *
 * - `enforce`: mail goes only to MX hosts the policy names, only over TLS whose certificate
 *   chains to a trusted CA and names the MX host; otherwise it waits (a temporary failure),
 *   never falls back to clear text.
 * - `testing` and `none`: delivery as without a policy (opportunistic TLS).
 *
 * Policies are cached per process until their `max_age`; the TXT record is looked up again
 * after {@link RECHECK_MS}, and a changed `id` fetches the policy again. While a cached policy
 * is valid, a TXT or HTTPS failure keeps it (§5.1): an attacker who blocks the lookups cannot
 * switch enforcement off. The policy fetch is guarded like webhooks (`net/guarded-get.ts`): the
 * recipient domain names the host.
 */
import { Resolver } from 'node:dns/promises';
import { rootCertificates } from 'node:tls';
import { type GuardedAnswer, guardedGet } from '../net/guarded-get.js';

export type StsMode = 'enforce' | 'testing' | 'none';

export interface StsPolicy {
  mode: StsMode;
  /** MX patterns: a host name, or `*.` and a name (one label, §4.1). Lower case. */
  mx: string[];
  /** Seconds the policy may be cached (§3.2: at most 31,557,600). */
  maxAge: number;
}

/** RFC 8461 §3.2's ceiling on `max_age`: one year. */
const MAX_AGE_LIMIT = 31_557_600;

/** The policy body, or what is wrong with it (§3.2: any error means no policy). */
export function parsePolicy(text: string): StsPolicy | { error: string } {
  const fields = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `a line without "key: value": ${JSON.stringify(line.slice(0, 80))}` };
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    fields.set(key, [...(fields.get(key) ?? []), value]);
  }
  // "If a field appears more than once, the first one is used" (§3.2), mx aside.
  const first = (key: string) => fields.get(key)?.[0];
  if (first('version') !== 'STSv1') return { error: 'version is not STSv1' };
  const mode = first('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none')
    return { error: `mode ${JSON.stringify(mode ?? '')} is not enforce, testing or none` };
  const maxAgeText = first('max_age') ?? '';
  if (!/^\d{1,10}$/.test(maxAgeText)) return { error: 'max_age is not a number of seconds' };
  const mx = (fields.get('mx') ?? []).map((m) => m.toLowerCase().replace(/\.$/, ''));
  if (mode !== 'none' && mx.length === 0) return { error: `mode ${mode} names no mx` };
  return { mode, mx, maxAge: Math.min(Number(maxAgeText), MAX_AGE_LIMIT) };
}

/** Whether `host` is one the policy names (§4.1: a wildcard stands for the leftmost label only). */
export function mxMatches(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) =>
    pattern.startsWith('*.')
      ? name.endsWith(pattern.slice(1)) && !name.slice(0, -(pattern.length - 1)).includes('.')
      : name === pattern,
  );
}

/** The `id` of the domain's `v=STSv1` TXT record; `null` when there is none or more than one. */
export function stsRecordId(records: readonly string[]): string | null {
  const sts = records.filter((r) => /^v=STSv1;/.test(r.trim()));
  if (sts.length !== 1) return null;
  return /(?:^|;)\s*id=([A-Za-z0-9]{1,32})\s*(?:;|$)/.exec(sts[0]!)?.[1] ?? null;
}

export interface MtaStsOptions {
  /** TXT strings of a name (each record's strings joined); rejects on a lookup failure. */
  resolveTxt(name: string): Promise<string[]>;
  /** The guarded GET (`net/guarded-get.ts`). */
  get(url: string): Promise<GuardedAnswer>;
  now?: () => number;
  /** Policies kept at most (least recently used out). */
  maxPolicies?: number;
}

interface Cached {
  /** The TXT record's id when last seen; `null`: no record then. */
  id: string | null;
  /** The policy fetched (`null`: none yet) and until when it may be used. */
  policy: StsPolicy | null;
  expiresAt: number;
  /** When the TXT record was last looked up. */
  checkedAt: number;
}

/**
 * How long a domain's TXT lookup is trusted before the next (a policy, or the absence of one):
 * a message each does not need a lookup each.
 */
export const RECHECK_MS = 5 * 60_000;

export class MtaSts {
  private readonly cache = new Map<string, Cached>();
  /** One lookup per domain at a time: a burst to one domain shares it. */
  private readonly pending = new Map<string, Promise<StsPolicy | null>>();

  constructor(private readonly options: MtaStsOptions) {}

  /** The domain's policy in force, or `null` when it has none (or none could be had). */
  policyFor(domain: string): Promise<StsPolicy | null> {
    const key = domain.toLowerCase();
    const now = (this.options.now ?? Date.now)();
    const entry = this.cache.get(key);
    if (entry && now - entry.checkedAt < RECHECK_MS)
      return Promise.resolve(entry.policy && entry.expiresAt > now ? entry.policy : null);
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.lookUp(key, now).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    return lookup;
  }

  private async lookUp(domain: string, now: number): Promise<StsPolicy | null> {
    const entry = this.cache.get(domain);
    const valid = entry?.policy && entry.expiresAt > now ? entry : undefined;
    const kept = { policy: valid?.policy ?? null, expiresAt: valid?.expiresAt ?? 0 };
    const records = await this.options.resolveTxt(`_mta-sts.${domain}`).catch(() => undefined);
    const id = records && stsRecordId(records);
    // No record (or no answer): a valid cached policy stays in force (§5.1).
    if (!id) return this.remember(domain, { id: null, ...kept, checkedAt: now });
    if (valid && valid.id === id) return this.remember(domain, { ...valid, checkedAt: now });
    const fetched = await this.fetch(domain);
    if (!fetched) return this.remember(domain, { id: valid?.id ?? null, ...kept, checkedAt: now });
    return this.remember(domain, {
      id,
      policy: fetched,
      expiresAt: now + fetched.maxAge * 1000,
      checkedAt: now,
    });
  }

  /** Keep `entry` (least recently looked up out first past the bound); its policy if valid. */
  private remember(domain: string, entry: Cached): StsPolicy | null {
    this.cache.delete(domain);
    this.cache.set(domain, entry);
    if (this.cache.size > (this.options.maxPolicies ?? 10_000))
      this.cache.delete(this.cache.keys().next().value!);
    return entry.policy && entry.expiresAt > entry.checkedAt ? entry.policy : null;
  }

  /** The policy file, when it is served as §3.3 requires: 200, text/plain, no redirect, parseable. */
  private async fetch(domain: string): Promise<StsPolicy | null> {
    const answer = await this.options
      .get(`https://mta-sts.${domain}/.well-known/mta-sts.txt`)
      .catch(() => null);
    if (answer?.status !== 200 || answer.contentType !== 'text/plain') return null;
    const policy = parsePolicy(answer.text);
    return 'error' in policy ? null : policy;
  }
}

/**
 * MTA-STS over the resolvers of `DNS_RESOLVERS` (the TXT record, and the policy host's
 * addresses) and the guarded GET: the policy host must be public unless `allowPrivate`
 * (`SMTP_ALLOW_PRIVATE_MX`), its certificate valid (the system's CAs, and `ca`).
 */
export function mtaStsOverDns(options: {
  servers: string[];
  timeoutMs: number;
  tries: number;
  allowPrivate: boolean;
  ca: string | undefined;
}): MtaSts {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  const addressesOf = async (host: string) => {
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    return [
      ...v4.map((address) => ({ address, family: 4 })),
      ...v6.map((address) => ({ address, family: 6 })),
    ];
  };
  return new MtaSts({
    resolveTxt: async (name) => (await resolver.resolveTxt(name)).map((strings) => strings.join('')),
    get: (url) =>
      guardedGet(url, {
        // §3.3: the whole fetch within a minute at most
        timeoutMs: 60_000,
        allowPrivate: options.allowPrivate,
        ...(options.ca && { ca: [...rootCertificates, options.ca].join('\n') }),
        resolve: addressesOf,
        accept: 'text/plain',
        userAgent: 'sending-domain-service-mta-sts/1',
      }),
  });
}
