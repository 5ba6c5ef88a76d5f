/**
 * What the service's code asks of tracing (issue 39): spans around HTTP requests, database
 * queries, DNS lookups, SMTP delivery attempts and webhook deliveries, and the trace's ids for
 * log lines. The OpenTelemetry implementation (`otel-tracing.ts`) is loaded by `startTracing`
 * only when an endpoint is configured; without one the code holds no `Tracing` at all, so a
 * process without tracing loads none of its packages and pays one `undefined` check per point.
 *
 * This file imports nothing at run time: instrumented code depends on it alone.
 */
import type { IncomingMessage, Server } from 'node:http';

/** A span attribute's value: what OTLP carries without arrays. */
export type AttributeValue = string | number | boolean;

/** Attributes of a span, by their OpenTelemetry semantic-convention names (`attributes.ts`). */
export type Attributes = Record<string, AttributeValue | undefined>;

/** The span a piece of work runs in, as that work sees it. */
export interface SpanRecorder {
  /** Add or change attributes (`undefined` values are skipped). */
  set(attributes: Attributes): void;
  /**
   * Mark the span failed: its status is `ERROR` with `description` as the message, and
   * `error.type` is set to `type` (an error code, an HTTP status, an SMTP reply code).
   */
  fail(type: string, description?: string): void;
}

export interface SpanOptions {
  /** `client` for a call out of the process (SQL, DNS, SMTP, HTTP); `internal` by default. */
  kind?: 'client' | 'internal';
  /**
   * Start a trace of its own rather than join the running one: background work (a delivery
   * attempt) that a request only nudged, which would otherwise hang under that request's
   * trace long after it ended.
   */
  root?: boolean;
  /**
   * Record it only inside a span that is still open (a request, a delivery): the database's
   * queries, so that the workers' polling does not send a trace per tick.
   */
  onlyInTrace?: boolean;
  attributes?: Attributes;
}

export interface Tracing {
  /**
   * Puts a server span around each request `server` answers, whoever answers it (Fastify or
   * the status fast path): it wraps the `request` listeners registered so far. `requestId`
   * gives the request's id, which the span carries (`request.id`) and which is written back to
   * the request's `X-Request-Id` header, so the log lines and the response carry the same one.
   */
  traceRequests(server: Server, requestId: (req: IncomingMessage) => string): void;
  /** Names the request's span after its route's pattern (`/api/public/webhooks/:id`). */
  nameRoute(req: IncomingMessage, route: string): void;
  /** Runs `work` in the request's trace (for work queued outside its call chain). */
  withinRequest(req: IncomingMessage, work: () => void): void;
  /**
   * Runs `work` in a new span, a child of the running one unless `options.root`; the span
   * ends when `work` settles, failed if it throws.
   */
  span<T>(name: string, options: SpanOptions, work: (span: SpanRecorder) => Promise<T>): Promise<T>;
  /** The running span's ids, for a log line (`trace_id`, `span_id`); none outside an open span. */
  logFields(): { trace_id: string; span_id: string } | Record<string, never>;
  /** Sends the spans still buffered and stops; later spans are dropped. */
  shutdown(): Promise<void>;
}

/** A recorder that records nothing: the span was not started. */
export const NO_SPAN: SpanRecorder = { set() {}, fail() {} };
