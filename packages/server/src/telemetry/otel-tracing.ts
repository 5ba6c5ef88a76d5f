/**
 * {@link Tracing} over the OpenTelemetry SDK: spans batched and sent as OTLP/HTTP (JSON) to the
 * configured endpoint. Loaded only by `startTracing`, when an endpoint is set.
 *
 * Nothing is registered process-wide (no global tracer provider or context manager): each
 * server holds its own, so a second server in the same process (the tests) traces on its own,
 * and no library's instrumentation starts reporting into our traces unasked.
 *
 * Incoming `traceparent` headers are not followed: this is a public API, and a caller could
 * otherwise choose our trace ids and, with a parent-based sampler, force every request sampled.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ATTR } from './attributes.js';
import { type Attributes, NO_SPAN, type SpanOptions, type SpanRecorder, type Tracing } from './tracing.js';
import type { SamplerConfig, TracingConfig } from './tracing-config.js';

/** A request's span and the context that holds it. */
interface RequestTrace {
  span: Span;
  context: Context;
}

export class OtelTracing implements Tracing {
  private readonly provider: NodeTracerProvider;
  private readonly tracer: Tracer;
  private readonly contexts = new AsyncLocalStorageContextManager();
  private readonly requests = new WeakMap<IncomingMessage, RequestTrace>();

  constructor(config: TracingConfig & { url: string }, version: string) {
    this.provider = new NodeTracerProvider({
      resource: defaultResource().merge(
        resourceFromAttributes({
          ...config.resourceAttributes,
          [ATTR_SERVICE_NAME]: config.serviceName,
          [ATTR_SERVICE_VERSION]: version,
        }),
      ),
      sampler: samplerOf(config.sampler),
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: config.url, headers: config.headers })),
      ],
    });
    this.tracer = this.provider.getTracer('sending-domain-service', version);
    this.contexts.enable();
  }

  traceRequests(server: Server, requestId: (req: IncomingMessage) => string): void {
    const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const id = requestId(req);
      // the same id for Fastify's logger, the fast path and the response header
      req.headers['x-request-id'] = id;
      const method = req.method ?? 'GET';
      const span = this.tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            [ATTR.HTTP_REQUEST_METHOD]: method,
            [ATTR.URL_SCHEME]: 'http',
            [ATTR.REQUEST_ID]: id,
          },
        },
        ROOT_CONTEXT,
      );
      const context = trace.setSpan(ROOT_CONTEXT, span);
      this.requests.set(req, { span, context });
      // Body chunks and the response's events are emitted from the socket's callbacks, outside
      // this call: bound, their listeners (Fastify's) run in the request's context.
      this.contexts.bind(context, req);
      this.contexts.bind(context, res);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        span.setAttribute(ATTR.HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (!res.writableFinished) {
          span.setAttribute(ATTR.ERROR_TYPE, 'aborted');
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: 'the connection closed before the answer was sent',
          });
        } else if (res.statusCode >= 500) {
          span.setAttribute(ATTR.ERROR_TYPE, String(res.statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        // after the listeners of this event and their promises: Fastify writes the request's
        // "request completed" line then, and that line carries the span's ids while it is open
        setImmediate(() => span.end());
      };
      res.once('finish', end);
      res.once('close', end);
      this.contexts.with(context, () => {
        for (const handler of handlers) handler.call(server, req, res);
      });
    });
  }

  nameRoute(req: IncomingMessage, route: string): void {
    const request = this.requests.get(req);
    if (request === undefined) return;
    // the conventions' server span name: `{method} {route}`
    request.span.updateName(`${req.method} ${route}`);
    request.span.setAttribute(ATTR.HTTP_ROUTE, route);
  }

  withinRequest(req: IncomingMessage, work: () => void): void {
    const request = this.requests.get(req);
    if (request === undefined) work();
    else this.contexts.with(request.context, work);
  }

  async span<T>(name: string, options: SpanOptions, work: (span: SpanRecorder) => Promise<T>): Promise<T> {
    const parent = options.root ? ROOT_CONTEXT : this.openContext();
    // a query outside a trace, or in one not sampled, would record nothing: not even started
    if (options.onlyInTrace && !trace.getSpan(parent)?.isRecording()) return work(NO_SPAN);
    const span = this.tracer.startSpan(
      name,
      {
        kind: options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        ...(options.attributes && { attributes: defined(options.attributes) }),
      },
      parent,
    );
    const recorder: SpanRecorder = {
      set: (attributes) => span.setAttributes(defined(attributes)),
      fail: (type, description) => {
        span.setAttribute(ATTR.ERROR_TYPE, type);
        span.setStatus({
          code: SpanStatusCode.ERROR,
          ...(description !== undefined && { message: description }),
        });
      },
    };
    try {
      return await this.contexts.with(trace.setSpan(parent, span), () => work(recorder));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      recorder.fail(
        typeof code === 'string' ? code : ((error as Error).name ?? 'Error'),
        (error as Error).message,
      );
      throw error;
    } finally {
      span.end();
    }
  }

  logFields(): { trace_id: string; span_id: string } | Record<string, never> {
    const span = trace.getSpan(this.contexts.active());
    // A timer set during a request keeps its context after the request ended: such a line
    // belongs to no trace, and says so by carrying none.
    if (span === undefined || !span.isRecording()) return {};
    const { traceId, spanId } = span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  async shutdown(): Promise<void> {
    this.contexts.disable();
    await this.provider.shutdown();
  }

  /**
   * The running context, unless its span has ended (a timer set during a request keeps that
   * request's context): then the root. A span the sampler left out stays the parent, so that
   * its children are left out with it.
   */
  private openContext(): Context {
    const active = this.contexts.active();
    const span = trace.getSpan(active);
    if (span === undefined) return ROOT_CONTEXT;
    const sampled = (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    return sampled && !span.isRecording() ? ROOT_CONTEXT : active;
  }
}

function defined(attributes: Attributes): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) result[key] = value;
  return result;
}

function samplerOf(config: SamplerConfig): Sampler {
  const root =
    config.kind === 'always_on'
      ? new AlwaysOnSampler()
      : config.kind === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(config.ratio);
  return config.parentBased ? new ParentBasedSampler({ root }) : root;
}
