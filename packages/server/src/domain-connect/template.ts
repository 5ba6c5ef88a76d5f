/**
 * Our Domain Connect service template (spec 2.3, "Template Definition") and the variables a
 * registration fills it with. One template for every customer: three DKIM CNAMEs whose host
 * and target carry the selector tokens, and the DMARC TXT record.
 *
 * Choices, each for the public templates repository's review (Domain-Connect/Templates
 * README, and its linter `dc-template-linter`):
 * - `syncPubKeyDomain` is set, so providers accept only apply URLs we signed: the variables
 *   in `pointsTo` and `data` could otherwise be set by anyone to phish (spec "Risk of
 *   phishing"); `warnPhishing` is then left out (the two exclude each other).
 * - Each variable sits inside fixed text (`%dkimkey1%._domainkey`, `v=DMARC1; %dmarc%`),
 *   never a whole value, and no variable is named after a query parameter.
 * - DMARC replaces only a TXT starting `v=DMARC1` (`txtConflictMatchingMode: Prefix`) and is
 *   `essential: OnApply`: a customer may tighten the policy later without breaking the
 *   template's state at the provider.
 * - Four groups, `dkim`, `dmarc`, `returnpath` (issue 34: `bounces` CNAME into our zone) and
 *   `tracking` (issue 37: `track` CNAME to `track.<providerhost>`, the tracking hosts' default
 *   target); every apply URL names the groups it applies (`groupId`), so a domain registered
 *   without a return path or tracking host (or with a label other than the template's, or with
 *   `TRACKING_CNAME_TARGET` set elsewhere, which a customer adds by hand) never gets one.
 *   Version 2 added `returnpath`, version 3 `tracking`.
 */

import { DEFAULT_RETURN_PATH_LABEL, DEFAULT_TRACKING_LABEL } from '../domain/model.js';
import { RETURN_PATH_ZONE_LABEL } from '../domain/records.js';

/** Who we are to DNS providers; from configuration (`DOMAIN_CONNECT_*`). */
export interface DomainConnectIdentity {
  /** Our `providerId`, usually our domain (`sender.example`); lowercase in the file name. */
  providerId: string;
  providerName: string;
  serviceId: string;
  serviceName: string;
  /** Where our signing key is published: `<keyHost>.<pubKeyDomain>` TXT. */
  pubKeyDomain: string;
  /** The `key` parameter of signed URLs (`_dck1`): the label of the key's TXT records. */
  keyHost: string;
  /** Domains `redirect_uri` may point into (`syncRedirectDomain`); none: any, as URLs are signed. */
  redirectDomains: string[];
  /** Shown on some providers' consent pages. */
  logoUrl: string | undefined;
}

/** The record values a registration applies. */
export interface TemplateValues {
  /** The three selector tokens, in record order. */
  tokens: readonly [string, string, string];
  /** `DKIM_PROVIDER_HOST`: the CNAMEs point at `<token>.dkim.<providerHost>`. */
  providerHost: string;
  /** The DMARC policy as configured (`v=DMARC1; p=none;`). */
  dmarcPolicy: string;
}

/** The template's file name in the public repository: lowercase `providerId.serviceId.json`. */
export const templateFileName = (identity: DomainConnectIdentity): string =>
  `${identity.providerId}.${identity.serviceId}.json`.toLowerCase();

/** The template as the public templates repository takes it. */
export function serviceTemplate(identity: DomainConnectIdentity) {
  return {
    providerId: identity.providerId,
    providerName: identity.providerName,
    serviceId: identity.serviceId,
    serviceName: identity.serviceName,
    version: 3,
    ...(identity.logoUrl && { logoUrl: identity.logoUrl }),
    description:
      'Publishes the three DKIM CNAME records and the DMARC record a domain needs to send mail through this service, and, when asked for, the return-path (bounce) CNAME and the open and click tracking CNAME.',
    variableDescription:
      'dkimkey1, dkimkey2, dkimkey3: the selector tokens issued for the domain; providerhost: the host whose dkim subdomain serves the keys (and the return path) and whose track subdomain serves tracked links; dmarc: the DMARC policy after v=DMARC1;',
    syncPubKeyDomain: identity.pubKeyDomain,
    ...(identity.redirectDomains.length > 0 && { syncRedirectDomain: identity.redirectDomains.join(',') }),
    records: [
      ...[1, 2, 3].map((n) => ({
        groupId: 'dkim',
        type: 'CNAME',
        host: `%dkimkey${n}%._domainkey`,
        pointsTo: `%dkimkey${n}%.dkim.%providerhost%`,
        ttl: 3600,
      })),
      {
        groupId: 'dmarc',
        type: 'TXT',
        host: '_dmarc',
        data: 'v=DMARC1; %dmarc%',
        ttl: 3600,
        txtConflictMatchingMode: 'Prefix',
        txtConflictMatchingPrefix: 'v=DMARC1',
        essential: 'OnApply',
      },
      {
        groupId: 'returnpath',
        type: 'CNAME',
        host: DEFAULT_RETURN_PATH_LABEL,
        pointsTo: `${RETURN_PATH_ZONE_LABEL}.dkim.%providerhost%`,
        ttl: 3600,
      },
      {
        groupId: 'tracking',
        type: 'CNAME',
        host: DEFAULT_TRACKING_LABEL,
        pointsTo: 'track.%providerhost%',
        ttl: 3600,
      },
    ],
  };
}

/** The template's variables for one registration, in a fixed order. */
export function templateVariables(values: TemplateValues): [string, string][] {
  const [dkimkey1, dkimkey2, dkimkey3] = values.tokens;
  return [
    ['dkimkey1', dkimkey1],
    ['dkimkey2', dkimkey2],
    ['dkimkey3', dkimkey3],
    ['providerhost', values.providerHost],
    ['dmarc', values.dmarcPolicy.replace(/^\s*v=DMARC1\s*;\s*/i, '')],
  ];
}

/**
 * The template's groups a registration applies: always DKIM and DMARC, the return path when it
 * has one under the template's label (`bounces`), and the tracking host when it has one under
 * the template's label (`track`) pointing where the template points it (`track.<providerHost>`,
 * the default `TRACKING_CNAME_TARGET`).
 */
export function templateGroups(
  labels: { returnPath: string | null | undefined; tracking: string | null | undefined },
  tracking: { providerHost: string; target: string },
): string[] {
  const templatedTracking =
    labels.tracking === DEFAULT_TRACKING_LABEL && tracking.target === `track.${tracking.providerHost}`;
  return [
    'dkim',
    'dmarc',
    ...(labels.returnPath === DEFAULT_RETURN_PATH_LABEL ? ['returnpath'] : []),
    ...(templatedTracking ? ['tracking'] : []),
  ];
}
