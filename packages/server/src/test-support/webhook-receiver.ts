/**
 * A real webhook receiver for tests: node:http on a loopback port that records every request
 * and answers 204 (after `holdMs`, if set), or 500 while `failing`. It can stop listening and listen again on the same
 * port, as a receiver that goes down and comes back.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answer 500 to every request while true. */
  failing: boolean;
  /** Record each request on arrival but answer only this much later (a slow receiver). */
  holdMs: number;
  /** Stop listening: connections are refused until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The bodies of `received`, each verified with the Standard Webhooks reference package under
 * `secret` (it throws on a bad signature or a stale timestamp), with their `webhook-id`.
 */
export function verifiedEvents(
  received: readonly ReceivedWebhook[],
  secret: string,
): { id: string; event: any }[] {
  const wh = new Webhook(secret);
  return received.map((r) => {
    const headers = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    return { id: headers['webhook-id'], event: wh.verify(r.body, headers) };
  });
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  let server: Server | undefined;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    failing: false,
    holdMs: 0,
    async down() {
      const s = server;
      server = undefined;
      s?.closeAllConnections();
      await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
    },
    async up() {
      const s = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (c: Buffer) => chunks.push(c));
        request.on('end', () => {
          if (receiver.failing) {
            response.writeHead(500).end('down for maintenance');
            return;
          }
          receiver.received.push({
            headers: request.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          });
          if (receiver.holdMs > 0) setTimeout(() => response.writeHead(204).end(), receiver.holdMs).unref();
          else response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
      port = (s.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}${path}`;
      server = s;
    },
    close: () => receiver.down(),
  };
  await receiver.up();
  return receiver;
}
