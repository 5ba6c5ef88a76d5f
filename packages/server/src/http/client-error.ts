/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, headers or
 * body not completed in time, a request that is not HTTP) are answered with the same error
 * envelope as every other failure, instead of Fastify's default `{"error", "message",
 * "statusCode"}` body.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type ApiErrorBody, ERROR_CATALOGUE } from '../errors.js';
import { errorEnvelope } from './error-handler.js';

/** Node's limit on the request line and headers together (its default, set explicitly). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** What Node's parser reports, as a catalogue error (Node's own statuses for each). */
export function clientErrorBody(error: NodeJS.ErrnoException): ApiErrorBody {
  switch (error.code) {
    // Request line and headers together; a long query string lands here too.
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'REQUEST_HEADERS_TOO_LARGE',
        message: `the request line and headers are larger than the limit of ${MAX_HEADER_BYTES} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'REQUEST_BODY_TOO_LARGE', message: 'the chunk extensions of the body are too large' };
    // Node reports both the headers timeout and the request timeout with this code.
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'the request was not received in time' };
    default:
      return {
        code: 'REQUEST_MALFORMED',
        message: `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`,
      };
  }
}

/**
 * Fastify's `clientErrorHandler`: writes one complete response and closes the connection,
 * whose parser state cannot be trusted any more.
 */
export function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  // A reset peer has gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const body = clientErrorBody(error);
  const envelope = JSON.stringify(errorEnvelope(body));
  this.log.debug({ code: body.code, parserError: error.code }, 'client error');
  // Like Node's own handler: never write into a response already under way on this socket
  // (a pipelined request that fails while the previous answer is being sent).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status } = ERROR_CATALOGUE[body.code];
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(envelope)}\r\n` +
        'x-content-type-options: nosniff\r\n' +
        'connection: close\r\n' +
        '\r\n' +
        envelope,
    );
  }
  socket.destroy(error);
}
