/**
 * A real OTLP/HTTP trace receiver for tests, as an OpenTelemetry Collector's HTTP receiver
 * behaves: `POST /v1/traces` with a JSON `ExportTraceServiceRequest` (the OTLP specification's
 * JSON encoding, what `@opentelemetry/exporter-trace-otlp-http` sends) is answered 200 with an
 * empty `ExportTraceServiceResponse`; anything else 404, a body that is not such JSON 400. The
 * spans received are flattened for assertions, attributes as a plain record.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The OTLP span kinds (`SPAN_KIND_*`), by the numbers the protocol sends. */
export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** `0` unset, `1` ok, `2` error. */
  status: { code: number; message?: string };
  /** The resource's attributes (`service.name`). */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:port`: what `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every export request's headers, in order. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
}

interface ExportRequest {
  resourceSpans: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      requests.push(req.headers);
      let body: ExportRequest;
      try {
        if (!String(req.headers['content-type']).startsWith('application/json')) throw new Error('not JSON');
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
        if (!Array.isArray(body.resourceSpans)) throw new Error('no resourceSpans');
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 3, message: (error as Error).message }));
        return;
      }
      for (const resourceSpans of body.resourceSpans) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans)
          for (const span of scope.spans)
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: {
                code: span.status?.code ?? 0,
                ...(span.status?.message && { message: span.status.message }),
              },
              resource,
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) result[key] = value.stringValue;
    else if (value.intValue !== undefined) result[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) result[key] = value.doubleValue;
    else if (value.boolValue !== undefined) result[key] = value.boolValue;
  }
  return result;
}
