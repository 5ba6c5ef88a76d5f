/**
 * `ServiceClient`: the domain, webhook and sending routes of the sending-domain API and `waitForVerification`,
 * typed from the server's OpenAPI document, for Node 20+ and browsers. (The templates, images
 * and health routes have generated types, `paths`, but no methods here.) Request-level errors throw `ServiceApiError`; item-level
 * results come back as the API's envelopes, in request order.
 *
 * @example
 * const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.SERVICE_API_KEY! });
 * const [result] = await client.registerDomains([{ domain: 'mail.example.com', domainType: 'Transactional' }]);
 * await client.waitForVerification(['mail.example.com'], { timeoutMs: 600_000, onProgress: console.log });
 */
import createClient from 'openapi-fetch';
import { ItemFailedError, ServiceApiError, VerificationTimeoutError } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { retryingFetch } from './retrying-fetch.js';

/**
 * An item envelope of the API as a discriminated union: the API fills exactly one of `data` and
 * `error`, so narrowing on one (`if (result.error) … else result.data`) gives the other.
 */
export type Envelope<S extends { data: unknown; error: unknown }> =
  | (Omit<S, 'data' | 'error'> & { data: NonNullable<S['data']>; error: null })
  | (Omit<S, 'data' | 'error'> & { data: null; error: NonNullable<S['error']> });

export type DomainResult = components['schemas']['DomainResult'];
export type DnsRecord = components['schemas']['DnsRecord'];
export type DomainEnvelope = Envelope<components['schemas']['DomainEnvelope']>;
export type DeleteEnvelope = Envelope<components['schemas']['DeleteEnvelope']>;
export type HistoryEnvelope = Envelope<components['schemas']['HistoryEnvelope']>;
/** `Transactional` or `Marketing`, as the API's DomainResult schema names them. */
export type DomainType = DomainResult['type'];
/** The DNS provider hosting a domain's zone, as its NS records show it. */
export type DnsProvider = components['schemas']['DnsProvider'];
/** Setting a domain up through its DNS provider (Domain Connect). */
export type DomainConnect = components['schemas']['DomainConnect'];
/** A signed Domain Connect link for one domain. */
export type SetupLink = components['schemas']['SetupLinkEnvelope']['data'];
/** Where a domain's DKIM keys stand in rotation (the domain result's `dkim`). */
export type DkimStatus = components['schemas']['DkimStatus'];
/**
 * What the development local DNS holds for a domain after `publishLocalDns` or
 * `removeFromLocalDns`, and the domain's status after the check that followed.
 */
export type LocalDnsChange =
  paths['/api/public/domain/local-dns']['post']['responses'][200]['content']['application/json']['data'];
/** The answer of `rotateDkim`. */
export type DkimRotation = components['schemas']['DkimRotationEnvelope']['data'];
/** A webhook endpoint as listed (no secret). */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
/** A new webhook endpoint, with its signing secret: shown only in the creation answer. */
export type CreatedWebhook = components['schemas']['CreatedWebhook'];
/** One event's delivery to one endpoint: its status and its last attempt. */
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
/** The body an endpoint receives for `domain.*` events. */
export type WebhookEvent = components['schemas']['WebhookEvent'];
/** The body an endpoint receives for `email.*` events. */
export type EmailWebhookEvent = components['schemas']['EmailWebhookEvent'];
/** A message to send (`POST /api/public/emails`). */
export type SendEmailInput = components['schemas']['SendEmailBody'];
/** What a send answers: `queued`, or `scheduled` when it waits for its `scheduledAt`. */
export type SentEmail = NonNullable<components['schemas']['SendEnvelope']['data']>;
/** One entry's answer in `sendEmails`. */
export type SendEnvelope = Envelope<components['schemas']['SendEnvelope']>;
/** A message's status and each recipient's, with every attempt's SMTP answer. */
export type Email = components['schemas']['Email'];
/** A message as `listEmails` gives it: status, sender, first recipients, subject, tags, time. */
export type ListedEmail = components['schemas']['ListedEmail'];
/** A message's subject, header fields and decoded parts, as `getEmailContent` gives them. */
export type EmailContent = components['schemas']['EmailContent'];
/** An address the account no longer sends to (a hard bounce or an unsubscribe). */
export type Suppression = components['schemas']['Suppression'];
/** An API key as listed: its id, name, prefix, scopes and dates, never the key. */
export type ApiKey = components['schemas']['ApiKey'];
/** A new API key with the key itself, shown only in the creation answer. */
export type CreatedApiKey = components['schemas']['CreatedApiKey'];
/** A message the development sandbox captured, as its inbox lists it, with mailauth's verdicts. */
export type CapturedMessageSummary = components['schemas']['CapturedMessageSummary'];
/** One captured message: its headers, HTML, text and raw source too. */
export type CapturedMessage = components['schemas']['CapturedMessage'];
/** `domain.created`, `domain.updated`, `domain.verified`, `domain.deleted`, and the `email.*` events. */
export type WebhookEventType = WebhookEndpoint['events'][number];

export interface ServiceClientOptions {
  /** e.g. `http://127.0.0.1:3000` */
  baseUrl: string;
  /** Sent as the whole `Authorization` header, as the API expects. */
  apiKey: string;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Retries on 429/503 (honouring `Retry-After`) and network errors (default 3). */
  retries?: number;
  /** Longest wait between attempts (default 30 s). */
  maxRetryDelayMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * Most entries per request (the server's `MAX_ITEMS_PER_REQUEST`, default 100): longer lists
   * go as several requests, one after another, their envelopes joined in order.
   */
  batchSize?: number;
}

export interface WaitOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Between polls (default 5 s; the server re-checks DNS when its last check is older). */
  intervalMs?: number;
  /** Called after every poll with the latest envelopes. */
  onProgress?: (envelopes: DomainEnvelope[]) => void;
  signal?: AbortSignal;
}

/** A typed client of every route of the API (openapi-fetch over {@link paths}). */
export type ApiClient = ReturnType<typeof createClient<paths>>;

/**
 * A typed client of **every** route (templates, images, health too), checked against the API at
 * compile time, with the same key, timeouts and retries as `ServiceClient`. Its calls answer
 * openapi-fetch's `{data, error, response}` instead of throwing.
 *
 * @example
 * const api = createApiClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: browserKey });
 * const { data, error } = await api.GET('/api/public/templates', { params: { query: { limit: '50' } } });
 */
export function createApiClient(options: Omit<ServiceClientOptions, 'batchSize'>): ApiClient {
  if (!options.baseUrl) throw new TypeError('ServiceClient needs baseUrl, e.g. http://127.0.0.1:3000');
  if (!options.apiKey) throw new TypeError('ServiceClient needs apiKey');
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: options.apiKey },
    fetch: retryingFetch({
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 3,
      maxDelayMs: options.maxRetryDelayMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    }),
  });
}

export class ServiceClient {
  private readonly api: ApiClient;
  private readonly batchSize: number;

  constructor(options: ServiceClientOptions) {
    this.api = createApiClient(options);
    this.batchSize = options.batchSize ?? 100;
  }

  /** `POST /api/public/domain`: register domains (idempotent); one envelope per entry. */
  async registerDomains(
    // the API reads the type case-insensitively; sendctl passes the lower-case form
    domains: { domain: string; domainType: DomainType | Lowercase<DomainType> }[],
  ): Promise<DomainEnvelope[]> {
    return this.batched(
      domains,
      async (batch) =>
        unwrap(await this.api.POST('/api/public/domain', { body: { domains: batch } })) as DomainEnvelope[],
    );
  }

  /** `POST /api/public/domain/status`: current statuses (re-checked in DNS when stale). */
  async domainStatus(domains: string[]): Promise<DomainEnvelope[]> {
    return this.batched(
      domains,
      async (batch) =>
        unwrap(
          await this.api.POST('/api/public/domain/status', { body: { domains: batch } }),
        ) as DomainEnvelope[],
    );
  }

  /** `POST /api/public/domain/history`: each domain's status changes, newest first. */
  async domainHistory(domains: string[]): Promise<HistoryEnvelope[]> {
    return this.batched(
      domains,
      async (batch) =>
        unwrap(
          await this.api.POST('/api/public/domain/history', { body: { domains: batch } }),
        ) as HistoryEnvelope[],
    );
  }

  /** `DELETE /api/public/domain`: delete registrations; one envelope per name. */
  async deleteDomains(domains: string[]): Promise<DeleteEnvelope[]> {
    return this.batched(
      domains,
      async (batch) =>
        unwrap(await this.api.DELETE('/api/public/domain', { body: { domains: batch } })) as DeleteEnvelope[],
    );
  }

  /** `GET /api/public/domain`: one page of registrations by name. */
  async listDomains(
    options: { limit?: number; cursor?: string } = {},
  ): Promise<{ domains: DomainResult[]; nextCursor: string | null }> {
    const query = {
      ...(options.limit !== undefined && { limit: String(options.limit) }),
      ...(options.cursor !== undefined && { cursor: options.cursor }),
    };
    return unwrap(await this.api.GET('/api/public/domain', { params: { query } })).data;
  }

  /**
   * `POST /api/public/webhooks`: add an endpoint for domain events (all of them when `events` is
   * absent). The answer's `secret` is shown only this once: keep it to verify signatures.
   */
  async createWebhook(input: { url: string; events?: WebhookEventType[] }): Promise<CreatedWebhook> {
    return unwrap(await this.api.POST('/api/public/webhooks', { body: input })).data;
  }

  /** `GET /api/public/webhooks`: the account's endpoints, oldest first, without secrets. */
  async listWebhooks(): Promise<WebhookEndpoint[]> {
    return unwrap(await this.api.GET('/api/public/webhooks')).data;
  }

  /** `DELETE /api/public/webhooks/{id}`: nothing more is sent to it. */
  async deleteWebhook(id: string): Promise<{ id: string; deleted: true }> {
    return unwrap(await this.api.DELETE('/api/public/webhooks/{id}', { params: { path: { id } } })).data;
  }

  /** `POST /api/public/webhooks/{id}/enable`: resume an endpoint disabled after 5 days of failures. */
  async enableWebhook(id: string): Promise<WebhookEndpoint> {
    return unwrap(await this.api.POST('/api/public/webhooks/{id}/enable', { params: { path: { id } } })).data;
  }

  /** `GET /api/public/webhooks/{id}/deliveries`: the 100 most recent, newest first. */
  async webhookDeliveries(id: string): Promise<WebhookDelivery[]> {
    return unwrap(await this.api.GET('/api/public/webhooks/{id}/deliveries', { params: { path: { id } } }))
      .data;
  }

  /** `POST /api/public/webhooks/{id}/deliveries/{deliveryId}/retry`: send it again now, same `webhook-id`. */
  async retryWebhookDelivery(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return unwrap(
      await this.api.POST('/api/public/webhooks/{id}/deliveries/{deliveryId}/retry', {
        params: { path: { id, deliveryId } },
      }),
    ).data;
  }

  /**
   * `POST /api/public/emails`: queue a message from a verified domain. With `idempotencyKey`,
   * the same call again (a retry after a timeout) answers the first message instead of sending twice.
   */
  async sendEmail(input: SendEmailInput, options: { idempotencyKey?: string } = {}): Promise<SentEmail> {
    return unwrap(
      await this.api.POST('/api/public/emails', {
        body: input,
        ...(options.idempotencyKey !== undefined && {
          params: { header: { 'idempotency-key': options.idempotencyKey } },
        }),
      }),
    ).data;
  }

  /**
   * `POST /api/public/emails/batch`: up to 100 messages, each as `sendEmail` takes it; one
   * envelope each, in order (an entry refused fails alone). With `idempotencyKey`, a retry of
   * the same batch answers the messages queued the first time.
   */
  async sendEmails(
    inputs: SendEmailInput[],
    options: { idempotencyKey?: string } = {},
  ): Promise<SendEnvelope[]> {
    return unwrap(
      await this.api.POST('/api/public/emails/batch', {
        body: { emails: inputs },
        ...(options.idempotencyKey !== undefined && {
          params: { header: { 'idempotency-key': options.idempotencyKey } },
        }),
      }),
    ) as SendEnvelope[];
  }

  /** `POST /api/public/emails/{id}/cancel`: a message sent with `scheduledAt` is not sent. */
  async cancelEmail(id: string): Promise<{ id: string; status: 'canceled' }> {
    return unwrap(await this.api.POST('/api/public/emails/{id}/cancel', { params: { path: { id } } })).data;
  }

  /** `PATCH /api/public/emails/{id}`: a scheduled message goes at `scheduledAt` (RFC 3339) instead. */
  async rescheduleEmail(
    id: string,
    scheduledAt: string,
  ): Promise<{ id: string; status: 'scheduled'; scheduledAt: string }> {
    return unwrap(
      await this.api.PATCH('/api/public/emails/{id}', { params: { path: { id } }, body: { scheduledAt } }),
    ).data;
  }

  /**
   * `GET /api/public/domain/setup-link`: a signed Domain Connect link that lets the customer
   * approve the four records at their DNS provider, which then sends the browser to
   * `redirectUri` with `state`. Throws `SETUP_LINK_UNAVAILABLE` when the provider cannot.
   */
  async domainSetupLink(
    domain: string,
    options: { redirectUri?: string; state?: string } = {},
  ): Promise<SetupLink> {
    const query = {
      domain,
      ...(options.redirectUri !== undefined && { redirect_uri: options.redirectUri }),
      ...(options.state !== undefined && { state: options.state }),
    };
    return unwrap(await this.api.GET('/api/public/domain/setup-link', { params: { query } })).data;
  }

  /**
   * `POST /api/public/domain/dkim/rotate`: move signing to the domain's next DKIM key now (or
   * as soon as it has been served long enough); `dkim.nextRotationAt` is the planned switch.
   * Throws `DKIM_ROTATION_UNAVAILABLE` (with the reason) when it cannot happen soon.
   */
  async rotateDkim(domain: string): Promise<DkimRotation> {
    return unwrap(await this.api.POST('/api/public/domain/dkim/rotate', { body: { domain } })).data;
  }

  /**
   * `GET /api/public/domain/local-dns` (development only): where the server's local DNS answers
   * (`{server: '127.0.0.1:5354'}`); throws `LOCAL_DNS_OFF` when it has none.
   */
  async localDns(): Promise<{ server: string }> {
    return unwrap(await this.api.GET('/api/public/domain/local-dns')).data;
  }

  /**
   * `POST /api/public/domain/local-dns` (development only): publish a `.test` domain's records in
   * the server's local DNS, which plays its DNS provider, and check it at once: the domain turns
   * `verified` with no public DNS. Throws `LOCAL_DNS_OFF` in production mode, `LOCAL_DNS_NOT_TEST`
   * for a domain outside `.test`.
   */
  async publishLocalDns(domain: string): Promise<LocalDnsChange> {
    return unwrap(await this.api.POST('/api/public/domain/local-dns', { body: { domain } })).data;
  }

  /**
   * `DELETE /api/public/domain/local-dns` (development only): remove a `.test` domain's records
   * from the local DNS, those at `names` (each record's `fqdn`) or all, and check it at once.
   */
  async removeFromLocalDns(domain: string, names?: string[]): Promise<LocalDnsChange> {
    const body = names === undefined ? { domain } : { domain, names };
    return unwrap(await this.api.DELETE('/api/public/domain/local-dns', { body })).data;
  }

  /**
   * `GET /api/public/emails`: one page of the account's messages, newest first, filtered by
   * status, recipient, sending domain, tag and creation time (`since` inclusive, `until` exclusive).
   */
  async listEmails(
    options: {
      limit?: number;
      cursor?: string;
      status?: Email['status'];
      recipient?: string;
      domain?: string;
      since?: string;
      until?: string;
      /** A tag: `name`, or `name:value` (with `tagValue`, `tag` is the whole name). */
      tag?: string;
      tagValue?: string;
      /** The same as `recipient`, `since` and `until`, by the API's other names. */
      to?: string;
      after?: string;
      before?: string;
    } = {},
  ): Promise<{ emails: ListedEmail[]; nextCursor: string | null }> {
    const { limit, ...rest } = options;
    const query = {
      ...(limit !== undefined && { limit: String(limit) }),
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    };
    return unwrap(await this.api.GET('/api/public/emails', { params: { query } })).data;
  }

  /** `GET /api/public/emails/{id}`: what became of a message, per recipient. */
  async getEmail(id: string): Promise<Email> {
    return unwrap(await this.api.GET('/api/public/emails/{id}', { params: { path: { id } } })).data;
  }

  /**
   * `GET /api/public/emails/{id}/content`: the message as its recipients get it (subject, header
   * fields, decoded HTML and text). Show the HTML only in a sandboxed frame.
   */
  async getEmailContent(id: string): Promise<EmailContent> {
    return unwrap(await this.api.GET('/api/public/emails/{id}/content', { params: { path: { id } } })).data;
  }

  /** `GET /api/public/suppressions`: 100 suppressed addresses a page, after `after`. */
  async listSuppressions(options: { after?: string } = {}): Promise<Suppression[]> {
    return unwrap(
      await this.api.GET('/api/public/suppressions', {
        params: { query: { ...(options.after !== undefined && { after: options.after }) } },
      }),
    ).data;
  }

  /** `DELETE /api/public/suppressions/{address}`: later messages reach the address again. */
  async removeSuppression(address: string): Promise<{ address: string; deleted: true }> {
    return unwrap(
      await this.api.DELETE('/api/public/suppressions/{address}', { params: { path: { address } } }),
    ).data;
  }

  /**
   * `POST /api/public/keys`: a new key in this account; `key` is in this answer only.
   * `scopes: ['templates', 'images']` makes a key a web page may hold; `domains` makes a sending
   * key that sends only from those domains and reads only their mail (for a platform's customer).
   */
  async createApiKey(input: {
    name: string;
    scopes?: ApiKey['scopes'];
    domains?: string[];
  }): Promise<CreatedApiKey> {
    return unwrap(await this.api.POST('/api/public/keys', { body: input })).data;
  }

  /** `GET /api/public/keys`: the account's keys (revoked ones too), never a secret. */
  async listApiKeys(): Promise<ApiKey[]> {
    return unwrap(await this.api.GET('/api/public/keys')).data;
  }

  /** `DELETE /api/public/keys/{id}`: it stops working at once. Not the key this client uses (`API_KEY_IN_USE`). */
  async revokeApiKey(id: string): Promise<ApiKey> {
    return unwrap(await this.api.DELETE('/api/public/keys/{id}', { params: { path: { id } } })).data;
  }

  /**
   * `GET /api/public/sandbox/messages`: one page of the development sandbox's capture inbox,
   * newest first (servers outside production mode only).
   */
  async listSandboxMessages(
    options: { limit?: number; cursor?: string } = {},
  ): Promise<{ messages: CapturedMessageSummary[]; nextCursor: string | null }> {
    const query = {
      ...(options.limit !== undefined && { limit: String(options.limit) }),
      ...(options.cursor !== undefined && { cursor: options.cursor }),
    };
    return unwrap(await this.api.GET('/api/public/sandbox/messages', { params: { query } })).data;
  }

  /** `GET /api/public/sandbox/messages/{id}`: one captured message with its headers, parts and verdicts. */
  async getSandboxMessage(id: string): Promise<CapturedMessage> {
    return unwrap(await this.api.GET('/api/public/sandbox/messages/{id}', { params: { path: { id } } })).data;
  }

  /** `call` on `batchSize` entries at a time, in order; the envelopes joined. */
  private async batched<T, E>(items: T[], call: (batch: T[]) => Promise<E[]>): Promise<E[]> {
    const out: E[] = [];
    for (let i = 0; i < items.length; i += this.batchSize)
      out.push(...(await call(items.slice(i, i + this.batchSize))));
    return out;
  }

  /** Every registration, page after page. */
  async *allDomains(pageSize = 100): AsyncGenerator<DomainResult> {
    let cursor: string | undefined;
    do {
      const page = await this.listDomains({ limit: pageSize, ...(cursor !== undefined && { cursor }) });
      yield* page.domains;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * Poll until every named domain is verified. Resolves with the final envelopes. Rejects with
   * `VerificationTimeoutError` (holding the last statuses) after `timeoutMs`; with
   * `ItemFailedError` when the API answers a name with an error (invalid, not registered);
   * with `ServiceApiError` when a request fails (key refused, rate limit or network after
   * the retries).
   */
  async waitForVerification(domains: string[], options: WaitOptions = {}): Promise<DomainEnvelope[]> {
    const deadline = Date.now() + (options.timeoutMs ?? 600_000);
    const interval = options.intervalMs ?? 5_000;
    for (;;) {
      options.signal?.throwIfAborted();
      const envelopes = await this.domainStatus(domains);
      options.onProgress?.(envelopes);
      const failed = envelopes.findIndex((e) => e.error !== null);
      const error = envelopes[failed]?.error;
      if (error) {
        const name = domains[failed] ?? '';
        throw new ItemFailedError(name, envelopes[failed]!.status, error.code, error.message, envelopes);
      }
      if (envelopes.every((e) => e.data?.status === 'verified')) return envelopes;
      const left = deadline - Date.now();
      if (left <= 0) {
        const pending = envelopes.filter((e) => e.data?.status !== 'verified').map((e) => e.data?.domain);
        throw new VerificationTimeoutError(`not verified in time: ${pending.join(', ')}`, envelopes);
      }
      await sleep(Math.min(interval, left), options.signal);
    }
  }
}

/** Waits `ms`; an abort ends the wait at once with the signal's reason. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The body of a 2xx answer, or a `ServiceApiError` from the error envelope. */
function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  const requestId = result.response.headers.get('x-request-id') ?? undefined;
  const envelope = result.error as { error?: { code?: string; message?: string; details?: [] } } | undefined;
  const error = envelope?.error;
  if (error?.code && error.message) {
    throw new ServiceApiError(
      result.response.status,
      error.code as never,
      error.message,
      error.details,
      requestId,
    );
  }
  throw new ServiceApiError(
    result.response.status,
    'UNEXPECTED_RESPONSE',
    `unexpected HTTP ${result.response.status}`,
    undefined,
    requestId,
  );
}
