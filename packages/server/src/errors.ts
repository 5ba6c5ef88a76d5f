/**
 * The one catalogue of error codes the API returns. `docs/api-errors.md` lists the same
 * codes, statuses and meanings; `errors.test.ts` keeps the two in step.
 *
 * Request-level errors are the HTTP status of the whole response (body: one envelope);
 * item-level errors sit inside a 200 array, in the envelope of the item they concern.
 */
import type { DomainNameErrorCode } from './domain/domain-name.js';

interface CatalogueEntry {
  status: number;
  level: 'request' | 'item';
  /** What it means and what to do, for the docs and the OpenAPI description. */
  description: string;
}

const domainName = (description: string): CatalogueEntry => ({ status: 400, level: 'item', description });

export const ERROR_CATALOGUE = {
  AUTH_MISSING: {
    status: 401,
    level: 'request',
    description: 'No `Authorization` header. Send the API key alone as its value.',
  },
  AUTH_INVALID: {
    status: 401,
    level: 'request',
    description: 'The API key is unknown or has been revoked.',
  },
  AUTH_SCOPE: {
    status: 403,
    level: 'request',
    description: 'The API key is valid but its scopes do not include this route (scoped browser keys).',
  },
  REQUEST_BAD_JSON: {
    status: 400,
    level: 'request',
    description: 'The body is empty or is not valid JSON.',
  },
  REQUEST_INVALID: {
    status: 400,
    level: 'request',
    description: 'The JSON does not have the shape the route requires; `details` lists each problem.',
  },
  REQUEST_TOO_MANY_ITEMS: {
    status: 400,
    level: 'request',
    description:
      'More entries in `domains` (or `templates`, `ids`) than one request may hold (100 by default).',
  },
  REQUEST_BODY_TOO_LARGE: {
    status: 413,
    level: 'request',
    description: 'The body is larger than the limit (64 KiB by default; 8 KiB on the webhook routes).',
  },
  REQUEST_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    level: 'request',
    description: 'The `Content-Type` is not `application/json` (`multipart/form-data` for image uploads).',
  },
  REQUEST_HEADERS_TOO_LARGE: {
    status: 431,
    level: 'request',
    description:
      'The request line and headers together (a long query string included) are larger than 16 KiB. The connection is closed.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    level: 'request',
    description:
      'The headers (`HEADERS_TIMEOUT_MS`) or the whole request (`REQUEST_TIMEOUT_MS`) did not arrive in time. The connection is closed.',
  },
  REQUEST_MALFORMED: {
    status: 400,
    level: 'request',
    description:
      'The request is not valid HTTP/1.1 (bad request line or header, broken chunked encoding). The connection is closed.',
  },
  RATE_LIMITED: {
    status: 429,
    level: 'request',
    description:
      'Too many requests for this API key, too much rendering for its render budget (`RENDER_BUDGET`), or too many failed authentications from this address (`AUTH_FAILURE_MAX`); retry after the `Retry-After` header’s seconds.',
  },
  REQUEST_TOO_COSTLY: {
    status: 400,
    level: 'request',
    description:
      'The request would cost more render units than a key’s whole budget (`RENDER_BUDGET`) holds; render fewer or smaller templates per request.',
  },
  ROUTE_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'No route has this method and path.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    level: 'request',
    description:
      'The service is shutting down, its database is unreachable, or its render threads are saturated; retry after the `Retry-After` header’s seconds (or shortly).',
  },
  INTERNAL_ERROR: {
    status: 500,
    level: 'request',
    description: 'An unexpected fault; the response carries a request id to report.',
  },
  DOMAIN_EMPTY: domainName('The domain name is empty.'),
  DOMAIN_TOO_LONG: domainName(
    'The name is too long to carry its DKIM records within 253 characters (209 at most).',
  ),
  DOMAIN_INVALID_CHARACTER: domainName(
    'The name holds a character no host name may hold (e.g. `_`, `/`, space).',
  ),
  DOMAIN_WILDCARD: domainName('Wildcard names (`*.example.com`) cannot be registered.'),
  DOMAIN_IP_ADDRESS: domainName('The name is an IP address.'),
  DOMAIN_INVALID_LABEL: domainName(
    'A label is empty, longer than 63, has a leading/trailing hyphen or bad punycode.',
  ),
  DOMAIN_MIXED_SCRIPTS: domainName(
    'A label mixes scripts, as look-alike names do (`аpple.com` with a Cyrillic `а`): each label must be in one script, or Latin with Han and Japanese kana, Bopomofo or Hangul (UTS #39 “Highly Restrictive”). Checked on the Unicode form, also for `xn--` labels.',
  ),
  DOMAIN_SINGLE_LABEL: domainName(
    'The name has one label (`localhost`, `com`); register a fully qualified name.',
  ),
  DOMAIN_PUBLIC_SUFFIX: domainName('The name is itself a public suffix (`co.uk`, `github.io`).'),
  DOMAIN_RESERVED: domainName(
    'The name is under a special-use TLD (`.localhost`, `.invalid`, `.local`, …), or is the development sandbox’s sender (`sandbox.test`), which every account may use and none registers.',
  ),
  DOMAIN_TYPE_INVALID: domainName('`domainType` is neither `Transactional` nor `Marketing`.'),
  RETURN_PATH_INVALID: domainName(
    '`returnPath` is neither `true`, `false` nor one DNS label (letters, digits and inner hyphens, at most 63) such as `bounces`, or the return-path name would be longer than 253 characters.',
  ),
  TRACKING_INVALID: domainName(
    '`tracking` is neither `true`, `false` nor one DNS label such as `track`, the tracking name would be longer than 253 characters, or it is the return path’s name.',
  ),
  DOMAIN_NOT_REGISTERED: {
    status: 404,
    level: 'item',
    description: 'This account has no registration for the domain.',
  },
  DOMAIN_TYPE_CONFLICT: {
    status: 409,
    level: 'item',
    description: 'The same domain appears twice in one request with different `domainType`s.',
  },
  ACCOUNT_DOMAIN_LIMIT: {
    status: 409,
    level: 'item',
    description: 'The account already holds the maximum number of domains (10,000 by default).',
  },
  SETUP_LINK_DOMAIN_UNKNOWN: {
    status: 404,
    level: 'request',
    description: 'This account has no registration for the `domain` of a setup link.',
  },
  SETUP_LINK_UNAVAILABLE: {
    status: 409,
    level: 'request',
    description:
      'The domain’s DNS provider cannot add the records through Domain Connect (no `_domainconnect` record, no synchronous flow, or our template not supported yet), or Domain Connect is turned off here; the message says which. Publish the records by hand.',
  },
  SETUP_LINK_REDIRECT_INVALID: {
    status: 400,
    level: 'request',
    description:
      '`redirect_uri` is not an absolute `https://` URL (`http://` only for localhost) of at most 2,048 characters, or is outside `DOMAIN_CONNECT_REDIRECT_DOMAINS`.',
  },
  DKIM_ROTATION_DOMAIN_UNKNOWN: {
    status: 404,
    level: 'request',
    description: 'This account has no registration for the `domain` to rotate.',
  },
  DKIM_ROTATION_UNAVAILABLE: {
    status: 409,
    level: 'request',
    description:
      'The domain’s DKIM keys cannot rotate now: its keys are still being made (seconds after registration), one of its DKIM CNAMEs is not in its DNS, both other selectors keep retired keys for mail in flight (the message says until when), or rotation is turned off here. Nothing changed.',
  },
  LOCAL_DNS_OFF: {
    status: 403,
    level: 'request',
    description:
      'The local DNS is a development tool: it is off in production mode (`NODE_ENV=production`) and with `LOCAL_DNS_LISTEN=off`. Publish the records at the domain’s DNS provider.',
  },
  LOCAL_DNS_DOMAIN_UNKNOWN: {
    status: 404,
    level: 'request',
    description:
      'This account has no registration for the `domain` to publish in (or remove from) the local DNS.',
  },
  LOCAL_DNS_NOT_TEST: {
    status: 400,
    level: 'request',
    description:
      'Only domains under `.test` (RFC 6761: never on the Internet) can be published in the local DNS, so that it never stands in for a real domain. Register one such as `acme.test`, or publish this domain’s records at its DNS provider.',
  },
  IMAGE_MISSING: {
    status: 400,
    level: 'request',
    description: 'The upload has no `file` part (multipart fields: `file`, `fileName`, `folder`).',
  },
  IMAGE_TYPE_UNSUPPORTED: {
    status: 415,
    level: 'request',
    description: 'The file’s content is not PNG, JPEG, GIF or WebP (SVG is refused), whatever its name says.',
  },
  IMAGE_INVALID: {
    status: 400,
    level: 'request',
    description:
      'The file starts like an image but its header is truncated or invalid, or it does not decode (every upload is decoded and encoded again).',
  },
  IMAGE_TOO_LARGE: {
    status: 413,
    level: 'request',
    description: 'The file is larger than `IMAGE_MAX_BYTES` (10 MiB by default).',
  },
  IMAGE_DIMENSIONS_TOO_LARGE: {
    status: 400,
    level: 'request',
    description:
      'The image declares more pixels than `IMAGE_MAX_PIXELS` (50 million) or a side over 16,384 px: refused before decoding (decompression bombs); the decoder holds the same limit.',
  },
  ACCOUNT_IMAGE_QUOTA: {
    status: 409,
    level: 'request',
    description:
      'The upload would take the account past its image quota (`IMAGE_QUOTA_COUNT` images, 10,000 by default; `IMAGE_QUOTA_BYTES`, 1 GiB). Delete images first.',
  },
  IMAGE_NOT_FOUND: {
    status: 404,
    level: 'request',
    description:
      'No uploaded image has this name (or, for `DELETE`, this account holds no image with this `fileId`).',
  },
  TEMPLATE_NOT_FOUND: {
    status: 404,
    level: 'item',
    description:
      'This account has no template with this id (also the HTTP status of `GET /api/public/templates/{id}`).',
  },
  TEMPLATE_NAME_INVALID: {
    status: 400,
    level: 'item',
    description: 'The name is empty, longer than 200 characters or holds control characters.',
  },
  TEMPLATE_DOCUMENT_INVALID: {
    status: 400,
    level: 'item',
    description:
      'The document is not one the editor can load (unknown block, broken structure); the message says where.',
  },
  TEMPLATE_TOO_LARGE: {
    status: 413,
    level: 'item',
    description: 'The document is larger than `TEMPLATE_MAX_BYTES` (256 KiB of JSON by default).',
  },
  TEMPLATE_RENDER_TOO_LARGE: {
    status: 413,
    level: 'item',
    description:
      'Rendering this entry would take the answer past `TEMPLATE_RENDER_MAX_OUTPUT_BYTES` (4 MiB by default); render it in a request of its own.',
  },
  ACCOUNT_TEMPLATE_LIMIT: {
    status: 409,
    level: 'item',
    description: 'The account already holds the maximum number of templates (1,000 by default).',
  },
  WEBHOOK_URL_INVALID: {
    status: 400,
    level: 'request',
    description:
      'The webhook `url` is not an absolute `https://` URL without user name or password (`http://` is accepted only with `WEBHOOK_ALLOW_PRIVATE_URLS=true`).',
  },
  WEBHOOK_URL_TOO_LONG: {
    status: 400,
    level: 'request',
    description: 'The webhook `url` is longer than 2,048 characters.',
  },
  WEBHOOK_URL_FORBIDDEN: {
    status: 400,
    level: 'request',
    description:
      'The webhook `url`’s host is, or resolves to, an address that is not public: loopback, private, link-local (cloud metadata `169.254.169.254`), carrier-grade NAT, unique-local IPv6 (`fd00:ec2::254`), multicast or reserved. Every address of the host must be public.',
  },
  WEBHOOK_URL_UNRESOLVABLE: {
    status: 400,
    level: 'request',
    description: 'The webhook `url`’s host has no address in DNS.',
  },
  ACCOUNT_WEBHOOK_LIMIT: {
    status: 409,
    level: 'request',
    description:
      'The account already holds the maximum number of webhook endpoints (`MAX_WEBHOOKS_PER_ACCOUNT`, 10 by default). Delete one first.',
  },
  ACCOUNT_KEY_LIMIT: {
    status: 409,
    level: 'request',
    description: 'The account already holds 100 live API keys. Revoke one it no longer uses first.',
  },
  API_KEY_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'This account has no API key with this id.',
  },
  API_KEY_IN_USE: {
    status: 409,
    level: 'request',
    description:
      'The key to revoke is the one making the request: revoke it with another full key, or with `npm run cli -- keys revoke` on the server.',
  },
  WEBHOOK_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'This account has no webhook endpoint with this id.',
  },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'The webhook endpoint has no delivery with this id.',
  },
  EMAIL_ADDRESS_INVALID: {
    status: 400,
    level: 'request',
    description:
      'An address in `from`, `to`, `cc`, `bcc` or `replyTo` is not one we can send to (one address per entry, an ASCII local part of at most 64 characters, a valid domain, no line breaks); the message names the field.',
  },
  EMAIL_FROM_NOT_VERIFIED: {
    status: 403,
    level: 'request',
    description:
      'The `from` address’s domain is not a verified domain of this account: register it, publish its records and wait for `verified`.',
  },
  EMAIL_FROM_NOT_ALLOWED: {
    status: 403,
    level: 'request',
    description:
      'The API key is limited to some domains (`domains` at its creation) and `from` is on another: send with a key of that domain, or a key not limited.',
  },
  EMAIL_SANDBOX_OFF: {
    status: 403,
    level: 'request',
    description:
      '`from` is at `sandbox.test`, the development sandbox, and the service runs in production mode (`NODE_ENV=production`), where the sandbox is off. Send from a verified domain.',
  },
  EMAIL_SANDBOX_RECIPIENT: {
    status: 400,
    level: 'request',
    description:
      'From `sandbox.test`, mail goes only to the simulator: `delivered@`, `bounced@` and `complained@sandbox.test`, each with an optional `+label`. The message names the first other address.',
  },
  EMAIL_TOO_MANY_RECIPIENTS: {
    status: 400,
    level: 'request',
    description:
      '`to`, `cc` and `bcc` together hold more addresses than `MAX_RECIPIENTS_PER_EMAIL` (50 by default).',
  },
  EMAIL_CONTENT_MISSING: {
    status: 400,
    level: 'request',
    description: 'Give exactly one of `html` and `templateId`.',
  },
  EMAIL_HEADER_INVALID: {
    status: 400,
    level: 'request',
    description:
      'A `headers` entry has an invalid name, a value with a line break or over 998 characters, or names a header the service sets itself (From, To, Subject, Date, Message-ID, `Content-*`, `DKIM-*`…) or that only mail servers on the way write (`Received*`, `Return-Path`, `Authentication-Results`, `ARC-*`, `Resent-*`…); the table is in the API guide.',
  },
  EMAIL_ATTACHMENT_INVALID: {
    status: 400,
    level: 'request',
    description:
      'An `attachments` entry is malformed: a `filename` with a slash or a control character, `content` that is not base64, a `contentType` that is not a media type, or a `contentId` with spaces, quotes or angle brackets (or given twice); the message names the entry.',
  },
  EMAIL_ATTACHMENT_BLOCKED: {
    status: 400,
    level: 'request',
    description:
      'An attachment is a file type mailbox providers refuse: by extension (Gmail’s list: `.exe`, `.js`, `.bat`, `.msi`, `.iso`…), an executable whatever its name (Windows, Linux, macOS), or a ZIP archive holding such a file. Send a link instead.',
  },
  EMAIL_TOO_LARGE: {
    status: 413,
    level: 'request',
    description:
      'The message is larger than `MAX_EMAIL_BYTES` (5 MiB by default): its `html`, `text` and attachments (decoded) already (refused before any conversion), or once composed.',
  },
  EMAIL_HTML_TOO_DEEP: {
    status: 400,
    level: 'request',
    description:
      'The `html` nests elements so deeply (hundreds of thousands of levels) that it cannot be converted into the text part; flatten it, or give `text` yourself.',
  },
  EMAIL_SCHEDULE_INVALID: {
    status: 400,
    level: 'request',
    description:
      '`scheduledAt` is more than 30 days ahead. (A time that is not RFC 3339 with a zone is `REQUEST_INVALID`; a time not in the future sends at once.)',
  },
  EMAIL_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'This account has no message with this id.',
  },
  EMAIL_CONTENT_EXPIRED: {
    status: 410,
    level: 'request',
    description:
      'The message’s body was deleted past `EMAIL_RETENTION_DAYS` (30 by default); its status, recipients and events remain until `EMAIL_EVENT_RETENTION_DAYS`.',
  },
  EMAIL_NOT_SCHEDULED: {
    status: 409,
    level: 'request',
    description:
      'The message is not waiting for its scheduled time, so it can no longer be canceled or moved: it was sent at once, its sending has begun, or it was canceled.',
  },
  SANDBOX_MESSAGE_NOT_FOUND: {
    status: 404,
    level: 'request',
    description:
      'The sandbox’s capture inbox of this account has no message with this id (it keeps the newest 1,000).',
  },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    level: 'request',
    description:
      'The `Idempotency-Key` header is empty, longer than 255 characters or holds characters other than printable ASCII.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    level: 'request',
    description:
      'This `Idempotency-Key` was used before with a different request body; a retry must send the same body (or use a new key for a new message).',
  },
  ACCOUNT_SENDING_RATE: {
    status: 429,
    level: 'request',
    description:
      'The account submitted `MAX_EMAILS_PER_MINUTE` messages (600 by default) in the current clock minute; retry after the `Retry-After` header’s seconds (the next minute).',
  },
  SUPPRESSION_NOT_FOUND: {
    status: 404,
    level: 'request',
    description: 'The address is not on this account’s suppression list.',
  },
} as const satisfies Record<string, CatalogueEntry> & Record<DomainNameErrorCode, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The `error` member of an envelope. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** For REQUEST_INVALID: each schema problem. */
  details?: { path: string; message: string }[];
  /** For INTERNAL_ERROR: the id to quote when reporting it. */
  requestId?: string;
}

/** An error that becomes a request-level envelope when thrown from a route. */
export class ApiError extends Error {
  readonly status: number;
  /** Seconds for the `Retry-After` header (429 and 503 answers). */
  retryAfter?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ApiErrorBody['details'],
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}
