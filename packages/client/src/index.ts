/** Lines for a BIND zone file (absolute names, TTL 3600), from a domain result. */
export { bindLines as zoneFileLines } from './cli/format.js';
export {
  type ApiClient,
  type CreatedWebhook,
  createApiClient,
  type DeleteEnvelope,
  type DkimRotation,
  type DkimStatus,
  type DnsProvider,
  type DnsRecord,
  type DomainConnect,
  type DomainEnvelope,
  type DomainResult,
  type DomainType,
  type Email,
  type EmailWebhookEvent,
  type Envelope,
  type HistoryEnvelope,
  type SendEmailInput,
  ServiceClient,
  type ServiceClientOptions,
  type SetupLink,
  type Suppression,
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
