/**
 * Domain Connect for registrations (issue 23): finds whether a domain's DNS provider can apply
 * our template, and signs the apply URLs that set a domain up without a record typed by hand.
 * Discovery of a zone is remembered for a while, so the status polls that re-check a pending
 * domain do not ask its provider each time.
 */
import type { KeyObject } from 'node:crypto';
import type { DomainConnectSetup, StoredDomain } from '../domain/model.js';
import { relativeName } from '../domain/records.js';
import { applyUrl } from './apply-url.js';
import { type Discovery, type DiscoveryDeps, discover } from './discovery.js';
import { publicKeyRecords } from './signature.js';
import {
  type DomainConnectIdentity,
  serviceTemplate,
  templateGroups,
  templateVariables,
} from './template.js';

export interface DomainConnectOptions {
  identity: DomainConnectIdentity;
  /** The key apply URLs are signed with (the same in every process). */
  signingKey: () => Promise<KeyObject>;
  providerHost: string;
  /** Where tracking hosts' CNAMEs point (`TRACKING_CNAME_TARGET`). */
  trackingTarget: string;
  dmarcPolicy: string;
  deps: DiscoveryDeps;
  /** Longest a zone's discovery may take, all its lookups and requests together. */
  budgetMs: number;
  now?: () => number;
}

/** How long a zone's discovery is reused: a found answer, and a failure to get one. */
const FOUND_MS = 10 * 60_000;
const FAILED_MS = 60_000;
const MAX_REMEMBERED = 10_000;

export class DomainConnect {
  private readonly remembered = new Map<string, { until: number; discovery: Promise<Discovery> }>();
  private readonly now: () => number;

  constructor(private readonly options: DomainConnectOptions) {
    this.now = options.now ?? Date.now;
  }

  get identity(): DomainConnectIdentity {
    return this.options.identity;
  }

  /** The template to submit to the public templates repository. */
  template() {
    return serviceTemplate(this.options.identity);
  }

  /** The TXT records publishing the signing key at `<keyHost>.<pubKeyDomain>`. */
  async publicKeyRecords(): Promise<string[]> {
    return publicKeyRecords(await this.options.signingKey());
  }

  /**
   * Why `redirectUri` may not be where a provider sends the customer back, or `null`: an
   * absolute https URL (http only to localhost, for development) of at most 2,048
   * characters, within `redirectDomains` (the template's `syncRedirectDomain`). Signed, a link
   * is honoured by the provider wherever it points: without the list, any key holder could get
   * our signature on a redirect to anywhere, so only localhost is allowed then.
   */
  redirectProblem(redirectUri: string): string | null {
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      return 'redirect_uri is not an absolute URL';
    }
    if (redirectUri.length > 2048) return 'redirect_uri is longer than 2,048 characters';
    const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
      return 'redirect_uri must be an https URL (http only to localhost)';
    if (url.username || url.password) return 'redirect_uri must not carry a user name or password';
    const allowed = this.options.identity.redirectDomains;
    if (local) return null;
    if (allowed.length === 0)
      return 'redirect_uri may only point to localhost until DOMAIN_CONNECT_REDIRECT_DOMAINS names the domains customers return to';
    if (!allowed.some((d) => url.hostname === d || url.hostname.endsWith(`.${d}`)))
      return `redirect_uri must point into ${allowed.join(', ')} (DOMAIN_CONNECT_REDIRECT_DOMAINS)`;
    return null;
  }

  /** What Domain Connect offers for `domain` in `zone`, with the signed apply URL when supported. */
  async setupFor(domain: StoredDomain, zone: string): Promise<DomainConnectSetup> {
    const discovery = await this.discover(zone);
    return {
      ...discovery,
      applyUrl: discovery.supported ? await this.link(domain, zone, discovery.urlSyncUX!) : null,
      zone,
    };
  }

  /** A signed apply URL for `domain`, with `redirectUri` and `state` when given. */
  async link(
    domain: StoredDomain,
    zone: string,
    urlSyncUX: string,
    redirect: { redirectUri?: string; state?: string } = {},
  ): Promise<string> {
    const tokens = domain.records
      .filter((r) => r.kind === 'dkim')
      .sort((a, b) => a.position - b.position)
      .map((r) => r.token!);
    if (tokens.length !== 3) throw new Error(`${domain.name} has ${tokens.length} DKIM records, not 3`);
    return applyUrl(
      this.options.identity,
      {
        urlSyncUX,
        zone,
        host: domain.name === zone ? '' : relativeName(domain.name, zone),
        groups: templateGroups(
          {
            returnPath: domain.records.find((r) => r.kind === 'return_path')?.label,
            tracking: domain.records.find((r) => r.kind === 'tracking')?.label,
          },
          {
            providerHost: this.options.providerHost,
            target: this.options.trackingTarget,
          },
        ),
        variables: templateVariables({
          tokens: tokens as [string, string, string],
          providerHost: this.options.providerHost,
          dmarcPolicy: this.options.dmarcPolicy,
        }),
        ...redirect,
      },
      await this.options.signingKey(),
    );
  }

  private discover(zone: string): Promise<Discovery> {
    const now = this.now();
    const hit = this.remembered.get(zone);
    if (hit && hit.until > now) return hit.discovery;
    // Never longer than the budget, whatever the provider does: a check waits for this.
    let timer: NodeJS.Timeout | undefined;
    const discovery = Promise.race([
      discover(zone, this.options.identity, this.options.deps),
      new Promise<Discovery>((resolve) => {
        timer = setTimeout(
          () =>
            resolve({
              providerName: null,
              urlSyncUX: null,
              supported: false,
              detail: `the DNS provider of ${zone} took too long to answer for Domain Connect; add the records by hand`,
            }),
          this.options.budgetMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    const entry = { until: now + FOUND_MS, discovery };
    this.remembered.set(zone, entry);
    // an answer that may change soon (no answer, an error) is asked again sooner
    void discovery.then((found) => {
      if (!found.supported && found.providerName === null) entry.until = this.now() + FAILED_MS;
    });
    return discovery;
  }
}
