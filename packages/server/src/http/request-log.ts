import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

/**
 * One log line per request, when it completes (Fastify's default writes two, and at the
 * request rates we serve the second line is measurable). Headers are never logged, so
 * API keys cannot reach the logs by this path.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      req: { method: request.method, url: loggedUrl(request.url) },
      res: { statusCode: reply.statusCode },
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * The URL as logged: a tracking route's token and link are cut (`/t/c/…`), since the log would
 * otherwise keep who opened or clicked what, and when, past every retention setting (issue 37).
 */
export function loggedUrl(url: string): string {
  return url.startsWith('/t/') ? url.replace(/^\/t\/([oc])\/.*/, '/t/$1/…') : url;
}

/** The fields of a "request completed" line. */
export interface CompletedRequest {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  ms: number;
}

/**
 * A writer of the line {@link RequestLog} writes for a request that completed, made here as one
 * string: for the status fast path (status-fast-path.ts), where building it through pino's
 * serialisers cost 1 µs of a poll's 20. It is pino's line byte for byte (pino's own level,
 * time and bindings, then the same fields), looked up once here; the fast path's tests compare
 * the two. A logger that is not a plain pino instance gets the line through `info` as usual.
 */
export function completedRequestLogger(
  log: FastifyBaseLogger,
  /**
   * With tracing on (issue 39), the logger's `mixin` that adds the running span's ids: the line
   * is still made here, those ids where pino's mixin puts them (before the line's own fields).
   */
  traceFields?: () => { trace_id?: string; span_id?: string },
): (line: CompletedRequest) => void {
  const viaInfo = ({ reqId, method, url, statusCode, ms }: CompletedRequest) =>
    log.info({ reqId, req: { method, url: loggedUrl(url) }, res: { statusCode }, ms }, 'request completed');
  const logger = log as FastifyBaseLogger & Partial<pino.Logger> & Record<symbol, unknown>;
  const { streamSym, chindingsSym, lsCacheSym, timeSym, messageKeySym, endSym, mixinSym } = pino.symbols;
  const stream = logger[streamSym] as { write(line: string): unknown } | undefined;
  const bindings = logger[chindingsSym];
  const level = (logger[lsCacheSym] as Record<number, string> | undefined)?.[30];
  const time = logger[timeSym] as (() => string) | undefined;
  const messageKey = logger[messageKeySym];
  const end = logger[endSym];
  const plain =
    stream !== undefined &&
    typeof bindings === 'string' &&
    typeof level === 'string' &&
    typeof time === 'function' &&
    typeof messageKey === 'string' &&
    typeof end === 'string' &&
    (logger[mixinSym] === undefined || traceFields !== undefined) &&
    logger.levels?.values.info === 30 &&
    typeof logger.isLevelEnabled === 'function';
  if (!plain) return viaInfo;
  const message = `${JSON.stringify(messageKey)}:"request completed"${end}`;
  return ({ reqId, method, url, statusCode, ms }) => {
    // The level can change at run time: asked at every line, as pino asks.
    if (!logger.isLevelEnabled!('info')) return;
    const ids = traceFields?.();
    // hexadecimal ids: nothing to escape
    const traced = ids?.trace_id ? `,"trace_id":"${ids.trace_id}","span_id":"${ids.span_id}"` : '';
    stream.write(
      `${level}${time()}${bindings}${traced},"reqId":${JSON.stringify(reqId)},"req":{"method":${JSON.stringify(method)},` +
        `"url":${JSON.stringify(loggedUrl(url))}},"res":{"statusCode":${statusCode}},"ms":${ms},${message}`,
    );
  };
}
