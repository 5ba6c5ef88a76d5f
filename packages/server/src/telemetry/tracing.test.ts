/**
 * Issue 39's traces, read as an operator's collector reads them: a real OTLP/HTTP receiver on a
 * loopback port gets, after real traffic to a running server (both backends), the HTTP request
 * spans by route with their database queries as children, a verification's DNS lookups, a
 * webhook delivery and a send's delivery attempt, and the request's log lines carry its trace.
 * Without an endpoint, the SDK and the exporter are never loaded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as semconv from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { ConfigError, loadConfig } from '../config.js';
import { SANDBOX_HOST } from '../email/sandbox.js';
import {
  type OtlpReceiver,
  type ReceivedSpan,
  SPAN_KIND,
  startOtlpReceiver,
} from '../test-support/otlp-receiver.js';
import { startServerProcess } from '../test-support/processes.js';
import {
  sendToSandbox,
  startTestServer,
  TEST_BACKEND,
  type TestServer,
} from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { ATTR } from './attributes.js';

const DOMAIN = 'traced-example.com';

describe('traces sent to an OTLP/HTTP receiver', () => {
  let receiver: OtlpReceiver;
  let hooks: WebhookReceiver;
  let t: TestServer;
  let key: string;
  /** The registration's and the status poll's answers. */
  let registeredId: string;
  let polledId: string;
  /** The log lines the server wrote for the poll and the registration. */
  let logs: Record<string, unknown>[];

  before(async () => {
    receiver = await startOtlpReceiver();
    hooks = await startWebhookReceiver();
    t = await startTestServer(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=secret%20value',
        OTEL_SERVICE_NAME: 'domains-under-test',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SEND_INTERVAL_MS: '50',
      },
      { logLevel: 'info' },
    );
    ({ key } = await t.createKey());
    const hook = await t.request('POST', '/api/public/webhooks', { key, body: { url: hooks.url } });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    const registered = await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: DOMAIN, domainType: 'Transactional' }] },
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    registeredId = registered.headers.get('x-request-id')!;
    // twice: the first poll may go through Fastify (the key is not cached yet), the second
    // through the status fast path
    await t.request('POST', '/api/public/domain/status', { key, body: { domains: [DOMAIN] } });
    const polled = await t.request('POST', '/api/public/domain/status', { key, body: { domains: [DOMAIN] } });
    assert.equal(polled.status, 200);
    const fastPath = t.server.app.statusFastPath?.answered ?? 0;
    if (fastPath < 1) {
      await t.close();
      assert.fail('the status fast path answered no poll');
    }
    polledId = polled.headers.get('x-request-id')!;
    logs = t
      .logLines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.reqId === registeredId || line.reqId === polledId);
    const sent = await sendToSandbox(t, key);
    await waitUntil('the webhook delivered', () => hooks.received.length > 0);
    await waitUntil('the email sent', async () => {
      const email = await t.request('GET', `/api/public/emails/${sent.body.id}`, { key });
      return email.body.status !== 'queued' && email.body.status !== 'sending';
    });
    await waitUntil('a verification check', async () => {
      const status = await t.request('POST', '/api/public/domain/status', {
        key,
        body: { domains: [DOMAIN] },
      });
      return status.body[0]?.data?.lastCheckedAt != null;
    });
    // closing sends every span still buffered, and returns once the receiver has them
    await t.close();
  });
  after(async () => {
    await hooks?.close();
    await receiver?.close();
  });

  const spansNamed = (name: string | RegExp) =>
    receiver.spans.filter((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  const requestSpan = (id: string): ReceivedSpan => {
    const span = receiver.spans.find(
      (s) => s.kind === SPAN_KIND.SERVER && s.attributes[ATTR.REQUEST_ID] === id,
    );
    assert.ok(span, `a server span for request ${id} among ${receiver.spans.map((s) => s.name).join(', ')}`);
    return span;
  };

  test('an HTTP request span: named by route, with method, route, status and request id', () => {
    const span = requestSpan(registeredId);
    assert.equal(span.name, 'POST /api/public/domain');
    assert.equal(span.parentSpanId, '');
    assert.deepEqual(
      {
        method: span.attributes[ATTR.HTTP_REQUEST_METHOD],
        route: span.attributes[ATTR.HTTP_ROUTE],
        status: span.attributes[ATTR.HTTP_RESPONSE_STATUS_CODE],
      },
      { method: 'POST', route: '/api/public/domain', status: 200 },
    );
    assert.equal(span.resource['service.name'], 'domains-under-test');
  });

  test('the status fast path traced alike', () => {
    const span = requestSpan(polledId);
    assert.equal(span.name, 'POST /api/public/domain/status');
    assert.equal(span.attributes[ATTR.HTTP_ROUTE], '/api/public/domain/status');
    assert.equal(span.attributes[ATTR.HTTP_RESPONSE_STATUS_CODE], 200);
  });

  test("database queries are the request's children, with the SQL but no values", () => {
    const parent = requestSpan(registeredId);
    const queries = receiver.spans.filter(
      (s) => s.parentSpanId === parent.spanId && s.kind === SPAN_KIND.CLIENT,
    );
    assert.ok(queries.length > 0, 'the registration ran queries');
    for (const query of queries) {
      assert.equal(query.traceId, parent.traceId);
      assert.equal(
        query.attributes[ATTR.DB_SYSTEM_NAME],
        TEST_BACKEND === 'postgres' ? 'postgresql' : 'sqlite',
      );
      assert.equal(typeof query.attributes[ATTR.DB_QUERY_TEXT], 'string');
    }
    const insert = queries.find((q) => q.attributes[ATTR.DB_OPERATION_NAME] === 'INSERT');
    assert.ok(insert, `an INSERT among ${queries.map((q) => q.name).join(', ')}`);
    assert.match(insert.name, /^INSERT \w+$/);
    // the domain's name was a parameter: it is nowhere in the statements
    for (const query of receiver.spans.filter((s) => s.attributes[ATTR.DB_QUERY_TEXT] !== undefined))
      assert.doesNotMatch(String(query.attributes[ATTR.DB_QUERY_TEXT]), /traced-example|sandbox\.test/);
  });

  test("the request's log lines carry its trace and span ids", () => {
    for (const id of [registeredId, polledId]) {
      const span = requestSpan(id);
      const completed = logs.find((line) => line.reqId === id && line.msg === 'request completed');
      assert.ok(completed, `the completed line of ${id} among ${JSON.stringify(logs)}`);
      assert.equal(completed.trace_id, span.traceId);
      assert.equal(completed.span_id, span.spanId);
    }
  });

  test("a verification's DNS lookups: name and type", () => {
    const lookups = spansNamed(/^DNS /).filter((s) =>
      String(s.attributes[ATTR.DNS_QUESTION_NAME]).endsWith(DOMAIN),
    );
    assert.ok(lookups.length > 0, `DNS spans among ${receiver.spans.map((s) => s.name).join(', ')}`);
    const lookup = lookups[0]!;
    assert.equal(lookup.kind, SPAN_KIND.CLIENT);
    assert.equal(lookup.name, `DNS ${lookup.attributes[ATTR.DNS_QUESTION_TYPE]}`);
    assert.match(String(lookup.attributes[ATTR.DNS_QUESTION_TYPE]), /^(TXT|CNAME|A|AAAA)$/);
    // nothing answers at the test's resolver address: the lookup failed, and says how
    assert.equal(lookup.status.code, 2);
    assert.equal(typeof lookup.attributes[ATTR.ERROR_TYPE], 'string');
  });

  test('a webhook delivery: a trace of its own, the endpoint host, the status, its queries inside', () => {
    const [delivery] = spansNamed('webhook delivery');
    assert.ok(delivery, 'a webhook delivery span');
    assert.equal(delivery.parentSpanId, '');
    assert.equal(delivery.kind, SPAN_KIND.CLIENT);
    assert.equal(delivery.attributes[ATTR.SERVER_ADDRESS], '127.0.0.1');
    assert.equal(delivery.attributes[ATTR.HTTP_RESPONSE_STATUS_CODE], 204);
    assert.equal(delivery.attributes[ATTR.WEBHOOK_OUTCOME], 'delivered');
    assert.match(String(delivery.attributes[ATTR.WEBHOOK_EVENT_TYPE]), /^domain\./);
    assert.ok(
      receiver.spans.some((s) => s.parentSpanId === delivery.spanId && s.attributes[ATTR.DB_QUERY_TEXT]),
    );
  });

  test("a send's delivery attempt: the MX host and reply code, never the recipient's local part", () => {
    const [attempt] = spansNamed('smtp delivery');
    assert.ok(attempt, 'an SMTP delivery span');
    assert.equal(attempt.parentSpanId, '');
    assert.equal(attempt.attributes[ATTR.SERVER_ADDRESS], SANDBOX_HOST);
    assert.equal(attempt.attributes[ATTR.SMTP_REPLY_CODE], 250);
    assert.equal(attempt.attributes[ATTR.EMAIL_OUTCOME], 'sent');
    assert.equal(attempt.attributes[ATTR.EMAIL_RECIPIENT_DOMAIN], 'sandbox.test');
    assert.ok(
      receiver.spans.some((s) => s.parentSpanId === attempt.spanId && s.attributes[ATTR.DB_QUERY_TEXT]),
    );
  });

  test('no span holds the API key, an address, or a message body', () => {
    const everything = JSON.stringify(receiver.spans);
    assert.ok(!everything.includes(key), 'the API key');
    assert.doesNotMatch(everything, /delivered@|onboarding@|Hello/);
  });

  test("the collector's headers are sent with every export", () => {
    assert.ok(receiver.requests.length > 0);
    for (const headers of receiver.requests) assert.equal(headers['x-collector-key'], 'secret value');
  });
});

test('OTEL_TRACES_SAMPLER=always_off: the server answers, logs without trace ids, and sends no span', async () => {
  const receiver = await startOtlpReceiver();
  const t = await startTestServer(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER: 'always_off' },
    { logLevel: 'info' },
  );
  try {
    const { key } = await t.createKey();
    const registered = await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: DOMAIN, domainType: 'Transactional' }] },
    });
    assert.equal(registered.status, 200);
    const id = registered.headers.get('x-request-id');
    const completed = t
      .logLines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.reqId === id && line.msg === 'request completed');
    assert.ok(completed, 'the request logged');
    assert.equal(completed.trace_id, undefined);
  } finally {
    await t.close();
    await receiver.close();
  }
  assert.deepEqual(receiver.spans, []);
});

test('our attribute names are the semantic conventions’ where they have one', () => {
  const conventions = { ...incubating, ...semconv } as unknown as Record<string, string>;
  const ours = ATTR as Record<string, string>;
  for (const name of [
    'HTTP_REQUEST_METHOD',
    'HTTP_ROUTE',
    'HTTP_RESPONSE_STATUS_CODE',
    'URL_SCHEME',
    'SERVER_ADDRESS',
    'SERVER_PORT',
    'ERROR_TYPE',
    'DB_SYSTEM_NAME',
    'DB_QUERY_TEXT',
    'DB_OPERATION_NAME',
    'DB_COLLECTION_NAME',
    'DNS_QUESTION_NAME',
  ])
    assert.equal(ours[name], conventions[`ATTR_${name}`], name);
  // and ours collide with none of theirs
  const theirs = new Set(
    Object.entries(conventions)
      .filter(([k]) => k.startsWith('ATTR_'))
      .map(([, v]) => v),
  );
  for (const name of [
    'REQUEST_ID',
    'DNS_QUESTION_TYPE',
    'SMTP_REPLY_CODE',
    'EMAIL_OUTCOME',
    'WEBHOOK_OUTCOME',
  ])
    assert.ok(!theirs.has(ours[name]!), `${ours[name]} is a convention's name`);
});

describe('tracing configuration', () => {
  const base = { DATA_DIR: tmpdir() };

  test('off without an endpoint, or when the SDK or the exporter is turned off', () => {
    assert.equal(loadConfig(base).tracing.url, undefined);
    const on = { ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    assert.equal(loadConfig(on).tracing.url, 'http://127.0.0.1:4318/v1/traces');
    assert.equal(loadConfig({ ...on, OTEL_SDK_DISABLED: 'true' }).tracing.url, undefined);
    assert.equal(loadConfig({ ...on, OTEL_TRACES_EXPORTER: 'none' }).tracing.url, undefined);
    // the signal's own endpoint is taken as given
    const traces = { ...base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces' };
    assert.equal(loadConfig(traces).tracing.url, 'https://collector.example/otlp/traces');
    assert.equal(
      loadConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c.example:4318/base/' }).tracing.url,
      'http://c.example:4318/base/v1/traces',
    );
  });

  test('a bad endpoint, sampler or header list is a configuration error naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/],
      [
        { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://x' },
        /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http/,
      ],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://u:p@c:4318' }, /must not hold credentials/],
      [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported/],
      [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER must be one of/],
      [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG/],
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER must be otlp or none/],
      [{ OTEL_EXPORTER_OTLP_HEADERS: 'api-key' }, /OTEL_EXPORTER_OTLP_HEADERS: entry 1 is not key=value/],
    ];
    for (const [env, message] of bad)
      assert.throws(
        () => loadConfig({ ...base, ...env }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, `${JSON.stringify(env)}: ${error}`);
          assert.match(error.message, message);
          return true;
        },
      );
    // a header's value is a secret: never repeated in an error
    assert.throws(
      () => loadConfig({ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'a=ok,b=%E0%A4%A' }),
      (error: Error) => !error.message.includes('E0') && /"b"/.test(error.message),
    );
  });

  test('the sampler and the resource from the standard variables', () => {
    const config = loadConfig({
      ...base,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging,team=mail',
    }).tracing;
    assert.deepEqual(config.sampler, { kind: 'traceidratio', parentBased: true, ratio: 0.25 });
    assert.deepEqual(config.resourceAttributes, { 'deployment.environment.name': 'staging', team: 'mail' });
    assert.equal(config.serviceName, 'sending-domain-service');
  });
});

describe('a server process, and which tracing modules it loads', () => {
  let dir: string;
  let hookLog: string;
  let nodeOptions: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'otel-loads-'));
    hookLog = path.join(dir, 'loaded.txt');
    // A module resolution hook that writes down every module under @opentelemetry or our
    // telemetry folder the process imports.
    writeFileSync(
      path.join(dir, 'hook.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/@opentelemetry\\/|\\/telemetry\\/(start-tracing|otel-tracing)/.test(resolved.url))
    appendFileSync(${JSON.stringify(hookLog)}, resolved.url + '\\n');
  return resolved;
}`,
    );
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hook.mjs')).href)});\n`,
    );
    nodeOptions = `--import ${pathToFileURL(path.join(dir, 'register.mjs')).href}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const loaded = () => {
    try {
      return readFileSync(hookLog, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  test('without an endpoint: neither the SDK nor the exporter is loaded, nothing is sent', async () => {
    const otlp = await startOtlpReceiver();
    const dataDir = mkdtempSync(path.join(dir, 'data-'));
    // the receiver is there, but nothing names it as the endpoint
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      NODE_OPTIONS: nodeOptions,
      LOG_LEVEL: 'info',
    });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      assert.equal((await fetch(`${server.url}/nothing-here`)).status, 404);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      assert.deepEqual(loaded(), []);
      assert.deepEqual(otlp.requests, []);
    } finally {
      server.child.kill('SIGKILL');
      await otlp.close();
    }
  });

  test('with one: they are, and the shutdown sends the spans', async () => {
    const otlp = await startOtlpReceiver();
    const dataDir = mkdtempSync(path.join(dir, 'data-'));
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      NODE_OPTIONS: nodeOptions,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    });
    try {
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      assert.ok(
        loaded().some((url) => url.includes('exporter-trace-otlp-http')),
        loaded().join('\n'),
      );
      assert.ok(
        otlp.spans.some((s) => s.name === 'GET /healthz'),
        JSON.stringify(otlp.spans.map((s) => s.name)),
      );
    } finally {
      server.child.kill('SIGKILL');
      await otlp.close();
    }
  });
});
