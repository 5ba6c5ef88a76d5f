import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, when it completes (Fastify's default writes two, and at the
 * request rates we serve the second line is measurable). Headers are never logged, so
 * API keys cannot reach the logs by this path.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      req: { method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
