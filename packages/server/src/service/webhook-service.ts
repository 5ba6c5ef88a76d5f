/**
 * The webhook operations behind the HTTP routes (issue 20): creating an endpoint (its URL
 * checked against SSRF, its secret sealed and shown once), listing, deleting and enabling
 * endpoints, and reading or retrying their deliveries. Every failure is a coded `ApiError`.
 */
import { seal } from '../dkim/secret-box.js';
import { ApiError } from '../errors.js';
import { checkHost, type ResolveHost } from '../net/address-guard.js';
import { newId } from '../store/ids.js';
import {
  DELIVERY_LISTING_LIMIT,
  type StoredDelivery,
  type StoredEndpoint,
  type WebhookStore,
} from '../store/webhook-store.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook/events.js';
import type { CreatedWebhookView, WebhookDeliveryView, WebhookEndpointView } from '../webhook/schemas.js';
import { formatSecret, newSecretBytes } from '../webhook/signature.js';

/** Longest endpoint URL: what browsers and most servers handle, and enough for any receiver. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookServiceOptions {
  store: WebhookStore;
  secretKey: () => Buffer;
  maxPerAccount: number;
  allowPrivateUrls: boolean;
  /** Called after a retry is requested, so the worker sends it now. */
  onRetry?: () => void;
  resolve?: ResolveHost;
  now?: () => number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class WebhookService {
  private readonly now: () => number;
  constructor(private readonly options: WebhookServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** `POST /api/public/webhooks`: the new endpoint with its secret, shown this once. */
  async create(
    accountId: string,
    input: { url: string; events?: WebhookEventType[] },
  ): Promise<CreatedWebhookView> {
    const url = await this.checkUrl(input.url);
    const events = input.events?.length ? [...new Set(input.events)] : [...WEBHOOK_EVENT_TYPES];
    const id = newId('whk');
    const secret = newSecretBytes();
    const stored = await this.options.store.createEndpoint(
      {
        id,
        accountId,
        url,
        events,
        // Bound to the endpoint's id, so a sealed secret copied onto another row does not open.
        secretEnc: seal(this.options.secretKey(), secret, id),
        createdAt: this.now(),
      },
      this.options.maxPerAccount,
    );
    if (stored === undefined) {
      throw new ApiError(
        'ACCOUNT_WEBHOOK_LIMIT',
        `the account already holds ${this.options.maxPerAccount} webhook endpoints; delete one first`,
      );
    }
    return { ...endpointView(stored), secret: formatSecret(secret) };
  }

  /** `GET /api/public/webhooks`. */
  async list(accountId: string): Promise<WebhookEndpointView[]> {
    return (await this.options.store.listEndpoints(accountId)).map(endpointView);
  }

  /** `DELETE /api/public/webhooks/{id}`. */
  async remove(accountId: string, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.options.store.deleteEndpoint(accountId, id))) throw notFound(id);
    return { id, deleted: true };
  }

  /** `POST /api/public/webhooks/{id}/enable`: deliveries resume, the failure streak forgotten. */
  async enable(accountId: string, id: string): Promise<WebhookEndpointView> {
    const endpoint = await this.options.store.enableEndpoint(accountId, id);
    if (endpoint === undefined) throw notFound(id);
    this.options.onRetry?.();
    return endpointView(endpoint);
  }

  /** `GET /api/public/webhooks/{id}/deliveries`: the most recent, newest first. */
  async deliveries(accountId: string, id: string): Promise<WebhookDeliveryView[]> {
    await this.owned(accountId, id);
    return (await this.options.store.listDeliveries(id, DELIVERY_LISTING_LIMIT)).map(deliveryView);
  }

  /** `POST /api/public/webhooks/{id}/deliveries/{deliveryId}/retry`: due again now. */
  async retry(accountId: string, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    await this.owned(accountId, id);
    const delivery = await this.options.store.retryDelivery(id, deliveryId, this.now());
    if (delivery === undefined) {
      throw new ApiError('WEBHOOK_DELIVERY_NOT_FOUND', `webhook ${id} has no delivery ${deliveryId}`);
    }
    this.options.onRetry?.();
    return deliveryView(delivery);
  }

  private async owned(accountId: string, id: string): Promise<StoredEndpoint> {
    const endpoint = await this.options.store.findEndpoint(accountId, id);
    if (endpoint === undefined) throw notFound(id);
    return endpoint;
  }

  /**
   * The URL as stored, once it is an absolute https URL (http too when private URLs are
   * allowed) whose host resolves only to public addresses. Delivery checks again (DNS changes).
   */
  private async checkUrl(raw: string): Promise<string> {
    if (raw.length > WEBHOOK_URL_MAX_LENGTH) {
      throw new ApiError(
        'WEBHOOK_URL_TOO_LONG',
        `url is ${raw.length} characters; at most ${WEBHOOK_URL_MAX_LENGTH}`,
      );
    }
    const allowPrivate = this.options.allowPrivateUrls;
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
    if (url === undefined || !schemes.includes(url.protocol) || url.hostname === '') {
      throw new ApiError(
        'WEBHOOK_URL_INVALID',
        `url must be an absolute ${schemes.join(' or ').replaceAll(':', '://')} URL`,
      );
    }
    if (url.username !== '' || url.password !== '') {
      throw new ApiError('WEBHOOK_URL_INVALID', 'url must not carry a user name or password');
    }
    let checked: Awaited<ReturnType<typeof checkHost>>;
    try {
      checked = await checkHost(url.hostname, allowPrivate, this.options.resolve);
    } catch {
      throw new ApiError('WEBHOOK_URL_UNRESOLVABLE', `${url.hostname} has no address in DNS`);
    }
    if ('refused' in checked) throw new ApiError('WEBHOOK_URL_FORBIDDEN', `url refused: ${checked.refused}`);
    return url.href;
  }
}

const notFound = (id: string) => new ApiError('WEBHOOK_NOT_FOUND', `this account has no webhook ${id}`);

function endpointView(e: StoredEndpoint): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    createdAt: iso(e.createdAt)!,
    disabledAt: iso(e.disabledAt),
    failingSince: iso(e.failingSince),
  };
}

function deliveryView(d: StoredDelivery): WebhookDeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.eventType,
    status: d.deliveredAt !== null ? 'delivered' : d.failedAt !== null ? 'failed' : 'pending',
    attempts: d.attempts,
    lastStatusCode: d.lastStatus,
    lastDurationMs: d.lastDurationMs,
    lastError: d.lastError,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: iso(d.createdAt)!,
  };
}
