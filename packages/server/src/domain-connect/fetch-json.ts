/**
 * GET a DNS provider's Domain Connect JSON. The host comes from the customer's own
 * `_domainconnect` TXT record, so the request is guarded as webhooks are (no SSRF): https
 * only, every address of the host public unicast, the connection pinned to a checked address,
 * a time limit on the whole request, and a bounded answer.
 */
import type { ClientRequest } from 'node:http';
import https from 'node:https';
import { checkHost, pinnedLookup, type ResolveHost } from '../net/address-guard.js';

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

/**
 * GET `url` (https only, port 443 unless `allowPrivate`); rejects when no whole answer came
 * within `timeoutMs`, counted from the start (the host's lookup included). A connection that
 * ends before its answer is complete rejects too: nothing here can stay pending.
 */
export function fetchJson(url: string, options: FetchJsonOptions): Promise<JsonAnswer> {
  return new Promise<JsonAnswer>((resolve, reject) => {
    let request: ClientRequest | undefined;
    let settled = false;
    const finish = (error: Error | undefined, answer?: JsonAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) {
        request?.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const target = new URL(url);
    const deadline = setTimeout(
      () => finish(new Error(`${target.host} did not answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    if (target.protocol !== 'https:') return finish(new Error(`${url} is not an https URL`));
    if (!options.allowPrivate && target.port !== '' && target.port !== '443')
      return finish(new Error(`${url} is not on port 443`));
    checkHost(target.hostname, options.allowPrivate, options.resolve).then(
      (checked) => {
        if (settled) return;
        if ('refused' in checked) return finish(new Error(`refused: ${checked.refused}`));
        request = https.get(
          target,
          {
            lookup: pinnedLookup(checked),
            agent: false,
            ...(options.ca && { ca: options.ca }),
            headers: { accept: 'application/json', 'user-agent': 'sending-domain-service-domain-connect/1' },
          },
          (response) => {
            const chunks: Buffer[] = [];
            let read = 0;
            response.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > MAX_ANSWER_BYTES) finish(new Error(`${target.host} answered more than 64 KiB`));
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
              finish(undefined, { status: response.statusCode ?? 0, body });
            });
            response.on('error', (error) => finish(error));
            // 'close' after 'end' changes nothing; before it, the answer was cut short
            response.on('close', () => finish(new Error(`${target.host} closed the connection mid-answer`)));
          },
        );
        request.on('error', (error) => finish(error));
        request.on('close', () =>
          finish(new Error(`${target.host} closed the connection without an answer`)),
        );
      },
      (error: Error) => finish(error),
    );
  });
}
