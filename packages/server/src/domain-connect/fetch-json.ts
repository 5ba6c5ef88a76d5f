/**
 * GET a DNS provider's Domain Connect JSON. The host comes from the customer's own
 * `_domainconnect` TXT record, so the request is guarded as webhooks are (no SSRF): https
 * only, every address of the host public unicast, the connection pinned to a checked address,
 * a time limit on the whole request, and a bounded answer.
 */
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkHost, type ResolveHost } from '../webhook/address-guard.js';

export interface FetchJsonOptions {
  timeoutMs: number;
  /** Skip the address check (tests with a provider on 127.0.0.1). */
  allowPrivate: boolean;
  /** Extra CAs to trust (a private provider, or the test's). */
  ca?: string;
  resolve?: ResolveHost;
}

/** What came back: the HTTP status and the parsed body (`undefined` when empty or not JSON). */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/** GET `url` (https only); rejects with a sentence when no answer could be had. */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<JsonAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'https:') throw new Error(`${url} is not an https URL`);
  const checked = await checkHost(target.hostname, options.allowPrivate, options.resolve);
  if ('refused' in checked) throw new Error(`refused: ${checked.refused}`);
  const pinned = checked.addresses[0]!;
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise<JsonAnswer>((resolve, reject) => {
    const request = https.get(
      target,
      {
        lookup,
        agent: false,
        timeout: options.timeoutMs,
        ...(options.ca && { ca: options.ca }),
        headers: { accept: 'application/json', 'user-agent': 'sending-domain-service-domain-connect/1' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) request.destroy(new Error(`${url} answered more than 64 KiB`));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`${target.host} did not answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('timeout', () =>
      request.destroy(new Error(`${target.host} did not answer within ${options.timeoutMs} ms`)),
    );
    request.on('error', reject);
    request.on('close', () => clearTimeout(deadline));
  });
}
