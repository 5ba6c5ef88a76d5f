import { isHexColor } from '../primitives/color.js';
import { VARIABLE_ONLY } from '../primitives/merge-tags.js';
import { safeImageUrl, safeLinkUrl } from '../primitives/url.js';

/**
 * The spec's BrandSettings; every leaf may be null (or absent). Applied to the slash commands
 * (logo, social links, button, footer, signature) and to templates when they load. A bad value
 * (not an http(s) URL, not an email address, not a hex colour) is reported and ignored.
 */
export interface BrandSettings {
  logo?: { light?: string | null; dark?: string | null } | null;
  socialMedia?: Partial<
    Record<'facebook' | 'instagram' | 'twitter' | 'linkedin' | 'youtube' | 'github', string | null>
  > | null;
  brandColor?: string | null;
  unsubscribe?: { text?: string | null; link?: string | null } | null;
  contact?: { email?: string | null; phone?: string | null; address?: string | null } | null;
  signature?: {
    avatar?: string | null;
    name?: string | null;
    position?: string | null;
    company?: string | null;
  } | null;
}

/** The social networks of the spec's BrandSettings, in the order links are shown. */
export const BRAND_NETWORKS = ['facebook', 'instagram', 'twitter', 'linkedin', 'youtube', 'github'] as const;
export type BrandNetwork = (typeof BRAND_NETWORKS)[number];

/**
 * Branding after {@link checkBranding}: every leaf present, each either a checked value or
 * `null` ("not given": the block keeps its own value).
 */
export interface Brand {
  logo: { light: string | null; dark: string | null };
  socialMedia: Record<BrandNetwork, string | null>;
  brandColor: string | null;
  unsubscribe: { text: string | null; link: string | null };
  contact: { email: string | null; phone: string | null; address: string | null };
  signature: { avatar: string | null; name: string | null; position: string | null; company: string | null };
}

/** A branding value that was ignored, and why: `path` is e.g. `branding.contact.email`. */
export interface BrandingProblem {
  path: string;
  reason: string;
}

/** A simple, strict address check: one `@`, a dotted domain, no spaces; at most 254 characters. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
const PHONE = /^\+?[\d\s().-]{5,40}$/;

type Check = (value: unknown) => string | { reason: string };

const text =
  (max: number): Check =>
  (v) =>
    typeof v !== 'string'
      ? { reason: 'expected a string' }
      : v.trim().length > max
        ? { reason: `longer than ${max} characters` }
        : v.trim();
const httpUrl =
  (kind: 'image' | 'link', allowVariable = false): Check =>
  (v) => {
    if (typeof v !== 'string') return { reason: 'expected a URL string' };
    const url = v.trim();
    if (allowVariable && VARIABLE_ONLY.test(url)) return url.replace(/\s+/g, '');
    const safe = kind === 'image' ? safeImageUrl(url) : safeLinkUrl(url);
    return /^https?:/i.test(safe) ? safe : { reason: `expected an http(s) URL, got ${JSON.stringify(v)}` };
  };

const GROUPS: Record<string, Record<string, Check> | Check> = {
  logo: { light: httpUrl('image'), dark: httpUrl('image') },
  socialMedia: Object.fromEntries(BRAND_NETWORKS.map((n) => [n, httpUrl('link')])),
  brandColor: (v) =>
    isHexColor(v)
      ? v.toLowerCase()
      : { reason: `expected a hex colour such as "#4f46e5", got ${JSON.stringify(v)}` },
  unsubscribe: { text: text(80), link: httpUrl('link', true) },
  contact: {
    email: (v) =>
      typeof v === 'string' && v.trim().length <= 254 && EMAIL.test(v.trim())
        ? v.trim()
        : { reason: `expected an email address, got ${JSON.stringify(v)}` },
    phone: (v) =>
      typeof v === 'string' && PHONE.test(v.trim())
        ? v.trim()
        : { reason: `expected a phone number, got ${JSON.stringify(v)}` },
    address: text(500),
  },
  signature: { avatar: httpUrl('image'), name: text(120), position: text(120), company: text(120) },
};

/**
 * Checks the `branding` option (the spec's BrandSettings; every leaf may be null or absent).
 * A bad value (a URL that is not http(s), an invalid email address, a colour that is not hex, a
 * field that does not exist) is reported in `problems` and left out: it is never rendered, and
 * the rest of the branding still applies. Empty strings count as not given.
 */
export function checkBranding(input: BrandSettings | null | undefined | unknown): {
  brand: Brand;
  problems: BrandingProblem[];
} {
  const problems: BrandingProblem[] = [];
  const out: Record<string, unknown> = {};
  const raw = input ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    problems.push({ path: 'branding', reason: 'expected an object or null' });
  const given = (typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const run = (path: string, check: Check, value: unknown): string | null => {
    if (value === null || value === undefined || value === '') return null;
    const result = check(value);
    if (typeof result === 'string') return result === '' ? null : result;
    problems.push({ path, reason: result.reason });
    return null;
  };
  for (const key of Object.keys(given))
    if (!(key in GROUPS)) problems.push({ path: `branding.${key}`, reason: 'not a BrandSettings field' });
  for (const [group, spec] of Object.entries(GROUPS)) {
    const value = given[group];
    if (typeof spec === 'function') {
      out[group] = run(`branding.${group}`, spec, value);
      continue;
    }
    const fields: Record<string, string | null> = {};
    const obj = value ?? {};
    if (typeof obj !== 'object' || Array.isArray(obj))
      problems.push({ path: `branding.${group}`, reason: 'expected an object or null' });
    const entries = (typeof obj === 'object' && !Array.isArray(obj) ? obj : {}) as Record<string, unknown>;
    for (const key of Object.keys(entries))
      if (!(key in spec))
        problems.push({ path: `branding.${group}.${key}`, reason: 'not a BrandSettings field' });
    for (const [key, check] of Object.entries(spec))
      fields[key] = run(`branding.${group}.${key}`, check, entries[key]);
    out[group] = fields;
  }
  return { brand: out as unknown as Brand, problems };
}
