/**
 * Tracing's entry point: the OpenTelemetry SDK, its exporter and their dependencies are
 * imported here, on the first call, and only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces
 * endpoint) is set. A process without it never loads them: `startServer` does not call this.
 */
import { readFileSync } from 'node:fs';
import type { Tracing } from './tracing.js';
import type { TracingConfig } from './tracing-config.js';

/** Starts exporting spans to `config.url`; stop with `shutdown()`, which sends what is buffered. */
export async function startTracing(config: TracingConfig & { url: string }): Promise<Tracing> {
  const { OtelTracing } = await import('./otel-tracing.js');
  return new OtelTracing(config, serviceVersion());
}

/** The server package's version, as `service.version`. */
function serviceVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
