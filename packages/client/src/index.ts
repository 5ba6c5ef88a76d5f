/** Lines for a BIND zone file (absolute names, TTL 3600), from a domain result. */
export { bindLines as zoneFileLines } from './cli/format.js';
export {
  type ApiClient,
  type CreatedWebhook,
  createApiClient,
  type DeleteEnvelope,
  type DnsRecord,
  type DomainEnvelope,
  type DomainResult,
  type DomainType,
  type EmailWebhookEvent,
  type Envelope,
  type HistoryEnvelope,
  ServiceClient,
  type ServiceClientOptions,
  type WaitOptions,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
} from './client.js';
export {
  type ApiErrorBody,
  type ApiErrorCode,
  ItemFailedError,
  ServiceApiError,
  VerificationTimeoutError,
} from './errors.js';
export type { components, paths } from './generated/openapi.js';
