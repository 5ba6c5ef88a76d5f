/**
 * Counting API requests (issue 39): `http_requests_total` and `http_request_duration_seconds`,
 * labelled by the route's pattern (`/api/public/webhooks/:id`, never the URL with its id), so a
 * label holds one value per route. A request that matched no route is `unmatched`.
 */
import type { Counter, Histogram } from 'prom-client';
import type { ServiceMetrics } from './service-metrics.js';

/** Record one answered request; `seconds` from its arrival to its answer. */
export type ObserveRequest = (route: string, method: string, statusCode: number, seconds: number) => void;

/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * A recorder that keeps each label combination's child: prom-client hashes the labels on every
 * `labels()` call, and a status poll's whole answer costs only tens of microseconds.
 */
export function requestObserver(metrics: ServiceMetrics): ObserveRequest {
  const children = new Map<
    string,
    {
      count: Counter.Internal;
      duration: Histogram.Internal<'route' | 'method' | 'status_class'>;
    }
  >();
  return (route, method, statusCode, seconds) => {
    const key = `${route} ${method} ${statusCode}`;
    let child = children.get(key);
    if (child === undefined) {
      child = {
        count: metrics.httpRequests.labels({ route, method, code: String(statusCode) }),
        duration: metrics.httpDuration.labels({
          route,
          method,
          status_class: `${Math.floor(statusCode / 100)}xx`,
        }),
      };
      children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  };
}
