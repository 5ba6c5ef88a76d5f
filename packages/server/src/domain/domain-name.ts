/**
 * Sending-domain names: normalisation and validation.
 *
 * Pure: no I/O. Every rejection carries a stable code from the error catalogue and a
 * message precise enough for the caller to fix the input without reading our docs.
 */

import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { getDomain, getPublicSuffix } from 'tldts';
import { mixedScripts } from './mixed-scripts.js';
import { TOKEN_LENGTH } from './token.js';
/**
 * RFC 1035 §2.3.4: a name is at most 253 characters in text form. The longest record we
 * ask the customer to publish is `<token>._domainkey.<domain>`, so the domain itself must
 * leave room for that prefix.
 */
export const MAX_DOMAIN_LENGTH = 253 - (TOKEN_LENGTH + '._domainkey.'.length);
const MAX_LABEL_LENGTH = 63;
/** Guard against pathological inputs before any Unicode processing runs. */
const MAX_RAW_LENGTH = 1024;

/** RFC 6761 / RFC 7686 special-use names that can never receive mail on the Internet. */
const SPECIAL_USE_TLDS = new Set(['localhost', 'invalid', 'local', 'onion', 'arpa', 'internal']);

export type DomainNameErrorCode =
  | 'DOMAIN_EMPTY'
  | 'DOMAIN_TOO_LONG'
  | 'DOMAIN_INVALID_CHARACTER'
  | 'DOMAIN_WILDCARD'
  | 'DOMAIN_IP_ADDRESS'
  | 'DOMAIN_INVALID_LABEL'
  | 'DOMAIN_MIXED_SCRIPTS'
  | 'DOMAIN_SINGLE_LABEL'
  | 'DOMAIN_PUBLIC_SUFFIX'
  | 'DOMAIN_RESERVED';

export type DomainNameResult =
  | { ok: true; name: string }
  | { ok: false; code: DomainNameErrorCode; message: string };

const fail = (code: DomainNameErrorCode, message: string): DomainNameResult => ({ ok: false, code, message });

/**
 * Normalise a user-supplied domain name to the ASCII (punycode) form we store and echo:
 * trimmed, lowercased, one trailing dot removed, IDN labels converted per UTS #46.
 * Rejects IP addresses, single labels, public suffixes, wildcards, underscores, bad
 * labels, labels mixing scripts (`mixed-scripts.ts`) and names too long to carry our DKIM
 * records.
 *
 * @example normalizeDomainName(' Bücher.DE. ') // { ok: true, name: 'xn--bcher-kva.de' }
 */
export function normalizeDomainName(input: string): DomainNameResult {
  // Pollers send the same few names again and again: the answer (pure, frozen) is kept.
  let result = recent.get(input);
  if (result === undefined) {
    result = Object.freeze(normalize(input));
    if (input.length <= MAX_REMEMBERED_LENGTH) {
      if (recent.size >= MAX_REMEMBERED) recent.clear();
      recent.set(input, result);
    }
  }
  return result;
}

/** How many recent inputs {@link normalizeDomainName} remembers, and up to what length. */
const MAX_REMEMBERED = 10_000;
const MAX_REMEMBERED_LENGTH = 253;
const recent = new Map<string, DomainNameResult>();

function normalize(input: string): DomainNameResult {
  let raw = input.trim();
  if (raw.length === 0) return fail('DOMAIN_EMPTY', 'domain is empty');
  // Far too long whatever it holds: refused before any Unicode processing.
  if (raw.length > MAX_RAW_LENGTH) return tooLong(raw.length);
  if (isIP(raw) !== 0 || /^\[.*\]$/.test(raw)) {
    return fail('DOMAIN_IP_ADDRESS', `"${raw}" is an IP address; register a domain name instead`);
  }
  if (raw.endsWith('.')) raw = raw.slice(0, -1);

  const bad = firstForbiddenCharacter(raw);
  if (bad === '*') {
    return fail(
      'DOMAIN_WILDCARD',
      'wildcard names cannot be registered; register each sending domain itself',
    );
  }
  if (bad === '_') {
    return fail(
      'DOMAIN_INVALID_CHARACTER',
      'underscores are not allowed in a sending domain (the _domainkey and _dmarc names are added for you)',
    );
  }
  if (bad !== undefined) {
    return fail(
      'DOMAIN_INVALID_CHARACTER',
      `domain contains the character ${describeCharacter(bad)}, which is not allowed`,
    );
  }

  // Only names with non-ASCII characters go through UTS #46 mapping: the WHATWG algorithm is
  // lenient in ways we do not want for ASCII input (it reads "a.123" as an IPv4 address).
  let name = raw.toLowerCase();
  if (/[^\p{ASCII}]/u.test(name)) {
    const ascii = domainToASCII(name);
    if (ascii === '')
      return fail('DOMAIN_INVALID_LABEL', `"${raw}" is not a valid internationalised domain name`);
    name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  }
  if (isIP(name) !== 0)
    return fail('DOMAIN_IP_ADDRESS', `"${raw}" is an IP address; register a domain name instead`);

  // Length before labels: a name over the limit is DOMAIN_TOO_LONG whatever its length, not
  // DOMAIN_INVALID_LABEL below some length because one of its labels is also too long.
  if (name.length > MAX_DOMAIN_LENGTH) return tooLong(name.length);
  const labels = name.split('.');
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem) return fail('DOMAIN_INVALID_LABEL', problem);
    // Checked on the Unicode form, whichever form the caller sent: an A-label hides nothing.
    const unicode = label.startsWith('xn--') ? domainToUnicode(label) : label;
    const scripts = mixedScripts(unicode);
    if (scripts) {
      return fail(
        'DOMAIN_MIXED_SCRIPTS',
        `label "${unicode}" mixes ${scripts.join(' and ')} letters, as look-alike names do; write each label in one script`,
      );
    }
  }
  if (labels.length < 2) {
    return fail(
      'DOMAIN_SINGLE_LABEL',
      `"${name}" is a single label; register a fully qualified name such as example.com`,
    );
  }
  const tld = labels[labels.length - 1]!;
  if (/^\d+$/.test(tld))
    return fail('DOMAIN_INVALID_LABEL', `the top-level label "${tld}" cannot be all digits`);
  if (SPECIAL_USE_TLDS.has(tld)) {
    return fail(
      'DOMAIN_RESERVED',
      `".${tld}" is a special-use name (RFC 6761) that cannot receive mail on the Internet`,
    );
  }
  if (getPublicSuffix(name, { allowPrivateDomains: true }) === name) {
    return fail(
      'DOMAIN_PUBLIC_SUFFIX',
      `"${name}" is a public suffix; register a domain under it (for example example.${name}) instead`,
    );
  }
  return { ok: true, name };
}

/** One DOMAIN_TOO_LONG message for every length: the limit and why it is what it is. */
function tooLong(length: number): DomainNameResult {
  return fail(
    'DOMAIN_TOO_LONG',
    `domain is ${length} characters; at most ${MAX_DOMAIN_LENGTH} are allowed so that its DKIM record names stay within 253`,
  );
}

/** Characters a domain name may hold before IDN mapping: LDH, dots, and any non-ASCII. */
function firstForbiddenCharacter(raw: string): string | undefined {
  for (const ch of raw) {
    if (/[a-zA-Z0-9.-]/.test(ch)) continue;
    if (ch.codePointAt(0)! > 0x7f && !/[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u.test(ch)) continue;
    return ch;
  }
  return undefined;
}

function describeCharacter(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code > 0x20 && code !== 0x7f ? `"${ch}" (${hex})` : hex;
}

/** RFC 1035 §2.3.1 LDH rule, with IDNA A-labels checked for valid punycode. */
function labelProblem(label: string): string | undefined {
  if (label.length === 0) return 'domain has an empty label (two dots in a row, or a leading dot)';
  if (label.length > MAX_LABEL_LENGTH) {
    return `label "${label.slice(0, 20)}…" is ${label.length} characters; a label holds at most ${MAX_LABEL_LENGTH}`;
  }
  if (!/^[a-z0-9-]+$/.test(label)) return `label "${label}" may hold only letters, digits and hyphens`;
  if (label.startsWith('-') || label.endsWith('-'))
    return `label "${label}" cannot start or end with a hyphen`;
  if (label.startsWith('xn--') && domainToASCII(label) === '')
    return `label "${label}" is not valid punycode`;
  return undefined;
}

/**
 * The organisational domain of a (normalized) name: its registrable domain by the Public Suffix
 * List (RFC 7489 §3.2), where receivers look for a DMARC policy when the name has none
 * (`mail.example.co.uk` → `example.co.uk`). The name itself when the list gives nothing.
 *
 * The whole list, its private section included, as registration reads it and as mailauth's
 * DMARC check does (`allowPrivateDomains`, the verifier the tests use): under a private suffix
 * (`mail.foo.eu.org`) the policy is looked up at `foo.eu.org`, never at the suffix `eu.org`,
 * which no one customer owns (issue 36).
 */
export function organisationalDomain(name: string): string {
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}
