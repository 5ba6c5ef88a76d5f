/**
 * `sendctl webhooks …`: the account's webhook endpoints and their deliveries (issue 20), on the
 * typed client. The server takes full API keys only: any other is refused with 403 `AUTH_SCOPE`
 * (exit 1, as every refused request). A refusal about the thing named — a URL the server will
 * not call, an unknown endpoint or delivery id — exits 4, as an unknown domain does.
 */
import type { ServiceClient, WebhookEventType } from '../client.js';
import type { ApiErrorCode } from '../errors.js';
import {
  createdWebhookLines,
  DELIVERY_HEADER,
  deliveryErrors,
  deliveryRow,
  table,
  WEBHOOK_HEADER,
  webhookRow,
} from './format.js';
import { EXIT, exactly, type Io, itemRequest, UsageError } from './io.js';

/**
 * What each event means. A record keyed by the API's event type, so an event type the API adds
 * (and the generated types gain) fails to compile here until it is described.
 */
const EVENTS: Record<WebhookEventType, string> = {
  'domain.created': 'registered',
  'domain.updated': 'the domain’s or a record’s status changed',
  'domain.verified': 'the domain became verified',
  'domain.deleted': 'deleted',
  'domain.dkim_rotated': 'signing moved to the next DKIM selector (automatic key rotation)',
  'email.sent': 'a relay or the recipient’s MX took a message',
  'email.delivered': 'the recipient’s MX took a message (direct delivery)',
  'email.deferred': 'a message waits for a retry (4xx or no answer)',
  'email.bounced': 'a recipient refused a message (5xx), or its bounce came back later',
  'email.failed': 'a message could not be sent',
  'email.complained': 'a recipient reported a message as spam (feedback loop)',
  'email.opened': 'a tracked message was opened (machine: a proxy or scanner did it)',
  'email.clicked': 'a tracked link was followed (machine: a proxy or scanner did it)',
};

/** Every event type, in the API's order. */
export const WEBHOOK_EVENTS = Object.keys(EVENTS) as WebhookEventType[];

/** The help lines of the `webhooks` commands, for sendctl's usage text. */
export const WEBHOOKS_USAGE = `  webhooks add <url> [--events domain.verified,…]          add an endpoint (all events when no --events); prints its signing secret, once
  webhooks list                                            endpoints, failing or disabled ones marked
  webhooks deliveries <id>                                 its 100 most recent deliveries: status, attempts, last answer
  webhooks retry <id> <deliveryId>                         send a delivery again now
  webhooks enable <id>                                     resume an endpoint disabled after 5 days of failures
  webhooks rm <id>                                         remove an endpoint ("remove" works too)
                                                           events: ${WEBHOOK_EVENTS.join(', ')}`;

/**
 * The API's refusals that concern the URL or id given rather than the request: they exit 4 and
 * are printed `subject: message (CODE)`, as the item errors of the `domains` commands are.
 */
const ITEM_CODES: ReadonlySet<string> = new Set<ApiErrorCode>([
  'WEBHOOK_URL_INVALID',
  'WEBHOOK_URL_TOO_LONG',
  'WEBHOOK_URL_FORBIDDEN',
  'WEBHOOK_URL_UNRESOLVABLE',
  'ACCOUNT_WEBHOOK_LIMIT',
  'WEBHOOK_NOT_FOUND',
  'WEBHOOK_DELIVERY_NOT_FOUND',
]);

/**
 * `--events a,b`: the event types, each checked (case-insensitively, as `--type`) against the
 * API's before any request is made.
 */
export function parseEvents(text: string): WebhookEventType[] {
  const names = text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !Object.hasOwn(EVENTS, name));
  if (names.length === 0 || unknown.length > 0) {
    const valid = WEBHOOK_EVENTS.map((e) => `${e} (${EVENTS[e]})`).join(', ');
    const problem =
      unknown.length === 0
        ? '--events names no event'
        : `unknown event${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `"${n}"`).join(', ')}`;
    throw new UsageError(`${problem}; events are ${valid}`);
  }
  return [...new Set(names)] as WebhookEventType[];
}

/** Runs `webhooks <command> <args…>`; `--json` prints the API's `data` as it answered. */
export async function webhooks(
  client: ServiceClient,
  command: string | undefined,
  args: string[],
  options: { events: string | undefined; json: boolean },
  io: Io,
): Promise<number> {
  const { json } = options;
  const print = (data: unknown, text: () => string) => io.out(json ? JSON.stringify(data, null, 2) : text());
  switch (command) {
    case 'add': {
      const [url] = exactly(args, ['<url>'], 'webhooks add');
      const events = options.events === undefined ? undefined : parseEvents(options.events);
      return itemRequest(ITEM_CODES, url, io, async () => {
        const created = await client.createWebhook({ url, ...(events && { events }) });
        print(created, () => createdWebhookLines(created).join('\n'));
      });
    }
    case 'list': {
      exactly(args, [], 'webhooks list');
      const endpoints = await client.listWebhooks();
      print(endpoints, () =>
        endpoints.length === 0 ? 'no webhooks' : table(WEBHOOK_HEADER, endpoints.map(webhookRow)),
      );
      return EXIT.ok;
    }
    case 'deliveries': {
      const [id] = exactly(args, ['<id>'], 'webhooks deliveries');
      return itemRequest(ITEM_CODES, id, io, async () => {
        const deliveries = await client.webhookDeliveries(id);
        print(deliveries, () => {
          if (deliveries.length === 0) return 'no deliveries yet';
          const errors = deliveryErrors(deliveries);
          const tableText = table(DELIVERY_HEADER, deliveries.map(deliveryRow));
          return errors.length === 0 ? tableText : `${tableText}\n\nlast errors:\n${errors.join('\n')}`;
        });
      });
    }
    case 'retry': {
      const [id, deliveryId] = exactly(args, ['<id>', '<deliveryId>'], 'webhooks retry');
      return itemRequest(ITEM_CODES, deliveryId, io, async () => {
        const delivery = await client.retryWebhookDelivery(id, deliveryId);
        print(
          delivery,
          () =>
            `${delivery.id} (${delivery.event}) is due again now; \`sendctl webhooks deliveries ${id}\` shows how it went`,
        );
      });
    }
    case 'enable': {
      const [id] = exactly(args, ['<id>'], 'webhooks enable');
      return itemRequest(ITEM_CODES, id, io, async () => {
        const endpoint = await client.enableWebhook(id);
        print(endpoint, () => `enabled ${endpoint.id} (${endpoint.url}): its deliveries resume`);
      });
    }
    case 'rm':
    case 'remove': {
      const [id] = exactly(args, ['<id>'], `webhooks ${command}`);
      return itemRequest(ITEM_CODES, id, io, async () => {
        const removed = await client.deleteWebhook(id);
        print(removed, () => `deleted ${removed.id}`);
      });
    }
    default:
      throw new UsageError(`unknown command "webhooks ${command ?? ''}"`);
  }
}
