/**
 * Row types of the database, as Kysely sees them. Timestamps are milliseconds since the
 * epoch (bigint in PostgreSQL, integer in SQLite) so that both backends compare and
 * subtract them the same way.
 */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  created_at: number;
  /** How many domains the account holds, kept by registration and deletion. */
  domain_count: Generated<number>;
  /** The account's key clock: the turn its next registration takes at the key generator. */
  key_turn_at: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, so a human can tell keys apart in `keys list`. */
  key_prefix: string;
  /** Comma-separated scopes; `*` is the full API. */
  scopes: string;
  /** A sending key's domains (JSON array of names); `null` when not limited to some. */
  domains: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface DomainsTable {
  id: string;
  account_id: string;
  name: string;
  type: string;
  status: string;
  created_at: number;
  updated_at: number;
  next_check_at: Generated<number>;
  last_checked_at: number | null;
  check_count: Generated<number>;
  claimed_until: number | null;
  zone: string | null;
  /**
   * Retired by migration 0026 (`dns_providers`): neither read nor written, kept for processes
   * of the version before it still running during an upgrade.
   */
  dns_provider: string | null;
  /**
   * Ids of `domain/dns-providers.ts`, comma-separated, the provider with the most name servers
   * first, as the last check named them; `null` when none is known (migration 0026).
   */
  dns_providers: string | null;
  /** JSON of `DomainConnectSetup`, as the last check found it. */
  domain_connect: string | null;
  /** DKIM rotation (migration 0014): when the rotation worker looks next; `null`: no key yet. */
  dkim_rotate_at: number | null;
  dkim_rotated_at: number | null;
  dkim_next_rotation_at: number | null;
  dkim_rotation_requested_at: number | null;
}

export interface DomainRecordsTable {
  domain_id: string;
  position: number;
  kind: string;
  token: string | null;
  /** The return path's label (`return_path` records only). */
  label: Generated<string | null>;
  status: string;
  reason: string | null;
  found: string | null;
  detail: string | null;
  checked_at: number | null;
  missing_since: number | null;
  error_since: number | null;
  verified_at: number | null;
  /** The selector's role in rotation: `active`, `next`, `retired`; `null` before its key. */
  key_state: string | null;
  key_state_since: number | null;
  key_created_at: number | null;
}

export interface StatusHistoryTable {
  id: string;
  domain_id: string;
  position: number | null;
  from_status: string;
  to_status: string;
  reason: string | null;
  found: string | null;
  at: number;
}

/** A saved email template ("My Templates"): the editor's JSON document, per account. */
export interface TemplatesTable {
  id: string;
  account_id: string;
  name: string;
  /** The document as JSON text, checked by the editor's own rules before it is stored. */
  document: string;
  /** Bytes of `document`, for limits and listings. */
  size: number;
  created_at: number;
  updated_at: number;
}

/** An uploaded image an account owns; the file is `<DATA_DIR>/images/<hash>.<ext>`, shared by content. */
export interface ImagesTable {
  account_id: string;
  /** SHA-256 of the content, hex: the file's name. */
  hash: string;
  ext: string;
  mime: string;
  size: number;
  width: number;
  height: number;
  /** The name and folder the client sent (ImageKit's `fileName`, `folder`), for listings. */
  name: string;
  folder: string;
  created_at: number;
}

/** One DKIM key pair per selector token (issue 4); cascades away with its record. */
export interface DkimKeysTable {
  token: string;
  /** Base64 DER SubjectPublicKeyInfo, the `p=` of the key record. */
  public_key: string;
  /** The PKCS#8 private key sealed with AES-256-GCM under SECRET_KEY. */
  private_key_enc: string;
  created_at: number;
  revoked_at: number | null;
  /** When the key was stored or revoked, the later: what the zones of every process read for changes. */
  changed_at: number;
}

/** A DKIM token still waiting for its key. */
export interface DkimKeyQueueTable {
  token: string;
  queued_at: number;
  /** Its domain's turn at the key generator (`accounts.key_turn_at`): keys are made in turn order. */
  turn_at: number;
}

/** A key that went with its domain, so every process's zone drops it too; kept a day. */
export interface DkimKeyDeletionsTable {
  token: string;
  deleted_at: number;
}

/** The SOA serial of the provider zone and the digest of what it published. */
export interface DkimZoneTable {
  zone: string;
  serial: number;
  digest: string;
  updated_at: number;
}

/** A webhook endpoint of an account (issue 20). */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** Comma-separated event types. */
  events: string;
  /** The signing secret's bytes sealed with AES-256-GCM under SECRET_KEY, bound to the id. */
  secret_enc: string;
  created_at: number;
  disabled_at: number | null;
  failing_since: number | null;
}

/** The outbox: one domain event, written with the change that caused it. */
export interface WebhookEventsTable {
  id: string;
  account_id: string;
  /** What the event is about, in order per endpoint: a domain's id, or a message's. */
  stream: string;
  type: string;
  /** JSON: `{domain, previous}` (the domain as it was at the event) or `{email}` (the body's data). */
  snapshot: string;
  created_at: number;
}

/** One event for one endpoint: its attempts so far and the next. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  stream: string;
  seq: number;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  delivered_at: number | null;
  failed_at: number | null;
  created_at: number;
}

/** An accepted message (issue 21). */
export interface EmailsTable {
  id: string;
  account_id: string;
  domain_id: string;
  from_address: string;
  subject: string;
  /** The MIME message, CRLF line endings, without its DKIM signature. */
  message: string;
  /** JSON `[{name, value}]`. */
  tags: string;
  idempotency_key: string | null;
  /** SHA-256 of the request body, hex: a reused key with another body is refused. */
  request_hash: string | null;
  created_at: number;
  /** The message's status from its recipients' (`email/status.ts`), kept in step by every write. */
  status: Generated<string>;
  /** When a scheduled message is to go (ms); `null` when it was sent at once. */
  scheduled_at: number | null;
  /** When its body was emptied past `EMAIL_RETENTION_DAYS` (ms); `null` while it is kept. */
  content_deleted_at: number | null;
  /** What was tracked (`opens`, `clicks`, `opens,clicks`); `null` for none (migration 0025). */
  tracking: string | null;
}

/** A message's tag, as a row for listing by tag (migration 0022); `emails.tags` holds them too. */
export interface EmailTagsTable {
  email_id: string;
  account_id: string;
  name: string;
  value: string;
  /** The message's `created_at`, so a tag's messages page newest first from the index. */
  created_at: number;
}

/** One envelope recipient of a message: the sending queue's unit. */
export interface EmailRecipientsTable {
  id: string;
  email_id: string;
  position: number;
  address: string;
  kind: string;
  status: string;
  attempts: Generated<number>;
  /** When to try next; `null` once settled (sent, bounced, failed, suppressed). */
  next_attempt_at: number | null;
  claimed_until: number | null;
  updated_at: number;
}

/** What one attempt did for one recipient. */
export interface EmailEventsTable {
  id: string;
  email_id: string;
  recipient_id: string;
  address: string;
  type: string;
  smtp_code: number | null;
  smtp_text: string | null;
  mx_host: string | null;
  /** For a `bounced` event: `hard`, `soft`, `block` or `undetermined` (`email/bounce.ts`). */
  bounce_type: string | null;
  /** For a `clicked` event: the link followed (migration 0025). */
  url: string | null;
  /** For an `opened` or `clicked` event: why it was a machine's, not a person's; `null` when nothing says so. */
  machine: string | null;
  at: number;
}

/** A tracking host's certificate from ACME, or (host `acme-account`) the ACME account key (migration 0025). */
export interface CertificatesTable {
  host: string;
  certificate_pem: string;
  /** The private key, sealed under `SECRET_KEY` (`dkim/secret-box.ts`). */
  key_sealed: string;
  expires_at: number;
  updated_at: number;
}

/** An address the account may not send to any more: a hard bounce, an unsubscribe, a complaint. */
export interface SuppressionsTable {
  account_id: string;
  address: string;
  reason: string;
  /** `all`, or the one stream (`Marketing`, `Transactional`: the From domain's type) it left. */
  scope: string;
  email_id: string | null;
  created_at: number;
}

/** A message captured by the development sandbox (issue 40), per envelope recipient. */
export interface SandboxMessagesTable {
  id: string;
  account_id: string;
  email_id: string;
  address: string;
  message: string;
  authentication: string;
  captured_at: number;
}

/** An account's sending count in its current minute. */
export interface EmailRateTable {
  account_id: string;
  /** The minute's start, ms. */
  window_start: number;
  count: number;
}

/** A key of the service itself, sealed under `SECRET_KEY` (`service-key-store.ts`). */
export interface ServiceKeysTable {
  name: string;
  private_key_enc: string;
  created_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  domains: DomainsTable;
  domain_records: DomainRecordsTable;
  status_history: StatusHistoryTable;
  templates: TemplatesTable;
  images: ImagesTable;
  dkim_keys: DkimKeysTable;
  dkim_key_queue: DkimKeyQueueTable;
  dkim_key_deletions: DkimKeyDeletionsTable;
  dkim_zone: DkimZoneTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  emails: EmailsTable;
  email_recipients: EmailRecipientsTable;
  email_tags: EmailTagsTable;
  email_events: EmailEventsTable;
  suppressions: SuppressionsTable;
  email_rate: EmailRateTable;
  sandbox_messages: SandboxMessagesTable;
  service_keys: ServiceKeysTable;
  certificates: CertificatesTable;
  /** Kysely's own bookkeeping, listed so typed queries can read the applied versions. */
  kysely_migration: { name: string; timestamp: string; _id?: Generated<number> };
}
