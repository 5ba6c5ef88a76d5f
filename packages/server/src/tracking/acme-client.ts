/**
 * acme-client, the ACME (RFC 8555) client the tracking certificates are ordered with: loaded
 * on first use, with the extra CA an ACME server in tests (pebble) needs.
 */
import https from 'node:https';
import tls from 'node:tls';
import type acme from 'acme-client';

/**
 * acme-client sends every request through one shared axios instance, with no per-client agent;
 * one interceptor gives requests to an ACME server with an extra CA (pebble's own self-signed
 * listener in tests) an agent that trusts it, by origin, leaving every other server alone.
 */
const extraTrust = new Map<string, https.Agent>();

export function trustAcmeServer(directoryUrl: string, ca: string): void {
  const agent = new https.Agent({ ca: [...tls.rootCertificates, ca], keepAlive: true });
  extraTrust.set(new URL(directoryUrl).origin, agent);
}

/**
 * acme-client, loaded with the first order: with its X.509 and crypto dependencies it is about
 * 200 modules and a quarter of a second of CPU, which every start (and every test server) paid
 * for certificates that most deployments never order.
 */
let acmeModule: Promise<typeof acme> | undefined;
export function loadAcme(): Promise<typeof acme> {
  acmeModule ??= import('acme-client').then(({ default: loaded }) => {
    loaded.axios.interceptors.request.use((config) => {
      const agent = config.url ? extraTrust.get(new URL(config.url).origin) : undefined;
      if (agent) config.httpsAgent = agent;
      return config;
    });
    return loaded;
  });
  return acmeModule;
}
