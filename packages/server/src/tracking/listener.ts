/**
 * The tracking listener (`TRACKING_LISTEN`, issue 37): HTTPS for customers' tracking hosts
 * (`track.<domain>`), each with its own certificate from ACME (`certificates.ts`), ordered the
 * first time a verified host is asked for. It answers the tracking routes (`/t/o/…`, `/t/c/…`)
 * of the API's own application and nothing else: a customer's host never serves the API.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { TrackingConfig } from '../config.js';
import { DatabaseCertificateStore, isVerifiedTrackingHost } from '../store/certificate-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { TrackingCertificates } from './certificates.js';

export interface TrackingListener {
  address: { host: string; port: number };
  certificates: TrackingCertificates;
  close(): Promise<void>;
}

export async function startTrackingListener(options: {
  config: TrackingConfig & { listen: NonNullable<TrackingConfig['listen']> };
  store: KyselyStore;
  secretKey: () => Buffer;
  app: FastifyInstance;
  onError: (error: unknown, host: string) => void;
}): Promise<TrackingListener> {
  const { config, store, app } = options;
  const certificates = new TrackingCertificates({
    directoryUrl: config.acmeDirectoryUrl,
    ...(config.acmeEmail && { contactEmail: config.acmeEmail }),
    ...(config.acmeCa && { acmeServerCa: config.acmeCa }),
    store: new DatabaseCertificateStore(store.db, options.secretKey),
    allowHost: (host) => isVerifiedTrackingHost(store.db, host),
    onError: options.onError,
  });
  const server: Server = createServer({ ...certificates.serverOptions() }, (request, response) => {
    if (/^\/t\/[oc]\//.test(request.url ?? '')) return app.routing(request, response);
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
  });
  // a handshake that fails (an unknown host, a scanner) is the client's problem, never ours
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.listen.port, config.listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    address: { host: address, port },
    certificates,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
