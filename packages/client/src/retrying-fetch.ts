/**
 * `fetch` with a timeout per attempt and retries: on 429 and 503 honouring `Retry-After`,
 * and on network errors with exponential backoff. Every API call is safe to repeat
 * (registration is idempotent by design), so all are retried.
 */
import { ServiceApiError } from './errors.js';

export interface RetryOptions {
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** Longest single wait between attempts. */
  maxDelayMs: number;
  fetch: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

const RETRY_STATUSES = new Set([429, 503]);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(options: RetryOptions): typeof fetch {
  const sleep = options.sleep ?? defaultSleep;
  return async (input, init) => {
    const request = new Request(input, init);
    // A body can be read once: keep it to send again on every attempt.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(options.maxDelayMs, 250 * 2 ** attempt);
      let response: Response;
      try {
        response = await options.fetch(
          new Request(request, {
            ...(body !== undefined && { body }),
            signal: AbortSignal.timeout(options.timeoutMs),
          }),
        );
      } catch (error) {
        if (attempt >= options.retries) {
          const timedOut = (error as Error).name === 'TimeoutError';
          throw new ServiceApiError(
            0,
            timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
            timedOut
              ? `no answer within ${options.timeoutMs} ms from ${request.url}`
              : `cannot reach ${request.url}: ${describeFailure(error)}`,
            undefined,
            undefined,
            { cause: error },
          );
        }
        await sleep(backoff);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= options.retries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
      await response.body?.cancel();
      await sleep(Math.min(wait, options.maxDelayMs));
    }
  };
}

/**
 * Why a request never got an answer, with the reason Node's fetch keeps in `cause` ("fetch
 * failed" alone says nothing): `connect ECONNREFUSED 127.0.0.1:3000`, `bad port`, a DNS failure.
 */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    const text = typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
    if (text && !parts.includes(text)) parts.push(text);
  }
  return parts.join(': ') || String(error);
}
