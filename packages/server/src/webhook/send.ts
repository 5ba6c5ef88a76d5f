/**
 * One delivery attempt: POST the body to the endpoint, connecting only to an address
 * `checkHost` approved (the resolution is pinned through `lookup`), with a time limit, and
 * without following redirects (Node's http client never does).
 */
import http from 'node:http';
import https from 'node:https';
import { type CheckedHost, checkHost, pinnedLookup, type ResolveHost } from '../net/address-guard.js';

export interface AttemptResult {
  /** The HTTP status, or `null` when no answer came. */
  status: number | null;
  durationMs: number;
  /** Why it failed (refused address, timeout, connection error, non-2xx); `null` on success. */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: ResolveHost;
  now?: () => number;
}

/** Bytes of the answer kept for nothing: a receiver's body is read and dropped, up to this. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const done = (status: number | null, error: string | null): AttemptResult => ({
    status,
    durationMs: Math.max(0, now() - started),
    error,
  });
  const target = new URL(url);
  if (target.protocol !== 'https:' && !options.allowPrivate) return done(null, 'refused: not an https URL');
  let checked: CheckedHost | { refused: string };
  try {
    checked = await checkHost(target.hostname, options.allowPrivate, options.resolve);
  } catch (error) {
    return done(null, `could not resolve ${target.hostname}: ${(error as Error).message}`);
  }
  if ('refused' in checked) return done(null, `refused: ${checked.refused}`);
  const lookup = pinnedLookup(checked);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup,
        agent: false,
        timeout: options.timeoutMs,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'sending-domain-service-webhooks/1',
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const status = response.statusCode ?? 0;
        const finish = () =>
          resolve(done(status, status >= 200 && status < 300 ? null : `answered HTTP ${status}`));
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    // One deadline for the whole attempt, not only for idle sockets.
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve(done(null, error.message)));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
