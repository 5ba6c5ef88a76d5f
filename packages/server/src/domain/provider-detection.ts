import { DNS_PROVIDERS, type DnsProvider } from './dns-providers.js';

/**
 * Normalise a name server host name for matching: trimmed, lowercased, without the trailing
 * root dot(s) that DNS answers carry (`ADA.NS.CLOUDFLARE.COM.` → `ada.ns.cloudflare.com`).
 */
function normalise(host: string): string {
  return host.trim().toLowerCase().replace(/\.+$/, '');
}

/**
 * Whether one pattern label matches one host label. A `*` stands for any run of characters
 * inside that single label (possibly empty) and never crosses a dot, so `awsdns-*` matches
 * `awsdns-45` but a pattern can never swallow extra labels.
 */
function labelMatches(pattern: string, label: string): boolean {
  if (!pattern.includes('*')) return pattern === label;
  const escaped = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^.]*')}$`).test(label);
}

/**
 * Whether `host` matches a name server pattern from {@link DnsProvider.nameservers}.
 *
 * The match is a **label-boundary suffix match**: the pattern's labels must match the host's
 * last labels one for one, so a pattern never matches part of a label:
 * `ns.cloudflare.com` matches `ada.ns.cloudflare.com` but not `xns.cloudflare.com` (`xns` ≠
 * `ns`) and not `ada.ns.cloudflare.com.attacker.net` (whose last labels are `attacker.net`).
 *
 * A plain pattern names the provider's name server *domain*, so the host must have at least
 * one label in front of it: `ns.cloudflare.com` does not match the bare `ns.cloudflare.com`.
 * A pattern whose first label holds a `*` (`ns-cloud-*.googledomains.com`) describes the
 * host's own first label, so there the host may have exactly the pattern's length.
 * Labels compare case-insensitively and a trailing dot on either side is ignored.
 */
export function nameserverMatches(host: string, pattern: string): boolean {
  const hostLabels = normalise(host).split('.');
  const patternLabels = normalise(pattern).split('.');
  if (hostLabels.some((l) => l === '') || patternLabels.some((l) => l === '')) return false;
  const minimum = patternLabels[0]!.includes('*') ? patternLabels.length : patternLabels.length + 1;
  if (hostLabels.length < minimum) return false;
  const offset = hostLabels.length - patternLabels.length;
  return patternLabels.every((p, i) => labelMatches(p, hostLabels[offset + i]!));
}

/**
 * The provider whose name server patterns one host name matches, or `undefined`. When more
 * than one entry would match, the first in `providers` wins, so list order breaks ties.
 */
function providerOf(host: string, providers: readonly DnsProvider[]): DnsProvider | undefined {
  if (providers !== DNS_PROVIDERS) return matchProvider(host, providers);
  let known = catalogueMatches.get(host);
  if (known === undefined) {
    known = matchProvider(host, providers) ?? null;
    if (catalogueMatches.size >= MAX_REMEMBERED_HOSTS) catalogueMatches.clear();
    catalogueMatches.set(host, known);
  }
  return known ?? undefined;
}

function matchProvider(host: string, providers: readonly DnsProvider[]): DnsProvider | undefined {
  return providers.find((p) => p.nameservers.some((pattern) => nameserverMatches(host, pattern)));
}

/**
 * The catalogue's answer per name server host. Every check of every domain names its zone's
 * servers, and a platform's million domains sit on a few hundred hosts: matching each against
 * every pattern again was a twentieth of a check's CPU. Cleared whole when full, so the bound
 * holds against a stream of one-off hosts.
 */
const catalogueMatches = new Map<string, DnsProvider | null>();
const MAX_REMEMBERED_HOSTS = 10_000;

/**
 * The DNS providers serving the customer's zone, from its NS host names (as returned by an NS
 * lookup; pure, no I/O): every known provider at least one name belongs to, the one with the
 * most names first.
 *
 * Each name is matched against every provider's {@link DnsProvider.nameservers} patterns with
 * {@link nameserverMatches} (case-insensitive, trailing dot ignored, whole labels only).
 * Duplicate names count once, so a repeated answer cannot outvote a different name. Several
 * providers serve one zone in a multi-provider setup (one Cloudflare and two Route 53 names:
 * Route 53, then Cloudflare), where the customer enters each record at every one of them, and
 * during a move from one provider to another. Providers with as many names as each other keep
 * their order in `providers`, because there is no better evidence to order them. Names no
 * provider matches are left out; none matching gives an empty list.
 *
 * @param nameservers the zone's NS host names, in any case, with or without a trailing dot
 * @param providers the catalogue to match against; defaults to {@link DNS_PROVIDERS} and is a
 *   parameter only so tests can pass a small fixture
 * @returns the providers, most names first; empty when no name server belongs to a known one
 */
export function identifyProviders(
  nameservers: readonly string[],
  providers: readonly DnsProvider[] = DNS_PROVIDERS,
): DnsProvider[] {
  const counts = new Map<DnsProvider, number>();
  const seen = new Set<string>();
  for (const raw of nameservers) {
    const host = normalise(raw);
    if (host === '' || seen.has(host)) continue;
    seen.add(host);
    const provider = providerOf(host, providers);
    if (provider) counts.set(provider, (counts.get(provider) ?? 0) + 1);
  }
  // `Array.prototype.sort` is stable: equal counts keep the catalogue's order.
  return providers.filter((p) => counts.has(p)).sort((a, b) => counts.get(b)! - counts.get(a)!);
}

/**
 * The provider most of the zone's NS host names belong to: the first of
 * {@link identifyProviders} — the majority in a clean delegation, and in a mixed one (a
 * multi-provider zone, or a move in progress) still the provider most names point at, an
 * exact tie going to the one listed first in `providers`.
 *
 * @returns the provider, or `null` when no name server belongs to a known provider
 */
export function identifyProvider(
  nameservers: readonly string[],
  providers: readonly DnsProvider[] = DNS_PROVIDERS,
): DnsProvider | null {
  return identifyProviders(nameservers, providers)[0] ?? null;
}
