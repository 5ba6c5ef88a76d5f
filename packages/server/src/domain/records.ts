/**
 * The DNS records a customer publishes for a registration, in the exact forms of the spec.
 * Pure: the provider host and the DMARC policy come from configuration.
 */

import type { DkimStatusView, DnsRecordView, DomainView } from '../views.js';
import type { DnsProvider } from './dns-providers.js';
import { organisationalDomain } from './domain-name.js';
import type { StoredDomain, StoredRecord } from './model.js';
import { providersById, providersHints } from './provider-hints.js';
import { NO_SCHEDULED_CHECK } from './verification.js';

export type { DnsRecordView, DomainView };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function diagnostics(record: StoredRecord) {
  return {
    reason: record.reason,
    found: record.found,
    detail: record.detail,
    lastCheckedAt: iso(record.checkedAt),
  };
}

export interface RecordSettings {
  /** `<token>.dkim.<providerHost>` is the CNAME target. */
  providerHost: string;
  /** Where tracking hosts' CNAMEs point (`TRACKING_CNAME_TARGET`); `track.<providerHost>` by default. */
  trackingTarget?: string;
  /** DMARC policy without quotes, e.g. `v=DMARC1; p=none;`. */
  dmarcPolicy: string;
  /** `false`: Domain Connect is off, so what a past check found is not shown. */
  domainConnect?: boolean;
}

/**
 * The zone a customer edits for `domain`: the one DNS showed at the last check (a delegated
 * `mail.example.com` is its own zone), else its registrable domain by the Public Suffix List
 * (`example.com` for `mail.example.com` and for `example.com` itself), the zone DNS providers
 * give their customers. A zone DNS reports above the registrable domain is not one a customer
 * edits (`co.uk` for an unregistered `example.co.uk`): the registrable domain stands.
 */
export function customerZone(domain: string, found: string | null = null): string {
  const registrable = organisationalDomain(domain);
  const withinRegistrable = found === registrable || found?.endsWith(`.${registrable}`);
  return found !== null && withinRegistrable && (domain === found || domain.endsWith(`.${found}`))
    ? found
    : registrable;
}

/**
 * `fqdn` relative to `zone`, as DNS panels take names: `<t>._domainkey.mail` for
 * `mail.example.com` in `example.com` (the spec's case), `<t>._domainkey` for the apex,
 * `<t>._domainkey.a.b` for `a.b.example.com`.
 */
export function relativeName(fqdn: string, zone: string): string {
  return fqdn.endsWith(`.${zone}`) ? fqdn.slice(0, -(zone.length + 1)) : fqdn;
}

/** The full name of the DKIM CNAME for a selector token. */
export const dkimRecordName = (token: string, domain: string): string => `${token}._domainkey.${domain}`;
/** The apex of the hosted DKIM zone the service serves: `dkim.<DKIM_PROVIDER_HOST>`. */
export const dkimZoneOrigin = (providerHost: string): string => `dkim.${providerHost}`;
/** The CNAME target of a selector token, in the hosted DKIM zone. */
export const dkimTarget = (token: string, providerHost: string): string =>
  `${token}.${dkimZoneOrigin(providerHost)}`;
/** The full name of the DMARC TXT record. */
export const dmarcRecordName = (domain: string): string => `_dmarc.${domain}`;
/**
 * Where every return-path domain's CNAME points (issue 34): one name of our zone holding the MX
 * (`INBOUND_MX_HOST`) and the SPF record (`SENDING_IPS`), so a change of either reaches every
 * customer at once, as Postmark's and SendGrid's CNAMEs do.
 */
export const returnPathTarget = (providerHost: string): string =>
  `${RETURN_PATH_ZONE_LABEL}.${dkimZoneOrigin(providerHost)}`;
/** The label of {@link returnPathTarget} in our zone (never a selector token: those are 32 characters). */
export const RETURN_PATH_ZONE_LABEL = 'return-path';
/**
 * Where every tracking host's CNAME points (issue 37): the operator's name for the tracking
 * listener (`TRACKING_LISTEN`), `track.<DKIM_PROVIDER_HOST>` unless `TRACKING_CNAME_TARGET` says
 * otherwise, as SendGrid's link-branding CNAMEs all name one host of theirs.
 */
export const trackingTarget = (settings: Pick<RecordSettings, 'providerHost' | 'trackingTarget'>): string =>
  settings.trackingTarget ?? `track.${settings.providerHost}`;
/** The full name of a stored record of `domain`. */
export const recordFqdn = (
  domain: string,
  record: Pick<StoredRecord, 'kind' | 'token'> & { label?: string | null },
): string =>
  record.kind === 'dkim'
    ? dkimRecordName(record.token!, domain)
    : record.kind === 'return_path' || record.kind === 'tracking'
      ? `${record.label}.${domain}`
      : dmarcRecordName(domain);

/** The view of one stored record; `providers` (those serving the zone) add their hints. */
export function recordView(
  domain: string,
  record: StoredRecord,
  settings: RecordSettings,
  zone = customerZone(domain),
  providers: readonly DnsProvider[] = [],
): DnsRecordView {
  const fqdn = recordFqdn(domain, record);
  const name = relativeName(fqdn, zone);
  const entered =
    record.kind === 'dkim'
      ? {
          type: 'CNAME' as const,
          value: dkimTarget(record.token!, settings.providerHost),
          record: record.token!,
        }
      : record.kind === 'return_path'
        ? {
            type: 'CNAME' as const,
            value: returnPathTarget(settings.providerHost),
            record: returnPathTarget(settings.providerHost),
          }
        : record.kind === 'tracking'
          ? { type: 'CNAME' as const, value: trackingTarget(settings), record: trackingTarget(settings) }
          : { type: 'TXT' as const, value: `"${settings.dmarcPolicy}"`, record: `"${settings.dmarcPolicy}"` };
  return {
    name,
    type: entered.type,
    value: entered.value,
    status: record.status,
    record: entered.record,
    ttl: 'Auto',
    fqdn,
    zone,
    ...diagnostics(record),
    providerHints: providersHints(providers, { ...entered, name, fqdn, zone }),
  };
}

/** Present a stored registration as the spec's Domain result, records in spec order. */
export function domainView(domain: StoredDomain, settings: RecordSettings): DomainView {
  // Stored domains are never changed in place (a change makes a new object), and the store's
  // cache hands the same object to every poll: its view is built once.
  const memo = views.get(domain);
  if (memo?.settings === settings) return memo.view;
  const view = buildDomainView(domain, settings);
  // Frozen, so what reads it may keep what it derives (the HTTP layer keeps its JSON).
  for (const record of view.records) Object.freeze(record);
  Object.freeze(view.records);
  views.set(domain, { settings, view: Object.freeze(view) });
  return view;
}

const views = new WeakMap<StoredDomain, { settings: RecordSettings; view: DomainView }>();

function buildDomainView(domain: StoredDomain, settings: RecordSettings): DomainView {
  const records = [...domain.records].sort((a, b) => a.position - b.position);
  const zone = customerZone(domain.name, domain.zone);
  const providers = providersById(storedProviders(domain));
  const provider = (p: DnsProvider) => ({ id: p.id, name: p.name, docs: p.docs ?? null });
  return {
    domain: domain.name,
    status: domain.status,
    records: records.map((r) => recordView(domain.name, r, settings, zone, providers)),
    zoneConfirmed: domain.zone !== null,
    type: domain.type,
    lastCheckedAt: iso(domain.lastCheckedAt),
    nextCheckAt:
      domain.nextCheckAt === NO_SCHEDULED_CHECK ? null : new Date(domain.nextCheckAt).toISOString(),
    provider: providers[0] ? provider(providers[0]) : null,
    providers: providers.map(provider),
    domainConnect:
      settings.domainConnect === false || domain.domainConnect === null
        ? null
        : {
            supported: domain.domainConnect.supported,
            providerName: domain.domainConnect.providerName,
            url: domain.domainConnect.applyUrl,
            detail: domain.domainConnect.detail,
          },
    dkim: dkimStatus(domain, records),
  };
}

/**
 * The provider ids stored with `domain`. A webhook event queued before migration 0026 keeps a
 * snapshot with one `dnsProvider` (or `null`) instead of the list, and is delivered with it.
 */
function storedProviders(domain: StoredDomain): string[] {
  if (domain.dnsProviders !== undefined) return domain.dnsProviders;
  const { dnsProvider } = domain as { dnsProvider?: string | null };
  return dnsProvider ? [dnsProvider] : [];
}

/** Where the domain's DKIM keys stand in rotation. */
function dkimStatus(domain: StoredDomain, records: StoredRecord[]): DkimStatusView {
  // A webhook event written before rotation existed keeps a snapshot without it (and records
  // without `key`): it is delivered as "not known yet".
  const rotation = domain.dkimRotation ?? { rotatedAt: null, nextRotationAt: null, requestedAt: null };
  return {
    selectors: records
      .filter((r) => r.kind === 'dkim')
      .map((r) => ({
        selector: r.token!,
        state: r.key?.state ?? null,
        keyCreatedAt: iso(r.key?.createdAt ?? null),
        since: iso(r.key?.since ?? null),
      })),
    rotatedAt: iso(rotation.rotatedAt),
    nextRotationAt: iso(rotation.nextRotationAt),
    rotationRequestedAt: iso(rotation.requestedAt),
  };
}
