/**
 * GET a DNS provider's Domain Connect JSON. The host comes from the customer's own
 * `_domainconnect` TXT record, so the request is guarded (`net/guarded-get.ts`).
 */
import { type GuardedGetOptions, guardedGet } from '../net/guarded-get.js';

export type FetchJsonOptions = GuardedGetOptions;

/** What came back: the HTTP status and the parsed body (`undefined` when empty or not JSON). */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

export async function fetchJson(url: string, options: FetchJsonOptions): Promise<JsonAnswer> {
  const answer = await guardedGet(url, {
    ...options,
    accept: 'application/json',
    userAgent: 'sending-domain-service-domain-connect/1',
  });
  let body: unknown;
  try {
    body = answer.text === '' ? undefined : JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  return { status: answer.status, body };
}
