/**
 * Tracing's configuration, read from OpenTelemetry's standard environment variables (the
 * "General SDK Configuration" and "OTLP Exporter" pages of the OpenTelemetry specification), so
 * that a collector set up for other services works here unchanged. The SDK packages we load do
 * not read them all themselves (the sampler, the resource), and the server's configuration is
 * read from one environment object for tests, so they are read here, once.
 */

/** How spans are sampled: `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`. */
export interface SamplerConfig {
  kind: 'always_on' | 'always_off' | 'traceidratio';
  /** For `traceidratio`: the share of traces kept, 0 to 1. */
  ratio: number;
  /** `parentbased_*`: a span whose parent is sampled is sampled, and one whose parent is not, not. */
  parentBased: boolean;
}

export interface TracingConfig {
  /**
   * Where spans are sent (`…/v1/traces`): `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended. Unset: tracing is off, and none
   * of its packages is loaded.
   */
  url: string | undefined;
  /** `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_EXPORTER_OTLP_TRACES_HEADERS` (the latter wins). */
  headers: Record<string, string>;
  /** `OTEL_SERVICE_NAME`; `sending-domain-service` by default. */
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`: `key=value,…` added to every span's resource. */
  resourceAttributes: Record<string, string>;
  sampler: SamplerConfig;
}

type Env = Record<string, string | undefined>;

const SAMPLERS: Record<string, Omit<SamplerConfig, 'ratio'>> = {
  always_on: { kind: 'always_on', parentBased: false },
  always_off: { kind: 'always_off', parentBased: false },
  traceidratio: { kind: 'traceidratio', parentBased: false },
  parentbased_always_on: { kind: 'always_on', parentBased: true },
  parentbased_always_off: { kind: 'always_off', parentBased: true },
  parentbased_traceidratio: { kind: 'traceidratio', parentBased: true },
};

/**
 * Tracing's settings from `env`; throws a `RangeError` naming the variable at fault (the
 * configuration loader turns it into a `ConfigError`). A header's value is never repeated in
 * a message: it is usually a collector's API key.
 */
export function tracingConfig(env: Env): TracingConfig {
  const url = endpoint(env);
  return {
    // OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn it off whatever the endpoint says
    url: env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || exporter(env) === 'none' ? undefined : url,
    headers: {
      ...keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'sending-domain-service',
    resourceAttributes: keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'),
    sampler: sampler(env),
  };
}

function endpoint(env: Env): string | undefined {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  // Spans go as OTLP/HTTP with JSON bodies, which every collector's HTTP receiver (port 4318)
  // takes whatever protocol its clients were told; gRPC (port 4317) would not understand it.
  if (protocol !== undefined && protocol !== '' && protocol !== 'http/json' && protocol !== 'http/protobuf')
    throw new RangeError(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: spans are sent over OTLP/HTTP (http/json); point the endpoint at the collector's HTTP port (4318)`,
    );
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces).href;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  const url = httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base);
  // the specification: the signal's path is appended to the base URL's path
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/traces`;
  return url.href;
}

function httpUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(
      `${name} must be an http:// or https:// URL such as http://127.0.0.1:4318, got "${raw}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(
      `${name} must be an http:// or https:// URL such as http://127.0.0.1:4318, got "${raw}"`,
    );
  if (url.username || url.password)
    throw new RangeError(`${name} must not hold credentials: send them in OTEL_EXPORTER_OTLP_HEADERS`);
  return url;
}

function exporter(env: Env): 'otlp' | 'none' {
  const raw = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (!raw || raw === 'otlp') return 'otlp';
  if (raw === 'none') return 'none';
  throw new RangeError(`OTEL_TRACES_EXPORTER must be otlp or none, got "${raw}"`);
}

/** `key=value,key=value`, values percent-decoded (the specification's W3C Baggage format). */
function keyValues(env: Env, name: string): Record<string, string> {
  const raw = env[name]?.trim();
  const result: Record<string, string> = {};
  if (!raw) return result;
  for (const [i, pair] of raw.split(',').entries()) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at <= 0 || key === '')
      throw new RangeError(`${name}: entry ${i + 1} is not key=value (entries are separated by commas)`);
    try {
      result[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new RangeError(`${name}: the value of "${key}" is not valid percent-encoding`);
    }
  }
  return result;
}

function sampler(env: Env): SamplerConfig {
  const raw = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const chosen = SAMPLERS[raw];
  if (chosen === undefined)
    throw new RangeError(
      `OTEL_TRACES_SAMPLER must be one of ${Object.keys(SAMPLERS).join(', ')}, got "${raw}"`,
    );
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  let ratio = 1;
  if (chosen.kind === 'traceidratio' && arg) {
    ratio = Number(arg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
      throw new RangeError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${arg}"`);
  }
  return { ...chosen, ratio };
}
