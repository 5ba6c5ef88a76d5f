import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A client-supplied request id is kept only if it is short and plain. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the client's `X-Request-Id` when it is short and plain, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
