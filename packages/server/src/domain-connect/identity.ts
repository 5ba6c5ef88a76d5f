import type { Config } from '../config.js';
import { dkimZoneOrigin } from '../domain/records.js';
import type { DomainConnectIdentity } from './template.js';

/**
 * Who the service is to DNS providers, from configuration. The signing key is published in
 * our own DKIM zone (`<DOMAIN_CONNECT_KEY>.dkim.<DKIM_PROVIDER_HOST>`), which the service
 * serves itself with `DNS_LISTEN`.
 */
export function identityOf(config: Config): DomainConnectIdentity {
  const dc = config.domainConnect;
  return {
    providerId: dc.providerId,
    providerName: dc.providerName,
    serviceId: dc.serviceId,
    serviceName: dc.serviceName,
    pubKeyDomain: dkimZoneOrigin(config.dkimProviderHost),
    keyHost: dc.keyHost,
    redirectDomains: dc.redirectDomains,
    logoUrl: dc.logoUrl,
  };
}
