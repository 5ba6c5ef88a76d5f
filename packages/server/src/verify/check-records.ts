/**
 * Check a registration's records in DNS: each DKIM CNAME (and the return path's) must answer
 * its expected target, and `_dmarc.<domain>` must hold exactly one valid DMARC policy.
 */
import { organisationalDomain } from '../domain/domain-name.js';
import type { Observation } from '../domain/verification.js';
import { type AuthoritativeResolve, disagreementOf, type ServerHolding } from './authoritative.js';
import { type DmarcLookup, isDmarcCandidate, judgeDmarcRecords } from './dmarc.js';
import { classifyLookupError, type DnsResolve, describeLookupError, viaResolvers } from './resolver.js';

/**
 * A name where people commonly publish a record by mistake, and what to tell them when it is
 * there: the zone appended twice (a provider adding it to a pasted full name), the record on the
 * organisational domain instead of the subdomain.
 */
export interface Misplacement {
  fqdn: string;
  why: string;
  /**
   * A name above `fqdn` (`<domain>.<zone>` for the names a provider doubled): when its zone's
   * servers say it does not exist, nothing below it does (RFC 8020), so the misplacements of a
   * check that share it cost one question together, not one each.
   */
  within?: string;
}

/** Whether a name exists (anything but an authoritative NXDOMAIN), asked once per check. */
export type Existence = (name: string) => Promise<boolean>;

/** An {@link Existence} that asks each name once, through `resolve`. */
export function existenceOnce(resolve: DnsResolve): Existence {
  const asked = new Map<string, Promise<boolean>>();
  return (name) => {
    let known = asked.get(name);
    if (known === undefined) {
      known = resolve(name, 'TXT').then(
        () => true,
        (error: unknown) => classifyLookupError(error) !== 'nxdomain',
      );
      asked.set(name, known);
    }
    return known;
  };
}

/** What one record should be; `misplaced`: where to look when it is not there. */
export type ExpectedRecord =
  | {
      kind: 'dkim';
      fqdn: string;
      target: string;
      misplaced?: Misplacement[];
      /** Our key record for this token (`v=DKIM1; k=rsa; p=…`), asked only if the name answers a TXT. */
      keyRecord?: () => Promise<string | undefined>;
      /**
       * The zone's DNS provider proxies records (Cloudflare), and the setting that turns the
       * proxy off for one record: a proxied CNAME answers with the proxy's addresses.
       */
      proxy?: () => Promise<{ provider: string; setting: string } | undefined>;
    }
  /** `inheritFrom`: `_dmarc.<organisational domain>`, when that is another name (RFC 7489 §6.6.3). */
  | { kind: 'dmarc'; fqdn: string; inheritFrom?: string; misplaced?: Misplacement[] }
  /**
   * The return-path domain's CNAME into our zone (issue 34), the tracking host's CNAME to our
   * tracking listener (issue 37): checked as a DKIM CNAME is.
   */
  | { kind: 'return_path' | 'tracking'; fqdn: string; target: string; misplaced?: Misplacement[] };

/** Longest `found` value we keep: enough to recognise, never a whole zone's worth. */
const MAX_FOUND = 300;

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');
const clip = (text: string) => (text.length > MAX_FOUND ? `${text.slice(0, MAX_FOUND)}…` : text);

/** The observation of a lookup that ended without a definitive answer; it names the server when it knows it. */
function failed(error: unknown, context = ''): Observation {
  const { server } = error as { server?: string };
  return { outcome: 'error', detail: `${describeLookupError(error)}${context}`, ...(server && { server }) };
}

/** Said of a miss when the zone's own servers did not answer and a resolver's answer stood in. */
const VIA_RESOLVERS =
  " (the zone's name servers did not answer; this is the resolvers' answer, which may be an older one they remember)";

/** Observe every expected record, concurrently. */
export function checkRecords(expected: ExpectedRecord[], resolve: DnsResolve): Promise<Observation[]> {
  const quick = (resolve as Partial<AuthoritativeResolve>).firstAnswer ?? resolve;
  const exists = existenceOnce(quick);
  return Promise.all(
    expected.map(async (record) => {
      // whether the record's own name was answered by the resolvers in place of its zone's servers
      let fallback = false;
      // what each of the zone's servers holds at the record's own name, when they disagreed
      let split: ServerHolding[] | undefined;
      // The record's own question goes to every server of its zone, to see them disagree; the
      // others (where else it might be, what stands there instead) to the first that answers.
      const ownType = record.kind === 'dmarc' ? 'TXT' : 'CNAME';
      const watched = (async (name: string, type: 'CNAME') => {
        const asked = name === record.fqdn && type === ownType ? resolve : quick;
        const outcome = await asked(name, type).then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        );
        const result = 'answer' in outcome ? outcome.answer : outcome.error;
        if (name === record.fqdn && viaResolvers(result)) fallback = true;
        if (name === record.fqdn) split ??= disagreementOf(result);
        if ('error' in outcome) throw outcome.error;
        return outcome.answer;
      }) as DnsResolve;
      const observation =
        record.kind !== 'dmarc'
          ? await checkCname(record, watched, exists)
          : await checkDmarc(record.fqdn, watched, record.inheritFrom, record.misplaced, exists);
      if (split !== undefined) return withDisagreement(observation, record.fqdn, split);
      return fallback && observation.outcome === 'miss'
        ? { ...observation, detail: `${observation.detail}${VIA_RESOLVERS}` }
        : observation;
    }),
  );
}

/**
 * An observation made while the zone's servers disagreed: the detail names each server and what
 * it holds. The verdict stays the one most servers gave, but a miss never advises adding a
 * record, since some server already holds one: the servers must be brought in line instead.
 */
function withDisagreement(observation: Observation, fqdn: string, holdings: ServerHolding[]): Observation {
  const each = holdings
    .map((h) => `${h.server}${h.serial === undefined ? '' : ` serial ${h.serial}`} has ${h.holds}`)
    .join('; ');
  const account = `the zone's name servers disagree about ${fqdn}: ${each}. Receivers get whichever one they ask`;
  if (observation.outcome === 'match')
    return { ...observation, detail: `${account}; bring the others in line` };
  if (observation.outcome !== 'miss') return observation;
  return {
    ...observation,
    detail: `${account}, so do not add records: make every server serve the same zone (a secondary that has not transferred the latest serial, or a server the parent's NS records name that the zone's own do not)`,
  };
}

/**
 * A DKIM (or return-path) record: a CNAME query for its name must answer its target (case and
 * final dot aside).
 */
export async function checkCname(
  record: {
    fqdn: string;
    target: string;
    misplaced?: Misplacement[];
    keyRecord?: () => Promise<string | undefined>;
    proxy?: () => Promise<{ provider: string; setting: string } | undefined>;
  },
  resolve: DnsResolve,
  exists: Existence = existenceOnce(resolve),
): Promise<Observation> {
  let answers: string[];
  try {
    answers = await resolve(record.fqdn, 'CNAME');
  } catch (error) {
    const failure = classifyLookupError(error);
    if (failure === 'nxdomain') {
      const elsewhere = await firstFound(record.misplaced, exists, async (name) => {
        const targets = await resolve(name, 'CNAME');
        return targets.some((t) => normalize(t) === normalize(record.target))
          ? `CNAME ${record.target}`
          : null;
      });
      return {
        outcome: 'miss',
        reason: 'not_found',
        found: elsewhere ? clip(`${elsewhere.at.fqdn} ${elsewhere.found}`) : null,
        detail: elsewhere
          ? `no record at ${record.fqdn}, but ${elsewhere.at.fqdn} has the CNAME: ${elsewhere.at.why}`
          : `no record at ${record.fqdn}; add a CNAME to ${record.target}`,
      };
    }
    if (failure === 'nodata') return describeOtherType(record, resolve);
    return failed(error);
  }
  const target = answers[0];
  if (target === undefined) {
    return {
      outcome: 'miss',
      reason: 'not_found',
      found: null,
      detail: `no CNAME at ${record.fqdn}; add one to ${record.target}`,
    };
  }
  if (normalize(target) === normalize(record.target)) return { outcome: 'match' };
  const chain = await followChain(record.fqdn, target, record.target, resolve);
  if (chain?.ends === 'goal') {
    const { names } = chain;
    return {
      outcome: 'match',
      found: clip(names.join(' → ')),
      detail: `the CNAME reaches ${record.target} through ${names.length - 1} more name${names.length > 2 ? 's' : ''}; receivers follow it`,
    };
  }
  if (chain?.ends === 'loop') {
    return {
      outcome: 'miss',
      reason: 'wrong_value',
      found: clip(chain.names.join(' → ')),
      detail: `the CNAME at ${record.fqdn} starts a loop (${clip(chain.names.join(' → '))}), so receivers find no key; point it to ${record.target}`,
    };
  }
  return {
    outcome: 'miss',
    reason: 'wrong_value',
    found: clip(target),
    detail: `the CNAME points to ${clip(target)}; it must point to ${record.target}`,
  };
}

/** CNAMEs a chain may have before it counts as a loop (resolvers give up near here too). */
const MAX_CHAIN = 8;

/**
 * Where the chain of CNAMEs from `owner` through `first` goes: to `goal` (a customer's own alias
 * in between, as receivers' resolvers follow it), or round in a `loop` (back to a name already
 * seen, the owner included), each with the names from `first` on; `undefined` when it ends
 * elsewhere, is too long or fails to answer. A goal only ever turns a miss into a match.
 */
async function followChain(
  owner: string,
  first: string,
  goal: string,
  resolve: DnsResolve,
): Promise<{ ends: 'goal' | 'loop'; names: string[] } | undefined> {
  const names = [normalize(first)];
  while (names.length <= MAX_CHAIN) {
    let next: string | undefined;
    try {
      next = (await resolve(names.at(-1)!, 'CNAME'))[0];
    } catch {
      return undefined;
    }
    if (next === undefined) return undefined;
    const seen = normalize(next) === normalize(owner) || names.includes(normalize(next));
    names.push(normalize(next));
    if (seen) return { ends: 'loop', names };
    if (normalize(next) === normalize(goal)) return { ends: 'goal', names };
  }
  return undefined;
}

/** The `p=` of a DKIM key record, whitespace removed (RFC 6376 §3.6.1 allows folding it). */
const keyOf = (txt: string) => /(?:^|;)\s*p\s*=([^;]*)/.exec(txt)?.[1]?.replace(/\s+/g, '');

/**
 * The name exists without a CNAME: say what is there, if it is a TXT (a pasted key, say). A TXT
 * holding our very key is a provider flattening the CNAME (answering the target's record at the
 * name): receivers get the right key, so it counts, with a note.
 */
async function describeOtherType(
  record: Pick<Parameters<typeof checkCname>[0], 'fqdn' | 'target' | 'keyRecord' | 'proxy'>,
  resolve: DnsResolve,
): Promise<Observation> {
  let txt: string[] = [];
  try {
    txt = (await resolve(record.fqdn, 'TXT')).map((chunks) => chunks.join(''));
  } catch {
    // Only a description: the NODATA answer above is already definitive.
  }
  const ours = txt.length > 0 ? await record.keyRecord?.().catch(() => undefined) : undefined;
  const key = ours === undefined ? undefined : keyOf(ours);
  if (key && txt.length === 1 && keyOf(txt[0]!) === key) {
    return {
      outcome: 'match',
      found: clip(`TXT "${txt[0]}"`),
      detail: `${record.fqdn} answers our key itself instead of a CNAME to ${record.target} (the DNS provider flattens the CNAME); receivers get the right key, but a new key reaches them only when the provider refreshes its copy`,
    };
  }
  if (txt.length > 0) {
    return {
      outcome: 'miss',
      reason: 'wrong_type',
      found: clip(`TXT "${txt.join('" "')}"`),
      detail: `${record.fqdn} has a TXT record but no CNAME; replace it with a CNAME to ${record.target}`,
    };
  }
  // addresses where the CNAME belongs: a provider proxying the record (Cloudflare's orange
  // cloud) answers its own A/AAAA records instead of passing the CNAME on
  const addresses = (
    await Promise.all((['A', 'AAAA'] as const).map((type) => resolve(record.fqdn, type).catch(() => [])))
  ).flat();
  if (addresses.length > 0) {
    const proxy = await record.proxy?.();
    return {
      outcome: 'miss',
      reason: 'wrong_type',
      found: clip(`A/AAAA ${addresses.join(' ')}`),
      detail: proxy
        ? `${record.fqdn} answers addresses instead of a CNAME: ${proxy.provider} proxies this record; turn the proxy off for this record (proxy status “${proxy.setting}”), as a CNAME to ${record.target}`
        : `${record.fqdn} answers addresses instead of a CNAME: the record is proxied by your DNS provider (e.g. Cloudflare's orange cloud); set it to DNS only, as a CNAME to ${record.target}`,
    };
  }
  return {
    outcome: 'miss',
    reason: 'wrong_type',
    found: null,
    detail: `${record.fqdn} has records of another type but no CNAME; replace them with a CNAME to ${record.target}`,
  };
}

/** The TXT records at `fqdn`, each record's strings joined; `[]` when the name has none. */
async function txtAt(fqdn: string, resolve: DnsResolve): Promise<string[] | { error: unknown }> {
  try {
    return (await resolve(fqdn, 'TXT')).map((chunks) => chunks.join(''));
  } catch (error) {
    return classifyLookupError(error) === 'error' ? { error } : [];
  }
}

/** A valid policy's observation: a match, with the warnings receivers would act on as the note. */
const policyMatch = (verdict: ValidDmarc, note: string[] = []): Observation => {
  const detail = [...note, ...verdict.warnings].join('; ');
  return { outcome: 'match', found: note.length ? clip(verdict.record) : null, detail: detail || null };
};

/**
 * The DMARC record: TXT at `_dmarc.<domain>`, multi-string records joined (RFC 7489 §6.6.3).
 * As receivers do, a name with no DMARC record at all takes the policy of its organisational
 * domain (`inheritFrom`, step 2): a valid one there counts, and the note says where it comes
 * from, so nobody is told to add a weaker `p=none` under a `p=reject`.
 */
export async function checkDmarc(
  fqdn: string,
  resolve: DnsResolve,
  inheritFrom?: string,
  misplaced?: Misplacement[],
  exists: Existence = existenceOnce(resolve),
): Promise<Observation> {
  const records = await txtAt(fqdn, resolve);
  if (!Array.isArray(records)) return failed(records.error);
  const verdict = judgeDmarcRecords(records);
  if (verdict.valid) return policyMatch(await withReportWarnings(fqdn, verdict, resolve));
  if (inheritFrom !== undefined && !records.some(isDmarcCandidate)) {
    const inherited = await txtAt(inheritFrom, resolve);
    // unknown is not "none": advising p=none under a p=reject we could not read would weaken it
    if (!Array.isArray(inherited)) return failed(inherited.error, ` (asking ${inheritFrom})`);
    const parent = judgeDmarcRecords(inherited);
    if (parent.valid) {
      const own = verdict.reason === 'not_found' ? `no DMARC record at ${fqdn}` : verdict.detail;
      // a subdomain gets the parent's sp= where it has one (RFC 7489 §6.3), not its p=
      const applied = parent.subdomainPolicy
        ? `the subdomain policy of ${inheritFrom} (sp=${parent.subdomainPolicy})`
        : `the policy of ${inheritFrom} (p=${parent.policy})`;
      return policyMatch(await withReportWarnings(inheritFrom, parent, resolve), [
        `${own}; receivers apply ${applied}, which counts`,
      ]);
    }
  }
  if (verdict.reason === 'not_found') {
    const elsewhere = await firstFound(misplaced, exists, async (name) => {
      const txt = await txtAt(name, resolve);
      return Array.isArray(txt) ? (txt.find(isDmarcCandidate) ?? null) : null;
    });
    return {
      outcome: 'miss',
      reason: 'not_found',
      found: elsewhere ? clip(`${elsewhere.at.fqdn} ${elsewhere.found}`) : null,
      detail: elsewhere
        ? `no DMARC record at ${fqdn}, but ${elsewhere.at.fqdn} has one: ${elsewhere.at.why}`
        : `no DMARC record at ${fqdn}; add the TXT record shown`,
    };
  }
  return {
    outcome: 'miss',
    reason: verdict.reason,
    found: verdict.found === null ? null : clip(verdict.found),
    detail: verdict.detail,
  };
}

type ValidDmarc = Extract<DmarcLookup, { valid: true }>;

/**
 * The policy at `fqdn` (`_dmarc.<domain>`) with a warning for each report domain that would get
 * no reports: one outside the domain's organisational domain receives them only when it
 * publishes `v=DMARC1` at `<domain>._report._dmarc.<report domain>` (RFC 7489 §7.1). Asked only
 * for such domains; a lookup that fails says nothing (this is advice, never a verdict).
 */
async function withReportWarnings(
  fqdn: string,
  verdict: ValidDmarc,
  resolve: DnsResolve,
): Promise<ValidDmarc> {
  const domain = fqdn.replace(/^_dmarc\./i, '');
  const own = organisationalDomain(domain);
  const unauthorised = await Promise.all(
    verdict.reportDomains
      .filter((reports) => organisationalDomain(reports) !== own)
      .map(async (reports) => {
        const txt = await txtAt(`${domain}._report._dmarc.${reports}`, resolve);
        const authorised = !Array.isArray(txt) || txt.some((t) => /^v\s*=\s*DMARC1/i.test(t.trimStart()));
        return authorised
          ? undefined
          : `rua: ${reports} publishes no ${domain}._report._dmarc.${reports} record (RFC 7489 §7.1), so receivers send it no reports`;
      }),
  );
  const warnings = unauthorised.filter((w): w is string => w !== undefined);
  return warnings.length === 0 ? verdict : { ...verdict, warnings: [...verdict.warnings, ...warnings] };
}

/**
 * The first of the `misplaced` names where `look` finds the record (only asked once the right
 * name is definitively empty, so a correct setup costs no extra query); lookup failures there
 * count as not found: this is advice, never a verdict.
 */
async function firstFound(
  misplaced: Misplacement[] | undefined,
  exists: Existence,
  look: (fqdn: string) => Promise<string | null>,
): Promise<{ at: Misplacement; found: string } | undefined> {
  const seen = await Promise.all(
    (misplaced ?? []).map(async (at) =>
      at.within !== undefined && !(await exists(at.within))
        ? undefined
        : look(at.fqdn).then(
            (found) => (found ? { at, found } : undefined),
            () => undefined,
          ),
    ),
  );
  return seen.find((s) => s !== undefined);
}
