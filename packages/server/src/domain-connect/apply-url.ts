/**
 * The signed synchronous apply URL (spec 2.3, "Apply Template URL" and "Digitally Sign
 * Requests"): `{urlSyncUX}/v2/domainTemplates/providers/{providerId}/services/{serviceId}/apply`
 * with `domain`, `host`, the template's variables, `redirect_uri` and `state`, then `sig` and
 * `key` over everything before them.
 */
import type { KeyObject } from 'node:crypto';
import { encodeComponent, encodeQuery } from './query.js';
import { signQuery } from './signature.js';
import type { DomainConnectIdentity } from './template.js';

export interface ApplyRequest {
  /** The provider's `urlSyncUX` (an https URL prefix, maybe with a path). */
  urlSyncUX: string;
  /** The zone (`example.com`) and the name within it (`mail`; `''` at the apex). */
  zone: string;
  host: string;
  variables: readonly (readonly [string, string])[];
  /** The template's groups to apply (`groupId`); all of them when absent. */
  groups?: readonly string[];
  redirectUri?: string;
  state?: string;
}

export function applyUrl(
  identity: DomainConnectIdentity,
  request: ApplyRequest,
  signingKey: KeyObject,
): string {
  const params: [string, string][] = [
    ['domain', request.zone],
    ...(request.host !== '' ? [['host', request.host] as [string, string]] : []),
    ...(request.groups !== undefined ? [['groupId', request.groups.join(',')] as [string, string]] : []),
    ...request.variables.map(([name, value]) => [name, value] as [string, string]),
    ...(request.redirectUri !== undefined ? [['redirect_uri', request.redirectUri] as [string, string]] : []),
    ...(request.state !== undefined ? [['state', request.state] as [string, string]] : []),
  ];
  const query = encodeQuery(params);
  const signature = signQuery(query, signingKey);
  const path = `/v2/domainTemplates/providers/${encodeComponent(identity.providerId)}/services/${encodeComponent(identity.serviceId)}/apply`;
  return `${request.urlSyncUX.replace(/\/+$/, '')}${path}?${query}&sig=${encodeComponent(signature)}&key=${encodeComponent(identity.keyHost)}`;
}
