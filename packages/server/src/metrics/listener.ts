/**
 * The metrics listener (`METRICS_LISTEN`, issue 39): a plain HTTP server of its own, never the
 * API's port, so that the public listener never shows the service's insides and a firewall can
 * keep scrapers and customers apart. It answers `GET /metrics` only; with `METRICS_TOKEN` set a
 * scrape must send `Authorization: Bearer <token>` (Prometheus' `authorization` setting), compared
 * in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { HostPort } from '../config.js';
import type { ServiceMetrics } from './service-metrics.js';

export interface MetricsListener {
  /** The bound address (the real port when the configured one was 0). */
  readonly address: HostPort;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Listen on `listen` and serve `metrics`' exposition at `/metrics`. */
export function startMetricsListener(
  metrics: ServiceMetrics,
  listen: HostPort,
  token: string | undefined,
  onError: (error: unknown) => void,
): Promise<MetricsListener> {
  // hashes compared, so that the comparison's time says nothing of the token's length either
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'not found: the metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'GET /metrics\n');
    if (expected && !timingSafeEqual(digest(req.headers.authorization ?? ''), expected)) {
      res.setHeader('www-authenticate', 'Bearer');
      return answer(res, 401, 'METRICS_TOKEN required: Authorization: Bearer <token>\n');
    }
    metrics.exposition().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        answer(res, 500, 'the metrics could not be read\n');
      },
    );
  });
  // a scraper keeps its connection; closing must not wait for it
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: listen.port, host: listen.host }, () => {
      server.off('error', reject);
      const address = server.address();
      resolve({
        address: {
          host: listen.host,
          port: typeof address === 'object' && address ? address.port : listen.port,
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function answer(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
