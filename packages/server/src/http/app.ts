/**
 * The HTTP application: Fastify with our schemas, error envelopes, authentication, rate
 * limits, OpenAPI document and API reference. No I/O happens here beyond what the
 * injected store and services do, so tests build it against a real database file.
 */
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { EMAIL_SCHEMAS } from '../email/schemas.js';
import { requestObserver, UNMATCHED_ROUTE } from '../metrics/http-metrics.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { ApiKeyService } from '../service/api-key-service.js';
import type { DomainService } from '../service/domain-service.js';
import type { EmailService } from '../service/email-service.js';
import type { ImageService } from '../service/image-service.js';
import { LocalDnsService } from '../service/local-dns-service.js';
import type { SandboxService } from '../service/sandbox-service.js';
import type { TemplateService } from '../service/template-service.js';
import type { WebhookService } from '../service/webhook-service.js';
import type { Store } from '../store/store.js';
import type { Tracing } from '../telemetry/tracing.js';
import { WEBHOOK_SCHEMAS } from '../webhook/schemas.js';
import { handleClientError, MAX_HEADER_BYTES } from './client-error.js';
import { errorEnvelope, handleError } from './error-handler.js';
import { buildLazyValidator } from './lazy-validation.js';
import { batchedStdout } from './log-destination.js';
import { protectedApi, rateLimitPerKey } from './protected-api.js';
import { Readiness } from './readiness.js';
import { requestId } from './request-id.js';
import { RequestLog } from './request-log.js';
import { responseJson } from './response-json.js';
import { docsRoutes } from './routes/docs.js';
import { domainRoutes } from './routes/domains.js';
import { emailRoutes } from './routes/emails.js';
import { healthRoutes } from './routes/health.js';
import { IMAGE_SCHEMAS, imageFileRoutes, imageUploadRoutes } from './routes/images.js';
import { KEY_SCHEMAS, keyRoutes } from './routes/keys.js';
import { localDnsRoutes } from './routes/local-dns.js';
import { pageRoutes } from './routes/pages.js';
import { SANDBOX_SCHEMAS, sandboxRoutes } from './routes/sandbox.js';
import { TEMPLATE_SCHEMAS, templateRoutes } from './routes/templates.js';
import { trackingRoutes } from './routes/tracking.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';
import { webhookEventsOpenApi, webhookRoutes } from './routes/webhooks.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { SharedRateLimit } from './shared-rate-limit.js';
import { installStatusFastPath, STATUS_PATH } from './status-fast-path.js';

export interface AppDependencies {
  config: Config;
  store: Store;
  domains: DomainService;
  templates: TemplateService;
  images: ImageService;
  /** Webhook endpoints (issue 20); absent: no webhook routes. */
  webhooks?: WebhookService;
  /** Sending (issue 21); absent: no sending routes. */
  emails?: EmailService;
  /** The development sandbox's capture inbox (issue 40); absent (production mode): no sandbox routes. */
  sandbox?: SandboxService;
  /** Publishing in the development local DNS (issue 40); its routes answer `LOCAL_DNS_OFF` when it is off. */
  localDns?: LocalDnsService;
  /** Per-key rate limits counted in Redis (`REDIS_URL`); absent: in this process. */
  sharedRateLimit?: SharedRateLimit;
  /** What `/readyz` asks; the database is added here, the server adds what it starts after. */
  readiness?: Readiness;
  /** Where requests are counted (`METRICS_LISTEN`, issue 39); absent: not counted. */
  metrics?: ServiceMetrics;
  /** Where requests are traced (`OTEL_EXPORTER_OTLP_ENDPOINT`, issue 39); absent: not traced. */
  tracing?: Tracing;
  /** Pino options, or `false` for no logs (tests). */
  logger?: FastifyServerOptions['logger'];
}

/** Build the application (not yet listening). */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, store, tracing } = deps;
  const logger = deps.logger ?? {
    level: config.logLevel,
    // Keys travel in Authorization, and no line we log holds a header: a `req` field passes
    // Fastify's request serialiser, which keeps method, URL and addresses only (a test
    // checks a key never reaches the logs). Hence no `redact`: it had nothing to remove,
    // and walking every line's `req` for it cost 1.2 % of a status poll.
    // Batched: see log-destination.ts for what a write per line cost.
    stream: batchedStdout(),
  };
  const app = Fastify({
    // traced, each line written in a span carries its `trace_id` and `span_id`
    logger: tracing && typeof logger === 'object' ? { ...logger, mixin: () => tracing.logFields() } : logger,
    bodyLimit: config.limits.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    logController: new RequestLog(),
    genReqId: requestId,
    // request schemas compiled on first use, by one ajv per process (lazy-validation.ts)
    schemaController: { compilersFactory: { buildValidator: buildLazyValidator } },
    ajv: {
      // Strict validation: no silent coercion of types, no silent removal of unknown
      // properties, and every problem reported at once.
      customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: false },
    },
    // A slow or stalled client never holds a socket for long: its headers, its whole
    // request and its idle keep-alive time are bounded (Node answers 408 and closes).
    requestTimeout: config.limits.requestTimeoutMs,
    keepAliveTimeout: config.limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.limits.headersTimeoutMs,
      // Node enforces both timeouts on this timer (30 s by default): run it often enough
      // that a short limit holds.
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(30_000, Math.floor(config.limits.headersTimeoutMs / 4)),
      ),
      // Node's default: larger headers get 431 before any of our code runs.
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    // What Node's parser refuses (431, 408, malformed HTTP) gets our envelope too.
    clientErrorHandler: handleClientError,
    return503OnClosing: true,
  });

  app.setErrorHandler(handleError);
  // Responses are built by our own code in the documented shapes, so no schema-driven
  // serialiser: it re-validated every nullable field (`anyOf`) with ajv, formats included,
  // which cost more than the rest of a status poll. See response-json.ts. Its answer is bytes:
  // Fastify's types say a serialiser returns a string, but it sends a Buffer as it is (as it
  // does one from an onSend hook).
  app.setSerializerCompiler(() => responseJson as unknown as (data: unknown) => string);
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(
      errorEnvelope({
        code: 'ROUTE_NOT_FOUND',
        message: `no route for ${request.method} ${request.url.split('?')[0]}`,
      }),
    );
  });
  // Only JSON bodies are accepted: without this Fastify would parse text/plain too.
  app.removeContentTypeParser('text/plain');
  const observe = deps.metrics && requestObserver(deps.metrics);
  if (observe) {
    app.addHook('onResponse', (request, reply, done) => {
      observe(
        request.routeOptions.url ?? UNMATCHED_ROUTE,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
  if (tracing) {
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url;
      if (route !== undefined) tracing.nameRoute(request.raw, route);
      done();
    });
  }
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    done();
  });
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  for (const schema of [
    ...TEMPLATE_SCHEMAS,
    ...IMAGE_SCHEMAS,
    ...WEBHOOK_SCHEMAS,
    ...EMAIL_SCHEMAS,
    ...SANDBOX_SCHEMAS,
    ...KEY_SCHEMAS,
  ])
    app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sending-domain service',
        version: '1.0.0',
        description:
          'Register email sending domains, get the DKIM and DMARC records to publish, and poll until DNS shows them verified. ' +
          'Every request carries `Authorization: <API_KEY>` (the key alone). ' +
          'See also the [email editor playground](/) and the [domains dashboard](/domains).',
      },
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The API key alone, no scheme.',
          },
        },
      },
      tags: [
        { name: 'Domains', description: 'Sending-domain registrations' },
        { name: 'Sending', description: 'Mail from verified domains' },
        { name: 'Operations' },
      ],
      // The event bodies webhook endpoints receive (issue 20).
      webhooks: webhookEventsOpenApi(),
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  // The API reference, rendered on the server from this document (issue 40; see
  // reference/reference-page.ts for why it is no longer Swagger UI).
  await app.register(docsRoutes, { document: () => app.swagger() });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // One rate limiter, shared by every protected route group below.
  const requestCounts = await rateLimitPerKey(app, config.limits, deps.sharedRateLimit);
  const readiness = deps.readiness ?? new Readiness();
  readiness.add({
    name: 'database',
    required: true,
    check: async () => {
      try {
        await store.ping();
      } catch (error) {
        throw new Error(`the ${store.kind} database does not answer: ${(error as Error).message}`);
      }
    },
  });
  await app.register(healthRoutes, { readiness });
  await app.register(pageRoutes);

  await app.register(
    async (api) => {
      await protectedApi(api, { store, scope: 'domains' });
      await api.register(domainRoutes, { service: deps.domains, maxItems: config.limits.maxItemsPerRequest });
      await api.register(localDnsRoutes, {
        service: deps.localDns ?? new LocalDnsService({ localDns: undefined, domains: deps.domains }),
      });
    },
    { prefix: '/api/public' },
  );

  // Browser-facing routes: scoped keys (templates, images), CORS open only on them.
  await app.register(templateRoutes, {
    prefix: '/api/public/templates',
    config,
    store,
    service: deps.templates,
  });
  await app.register(imageUploadRoutes, {
    prefix: '/api/public/images',
    config,
    store,
    service: deps.images,
  });
  await app.register(imageFileRoutes, { files: deps.images.files });

  // Webhook endpoints (issue 20): full keys only, no CORS.
  if (deps.webhooks) {
    await app.register(webhookRoutes, { prefix: '/api/public/webhooks', store, service: deps.webhooks });
  }

  // Sending (issue 21): full keys only, no CORS; unsubscribe links are public.
  if (deps.emails) {
    await app.register(emailRoutes, {
      prefix: '/api/public',
      store,
      service: deps.emails,
      // JSON escaping can double the message's bytes; the composed size is checked after.
      bodyLimit: 2 * config.sending.maxMessageBytes,
      composeBudget: config.sending.composeBudget,
      windowMs: config.limits.rateLimitWindowMs,
    });
    await app.register(unsubscribeRoutes, { service: deps.emails });
    await app.register(trackingRoutes, { service: deps.emails });
  }
  // An account's API keys (issue 40): full keys only, no CORS.
  await app.register(keyRoutes, { prefix: '/api/public/keys', store, service: new ApiKeyService(store) });
  if (deps.sandbox) {
    await app.register(sandboxRoutes, { prefix: '/api/public/sandbox', store, service: deps.sandbox });
  }

  // Status polls are answered in front of Fastify when everything they need is at hand.
  installStatusFastPath(app, {
    store,
    domains: deps.domains,
    counts: requestCounts,
    failures: app.authFailures,
    maxItems: config.limits.maxItemsPerRequest,
    bodyLimit: config.limits.bodyLimitBytes,
    ...(observe && { observe }),
    ...(tracing && {
      within: (req, answer) => {
        tracing.nameRoute(req, STATUS_PATH);
        tracing.withinRequest(req, answer);
      },
      traceFields: () => tracing.logFields(),
    }),
  });
  // outermost, so that the fast path's polls are traced too
  tracing?.traceRequests(app.server, requestId);
  return app;
}
