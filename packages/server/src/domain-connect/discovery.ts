/**
 * Whether a zone's DNS provider can apply our template through Domain Connect (spec 2.3, "DNS
 * Provider Discovery" and "Query Supported Template"): the `_domainconnect` TXT record of the
 * zone names the provider's Domain Connect host; its settings give the synchronous flow's URL
 * and the API; the API says whether it knows our template.
 */
import type { DomainConnectSetup } from '../domain/model.js';
import type { FetchJsonOptions, JsonAnswer } from './fetch-json.js';
import type { DomainConnectIdentity } from './template.js';

/** What discovery found for a zone: a registration's setup without its apply URL. */
export type Discovery = Omit<DomainConnectSetup, 'applyUrl' | 'zone'>;

export interface DiscoveryDeps {
  /** TXT records at a name (each record's strings), rejecting with `code` ENOTFOUND/ENODATA when none. */
  resolveTxt(name: string): Promise<string[][]>;
  fetchJson(url: string, options?: Partial<FetchJsonOptions>): Promise<JsonAnswer>;
  /** Providers off port 443 are accepted (tests, with `DOMAIN_CONNECT_ALLOW_PRIVATE_URLS`). */
  allowPorts?: boolean;
}

/** Longest provider name kept: it is stored with each domain and shown on a button. */
const MAX_NAME = 100;

/** A provider's text made safe to store and show: no control characters, bounded. */
const cleanName = (text: string) =>
  text
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, MAX_NAME);

/**
 * An https URL prefix as settings give it (`urlSyncUX`, `urlAPI`), or `null`: no query,
 * fragment or credentials (they would break the URLs built on it), port 443 unless allowed.
 */
function urlPrefix(text: string | null, allowPorts: boolean): string | null {
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.search || url.hash || url.username || url.password) return null;
  if (url.port !== '' && !allowPorts) return null;
  return text.replace(/\/+$/, '');
}

const FALLBACK = 'add the records by hand';

/**
 * What the TXT record may hold: a host name with an optional path (Cloudflare's is
 * `api.cloudflare.com/client/v4/dns/domainconnect`); no scheme, no query. A port is accepted
 * too (a provider off port 443, as in tests).
 */
const SERVICE_HOST =
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?(\/[A-Za-z0-9._~\-/]*)?$/i;

export async function discover(
  zone: string,
  identity: DomainConnectIdentity,
  deps: DiscoveryDeps,
): Promise<Discovery> {
  const no = (detail: string, providerName: string | null = null): Discovery => ({
    providerName,
    urlSyncUX: null,
    supported: false,
    detail: `${detail}; ${FALLBACK}`,
  });
  let records: string[][];
  try {
    records = await deps.resolveTxt(`_domainconnect.${zone}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA')
      return no(`the DNS provider of ${zone} offers no Domain Connect (no _domainconnect TXT record)`);
    return no(`could not look up _domainconnect.${zone}`);
  }
  const host = records[0]?.join('').trim().replace(/\/+$/, '') ?? '';
  if (records.length !== 1 || !SERVICE_HOST.test(host) || (/:\d/.test(host) && !deps.allowPorts))
    return no(`_domainconnect.${zone} does not hold one Domain Connect host name`);

  const settings = await deps.fetchJson(`https://${host}/v2/${zone}/settings`).catch((error: Error) => error);
  // The provider's host is the customer's to choose: what went wrong is not told (it could map
  // a network from the inside), only that it did.
  if (settings instanceof Error) return no("the DNS provider's Domain Connect service could not be reached");
  if (settings.status === 404) return no(`the DNS provider's Domain Connect service does not host ${zone}`);
  const body = settings.body as Record<string, unknown> | undefined;
  if (settings.status < 200 || settings.status > 299 || typeof body !== 'object' || body === null)
    return no(`the DNS provider's Domain Connect settings for ${zone} answered HTTP ${settings.status}`);
  const text = (key: string) =>
    typeof body[key] === 'string' && body[key] !== '' ? (body[key] as string) : null;
  const named = text('providerDisplayName') ?? text('providerName');
  const providerName = named === null ? null : cleanName(named) || null;
  const urlAPI = urlPrefix(text('urlAPI'), deps.allowPorts ?? false);
  const urlSyncUX = urlPrefix(text('urlSyncUX'), deps.allowPorts ?? false);
  if (urlAPI === null)
    return no(`the DNS provider's Domain Connect settings for ${zone} name no https API`, providerName);
  if (urlSyncUX === null)
    return no(
      `${providerName ?? 'the DNS provider'} offers no synchronous Domain Connect flow for ${zone}`,
      providerName,
    );

  const templatePath = `/v2/domainTemplates/providers/${encodeURIComponent(identity.providerId)}/services/${encodeURIComponent(identity.serviceId)}`;
  const support = await deps.fetchJson(`${urlAPI}${templatePath}`).catch((error: Error) => error);
  if (support instanceof Error)
    return no(
      `${providerName ?? 'the DNS provider'}'s Domain Connect API could not be reached`,
      providerName,
    );
  if (support.status === 404)
    return no(
      `${providerName ?? 'the DNS provider'} does not support this service's Domain Connect template yet`,
      providerName,
    );
  if (support.status < 200 || support.status > 299)
    return no(
      `${providerName ?? 'the DNS provider'}'s template check answered HTTP ${support.status}`,
      providerName,
    );
  return { providerName, urlSyncUX, supported: true, detail: null };
}
