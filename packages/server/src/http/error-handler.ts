/**
 * Every failure becomes one request-level envelope `{data: null, error: {code, message},
 * status}` with the same HTTP status. Nothing a client sends can produce a 5xx: only a
 * real fault does, and then the body carries the request id to report.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ApiErrorBody, ERROR_CATALOGUE, type ErrorCode } from '../errors.js';
import { RenderQueueFullError } from '../render/pool.js';

/** A refused request whose unread body is larger than this closes its connection. */
const UNREAD_BODY_CLOSE_BYTES = 64 * 1024;

/** Fastify's own error codes, mapped into our catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'REQUEST_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'REQUEST_BODY_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'REQUEST_BAD_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'REQUEST_BAD_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'REQUEST_INVALID',
  FST_ERR_BAD_URL: 'REQUEST_INVALID',
  FST_ERR_INVALID_URL: 'REQUEST_INVALID',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  REQUEST_UNSUPPORTED_MEDIA_TYPE: 'send the body as JSON with Content-Type: application/json',
  REQUEST_BAD_JSON: 'the body is not valid JSON',
};

/** An error envelope as sent on the wire. */
export function errorEnvelope(error: ApiErrorBody) {
  return { data: null, error, status: ERROR_CATALOGUE[error.code].status };
}

/** Fastify's error handler for the whole app. */
export function handleError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  const body = toErrorBody(error, request, reply);
  const { status } = ERROR_CATALOGUE[body.code];
  if (error instanceof ApiError && error.retryAfter !== undefined)
    reply.header('retry-after', String(error.retryAfter));
  // A refusal before the body was read (a spent budget, a body over the limit): close the
  // connection rather than keep it, which would read and discard the rest of a 10 MB body on
  // the event loop (issue 33: that alone held the status p99 at seconds under a flood). A
  // chunked body's size is unknown: closed too.
  if (
    request.body === undefined &&
    (Number(request.headers['content-length']) > UNREAD_BODY_CLOSE_BYTES ||
      request.headers['transfer-encoding'] !== undefined)
  )
    reply.header('connection', 'close');
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: body.code }, 'request rejected');
  return reply.code(status).type('application/json; charset=utf-8').send(errorEnvelope(body));
}

function toErrorBody(
  error: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
): ApiErrorBody {
  if (error instanceof RenderQueueFullError) {
    reply.header('retry-after', '1');
    return { code: 'SERVICE_UNAVAILABLE', message: 'the render threads are saturated; retry in a second' };
  }
  if (error instanceof ApiError) {
    return error.details
      ? { code: error.code, message: error.message, details: error.details }
      : { code: error.code, message: error.message };
  }
  if (error.validation) return validationError(error, request);
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped) {
    if (mapped === 'REQUEST_BODY_TOO_LARGE') {
      return {
        code: mapped,
        message: `the body is larger than the limit of ${request.routeOptions.bodyLimit} bytes`,
      };
    }
    return { code: mapped, message: MESSAGES[mapped] ?? error.message };
  }
  if (error.statusCode === 429) {
    const seconds = reply.getHeader('retry-after') ?? 'a few';
    return {
      code: 'RATE_LIMITED',
      message: `too many requests for this API key; retry after ${seconds} seconds`,
    };
  }
  // JSON.parse errors and prototype-poisoning rejections from secure-json-parse arrive as
  // SyntaxErrors with status 400.
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON|prototype/i.test(error.message))) {
    return { code: 'REQUEST_BAD_JSON', message: `the body is not valid JSON: ${error.message}` };
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: 'REQUEST_INVALID', message: error.message };
  }
  return {
    code: 'INTERNAL_ERROR',
    message: 'an unexpected error occurred; quote the request id when reporting it',
    requestId: request.id,
  };
}

function validationError(error: FastifyError, request: FastifyRequest): ApiErrorBody {
  const context = error.validationContext ?? 'body';
  if (context === 'body' && request.body === undefined) {
    return {
      code: 'REQUEST_BAD_JSON',
      message: 'the body is empty; send a JSON object such as {"domains": [...]}',
    };
  }
  const problems = error.validation!;
  // Every top-level list of a body is a batch (domains, templates, ids): one too long is
  // REQUEST_TOO_MANY_ITEMS, whichever route it belongs to.
  const tooMany =
    context === 'body'
      ? problems.find((p) => p.keyword === 'maxItems' && /^\/[^/]+$/.test(p.instancePath))
      : undefined;
  if (tooMany) {
    const limit = (tooMany.params as { limit?: number }).limit;
    return {
      code: 'REQUEST_TOO_MANY_ITEMS',
      message: `${tooMany.instancePath.slice(1)} holds more than ${limit} entries; split the request`,
    };
  }
  return shapeError(problems, context);
}

/**
 * REQUEST_INVALID with a detail per schema problem (the first 20), each path led by `prefix`:
 * the request part, or a batch entry's (`emails[3]`) when the entry fails alone.
 */
export function shapeError(problems: NonNullable<FastifyError['validation']>, prefix: string): ApiErrorBody {
  // A value outside a list of literals fails each literal (`const`) and then their `anyOf`:
  // said once, with the values it may take, instead of once per value.
  const allowed = new Map<string, unknown[]>();
  for (const p of problems) {
    if (p.keyword !== 'const') continue;
    const values = allowed.get(p.instancePath) ?? [];
    values.push((p.params as { allowedValue?: unknown }).allowedValue);
    allowed.set(p.instancePath, values);
  }
  const listed = new Set<string>();
  const details = problems
    .filter((p) => !(allowed.has(p.instancePath) && p.keyword === 'anyOf'))
    .filter((p) => {
      if (p.keyword !== 'const') return true;
      if (listed.has(p.instancePath)) return false;
      listed.add(p.instancePath);
      return true;
    })
    .slice(0, 20)
    .map((p) => {
      const path = `${prefix}${p.instancePath.replace(/\//g, '.')}`;
      const params = p.params as { additionalProperty?: string; missingProperty?: string; format?: string };
      if (params.additionalProperty)
        return { path, message: `unknown property "${params.additionalProperty}"` };
      if (params.missingProperty)
        return { path, message: `missing required property "${params.missingProperty}"` };
      if (p.keyword === 'const') {
        const values = allowed.get(p.instancePath)!.map((v) => JSON.stringify(v));
        return { path, message: `must be one of ${values.join(', ')}` };
      }
      if (p.keyword === 'format' && params.format === 'date-time')
        return { path, message: 'must be an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z' };
      return { path, message: p.message ?? 'is invalid' };
    });
  const first = details[0]!;
  return { code: 'REQUEST_INVALID', message: `${first.path}: ${first.message}`, details };
}
