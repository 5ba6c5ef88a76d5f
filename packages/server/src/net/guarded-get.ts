/**
 * GET over https from a host someone else names (a DNS provider's Domain Connect endpoints, a
 * recipient domain's MTA-STS policy), guarded as webhooks are (no SSRF): https only, every
 * address of the host public unicast, the connection pinned to a checked address, a time limit
 * on the whole request, a bounded answer, and redirects never followed.
 */
import type { ClientRequest } from 'node:http';
import https from 'node:https';
import { checkHost, pinnedLookup, type ResolveHost } from './address-guard.js';

export interface GuardedGetOptions {
  timeoutMs: number;
  /** Skip the address check (tests with a provider on 127.0.0.1). */
  allowPrivate: boolean;
  /** Extra CAs to trust (a private provider, or the test's). */
  ca?: string;
  resolve?: ResolveHost;
}

/** What came back: the HTTP status, the media type (parameters cut) and the body as text. */
export interface GuardedAnswer {
  status: number;
  contentType: string;
  text: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * GET `url` (https only, port 443 unless `allowPrivate`); rejects when no whole answer came
 * within `timeoutMs`, counted from the start (the host's lookup included). A connection that
 * ends before its answer is complete rejects too: nothing here can stay pending.
 */
export function guardedGet(
  url: string,
  options: GuardedGetOptions & { accept: string; userAgent: string },
): Promise<GuardedAnswer> {
  return new Promise<GuardedAnswer>((resolve, reject) => {
    let request: ClientRequest | undefined;
    let settled = false;
    const finish = (error: Error | undefined, answer?: GuardedAnswer) => {
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
            headers: { accept: options.accept, 'user-agent': options.userAgent },
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
              finish(undefined, {
                status: response.statusCode ?? 0,
                contentType: (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
                text: Buffer.concat(chunks).toString('utf8'),
              });
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
