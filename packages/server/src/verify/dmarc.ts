/**
 * DMARC policy records (RFC 7489 §6.3, §6.4): parse the TXT found at `_dmarc.<domain>` and
 * decide whether it is one valid policy. Pure.
 */

export type DmarcPolicy = 'none' | 'quarantine' | 'reject';

export interface DmarcRecord {
  /** The policy receivers apply: `none` for a record without `p` but with a valid `rua`. */
  p: DmarcPolicy;
  tags: Record<string, string>;
  /**
   * What receivers skip but still apply the policy without: a report address that is not a URI
   * (`rua=dmarc@example.com` for `mailto:dmarc@example.com`); reports are lost, the policy holds.
   */
  warnings: string[];
}

export type DmarcParse = { ok: true; record: DmarcRecord } | { ok: false; problem: string };

const POLICIES = new Set(['none', 'quarantine', 'reject']);

/** Tag values checked beyond `v` and `p`; unknown tags are ignored (§6.3: "MUST be ignored"). */
const TAG_RULES: Record<string, (value: string) => string | undefined> = {
  sp: (v) => (POLICIES.has(v.toLowerCase()) ? undefined : 'sp must be none, quarantine or reject'),
  adkim: (v) => (/^[rs]$/i.test(v) ? undefined : 'adkim must be r or s'),
  aspf: (v) => (/^[rs]$/i.test(v) ? undefined : 'aspf must be r or s'),
  pct: (v) => (/^\d{1,3}$/.test(v) && Number(v) <= 100 ? undefined : 'pct must be an integer from 0 to 100'),
  ri: (v) => (/^\d{1,10}$/.test(v) && Number(v) <= 0xffffffff ? undefined : 'ri must be a number of seconds'),
  fo: (v) => (/^[01ds](:[01ds])*$/i.test(v) ? undefined : 'fo must be a colon-separated list of 0, 1, d, s'),
  rf: (v) =>
    /^[a-z0-9-]+(:[a-z0-9-]+)*$/i.test(v) ? undefined : 'rf must be a colon-separated list of formats',
  rua: reportUris,
  ruf: reportUris,
};

/** §6.2: a comma-separated list of URIs, each optionally followed by `!size`. */
function reportUris(value: string): string | undefined {
  for (const uri of value.split(',').map((u) => u.trim())) {
    if (!/^[a-z][a-z0-9+.-]*:[^\s!]+(![0-9]+[kmgt]?)?$/i.test(uri))
      return `"${uri}" is not a report URI such as mailto:dmarc@example.com`;
  }
  return undefined;
}

/**
 * Whether a TXT string is meant as a DMARC record at all (§6.6.3 step 3 discards others).
 *
 * §6.4 writes the version as `"v" *WSP "=" *WSP %x44 %x4d %x41 %x52 %x43 %x31`: the tag
 * name is an ABNF quoted string, so case-insensitive (RFC 5234 §2.3), and `V=DMARC1` counts;
 * the value is spelled in code points, so case-sensitive, and §6.3 adds that it "MUST match
 * precisely", so `v=dmarc1` is not a DMARC record.
 */
export function isDmarcCandidate(txt: string): boolean {
  return /^[vV]\s*=\s*DMARC1\s*(;|$)/.test(txt.trimStart());
}

/** Parse one DMARC record's text (multi-string TXT already joined). */
export function parseDmarc(txt: string): DmarcParse {
  const parts = txt.split(';').map((part) => part.trim());
  if (parts[parts.length - 1] === '') parts.pop();
  const tags: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, problem: `"${part}" is not a tag=value pair` };
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (index === 0 && (name !== 'v' || value !== 'DMARC1')) {
      return { ok: false, problem: 'a DMARC record must start with v=DMARC1' };
    }
    if (name in tags) return { ok: false, problem: `the tag ${name} appears twice` };
    tags[name] = value;
  }
  if (tags.v === undefined) return { ok: false, problem: 'a DMARC record must start with v=DMARC1' };
  // §6.3 requires "p", but §6.6.3 step 6.1 has receivers read a record without a valid "p"
  // and with a valid "rua" as p=none: a reporting-only record such as
  // "v=DMARC1; rua=mailto:…" is a policy. A p that is present but invalid is still reported:
  // receivers would apply none instead of the policy written, which is a typo to fix.
  const missingP = tags.p === undefined;
  if (missingP && (tags.rua === undefined || reportUris(tags.rua) !== undefined))
    return {
      ok: false,
      problem: 'the required tag p (none, quarantine or reject) is missing, and there is no valid rua',
    };
  const p = tags.p?.toLowerCase() ?? 'none';
  if (!POLICIES.has(p)) return { ok: false, problem: `p=${tags.p} is not none, quarantine or reject` };
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(tags)) {
    const problem = TAG_RULES[name]?.(value);
    // §6.2 has receivers skip report URIs they cannot use; the policy still applies, so a bad
    // rua or ruf is a warning (reports are lost), not a reason to call the record missing
    if (problem && (name === 'rua' || name === 'ruf'))
      warnings.push(`${name}: ${problem}; no reports will arrive`);
    else if (problem) return { ok: false, problem };
  }
  return { ok: true, record: { p: p as DmarcPolicy, tags, warnings } };
}

export type DmarcLookup =
  | {
      valid: true;
      record: string;
      policy: DmarcPolicy;
      /** `sp`: what receivers apply to the subdomains without a record of their own (§6.3); null: `p` applies. */
      subdomainPolicy: DmarcPolicy | null;
      /** The domains of its `mailto:` report addresses (`rua`), lower case, each once. */
      reportDomains: string[];
      warnings: string[];
    }
  | { valid: false; reason: 'not_found' | 'wrong_value'; found: string | null; detail: string };

/**
 * Judge the TXT records found at `_dmarc.<domain>` (each record's strings already joined):
 * exactly one v=DMARC1 record that parses is valid (§6.6.3 step 5: more than one means no
 * policy applies).
 */
export function judgeDmarcRecords(records: string[]): DmarcLookup {
  const candidates = records.filter(isDmarcCandidate);
  if (candidates.length === 0) {
    const other = records.find((r) => mistakeIn(r) !== undefined) ?? records[0];
    return other === undefined
      ? { valid: false, reason: 'not_found', found: null, detail: 'no TXT record at this name' }
      : {
          valid: false,
          reason: 'wrong_value',
          found: other,
          detail: mistakeIn(other) ?? 'the TXT records here are not DMARC records (v=DMARC1)',
        };
  }
  if (candidates.length > 1) {
    return {
      valid: false,
      reason: 'wrong_value',
      found: candidates.join(' | '),
      detail: `${candidates.length} DMARC records are published; receivers ignore them all, keep exactly one`,
    };
  }
  const only = candidates[0]!;
  const parsed = parseDmarc(only);
  if (!parsed.ok) return { valid: false, reason: 'wrong_value', found: only, detail: parsed.problem };
  const { p, tags, warnings } = parsed.record;
  const sp = tags.sp?.toLowerCase();
  return {
    valid: true,
    record: only,
    policy: p,
    subdomainPolicy: sp !== undefined && POLICIES.has(sp) ? (sp as DmarcPolicy) : null,
    reportDomains: reportDomainsOf(tags.rua),
    warnings,
  };
}

/** The domains of the `mailto:` URIs in a `rua` value (others are not mail, and bad ones warned of already). */
function reportDomainsOf(rua: string | undefined): string[] {
  const domains = (rua ?? '')
    .split(',')
    .map((uri) => /^mailto:[^@\s!]+@([^\s!]+?)(?:![0-9]+[kmgt]?)?$/i.exec(uri.trim())?.[1]?.toLowerCase())
    .filter((domain): domain is string => domain !== undefined);
  return [...new Set(domains)];
}

/**
 * The commonest ways a DMARC record is published so that receivers ignore it, named: literal
 * quotation marks (the API's quoted `value` pasted into a provider that quotes again), the
 * version after another tag (§6.4: `v` comes first), and the version in lower case (§6.3:
 * "v=DMARC1" must match exactly).
 */
function mistakeIn(txt: string): string | undefined {
  const text = txt.trim();
  if (!/^v\s*=/i.test(text) && /(^|;)\s*v\s*=\s*DMARC1\s*(;|$)/i.test(text))
    return 'v=DMARC1 must come first in the record; receivers ignore a record where another tag comes before it';
  if (/^(\\?["'])+\s*v\s*=\s*DMARC1/i.test(text))
    return 'the record starts with a literal quotation mark, so receivers ignore it: remove the quotation marks around the value (the provider adds its own)';
  if (/^v\s*=\s*dmarc1\b/i.test(text))
    return 'the version must be written v=DMARC1 in capitals; receivers ignore a record that starts with another spelling';
  return undefined;
}
