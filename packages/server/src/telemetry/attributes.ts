/**
 * The attribute names our spans carry. Where OpenTelemetry's semantic conventions name one, it
 * is theirs (`tracing.test.ts` checks each against `@opentelemetry/semantic-conventions`), so a
 * tracing backend's HTTP, database and DNS views read them; the rest are ours, under names that
 * do not collide with the conventions'. Spelled here rather than imported from that package so
 * that instrumented code loads nothing when tracing is off.
 *
 * What no attribute ever holds: API keys, URLs with their paths and query strings (a route's
 * pattern stands for them), SQL parameter values, an address's local part, a message's body.
 */
export const ATTR = {
  // conventions (stable)
  HTTP_REQUEST_METHOD: 'http.request.method',
  HTTP_ROUTE: 'http.route',
  HTTP_RESPONSE_STATUS_CODE: 'http.response.status_code',
  URL_SCHEME: 'url.scheme',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
  ERROR_TYPE: 'error.type',
  DB_SYSTEM_NAME: 'db.system.name',
  DB_QUERY_TEXT: 'db.query.text',
  DB_OPERATION_NAME: 'db.operation.name',
  DB_COLLECTION_NAME: 'db.collection.name',
  // conventions (incubating)
  DNS_QUESTION_NAME: 'dns.question.name',
  // ours
  /** The request's id, as in its log lines' `reqId` and its `X-Request-Id` response header. */
  REQUEST_ID: 'request.id',
  /** The DNS question's type (`TXT`); the conventions name only the question's name. */
  DNS_QUESTION_TYPE: 'dns.question.type',
  /** How many records answered. */
  DNS_ANSWER_COUNT: 'dns.answer.count',
  /** The SMTP reply code the attempt ended on (`250`, `451`, `550`); absent when none came. */
  SMTP_REPLY_CODE: 'smtp.reply.code',
  /** The attempt's outcome: `sent`, `deferred`, `bounced`, `failed`. */
  EMAIL_OUTCOME: 'email.outcome',
  /** The recipient's domain (never its local part). */
  EMAIL_RECIPIENT_DOMAIN: 'email.recipient.domain',
  /** The webhook event's type (`domain.verified`). */
  WEBHOOK_EVENT_TYPE: 'webhook.event.type',
  /** The attempt's outcome: `delivered`, `retry`, `failed`. */
  WEBHOOK_OUTCOME: 'webhook.outcome',
} as const;
