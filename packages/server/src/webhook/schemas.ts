/**
 * The webhook shapes (issue 20), written once with TypeBox: endpoints and deliveries as the
 * API answers them, and the event body endpoints receive. The routes validate and document
 * with them; the services' types derive from them. Layer-neutral, as `views.ts`.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { BounceTypeSchema } from '../email/schemas.js';
import { MACHINE_REASONS } from '../email/tracking.js';
import { DomainResultSchema, VerificationStatusSchema } from '../views.js';
import { DOMAIN_EVENT_TYPES, EMAIL_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './events.js';

const dateTime = (description: string) => Type.String({ format: 'date-time', description });
const nullableDateTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const WebhookEventTypeSchema = Type.Union(
  WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)),
  {
    description:
      '`domain.created` (registered), `domain.updated` (the domain’s or a record’s status changed), `domain.verified` (the domain became verified; sent after its `domain.updated`), `domain.deleted`, `domain.dkim_rotated` (signing moved to the next DKIM selector: `dkim` shows the new roles); ' +
      '`email.sent` (the next hop, a relay or the recipient’s MX, took a message for a recipient), `email.delivered` (the recipient’s MX took it: direct delivery only), `email.deferred` (a 4xx or no answer; it will be retried), `email.bounced` (a 5xx, or a bounce (DSN) that came back to the return path later, with `bounceType`: only `hard` suppresses the address), `email.complained` (a recipient reported the message as spam, through their provider’s feedback loop: the address is suppressed for the message’s stream), `email.failed` (not sent: retries ran out, or it could not be signed), `email.opened` and `email.clicked` (a tracked message was opened or a tracked link followed, issue 37; `machine` says when a machine did it).',
  },
);

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(WebhookEventTypeSchema),
    createdAt: dateTime('When the endpoint was added.'),
    disabledAt: nullableDateTime(
      'When deliveries stopped because every attempt failed for 5 days (`WEBHOOK_DISABLE_AFTER_MS`); `null` while enabled. `POST /api/public/webhooks/{id}/enable` resumes them.',
    ),
    failingSince: nullableDateTime('Since when every attempt has failed; `null` after any success.'),
  },
  { $id: 'WebhookEndpoint', additionalProperties: false },
);

export const CreatedWebhookSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({
      description:
        'The signing secret, `whsec_<base64>` (Standard Webhooks). Shown only in this answer: store it to verify `webhook-signature`.',
    }),
  },
  { $id: 'CreatedWebhook', additionalProperties: false },
);

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'The event’s id, sent as `webhook-id` on every attempt.' }),
    event: WebhookEventTypeSchema,
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
      description: '`failed`: no attempt succeeded within the retry window (3 days by default).',
    }),
    attempts: Type.Integer(),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'The HTTP status of the last attempt; `null` when none came (timeout, connection refused).',
    }),
    lastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.' }),
    lastAttemptAt: nullableDateTime('When the last attempt ended.'),
    nextAttemptAt: nullableDateTime('When the next attempt is due; `null` once delivered or failed.'),
    createdAt: dateTime('When the event happened.'),
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
);

export const CreateWebhookBodySchema = Type.Object(
  {
    url: Type.String({
      description:
        'Where events are POSTed: `https://`, at most 2,048 characters, resolving only to public addresses.',
      examples: ['https://hooks.example.com/domains'],
    }),
    events: Type.Optional(
      Type.Array(WebhookEventTypeSchema, {
        maxItems: WEBHOOK_EVENT_TYPES.length * 2,
        description: 'Default: all.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The statuses before the change: the domain's, and each record's by `fqdn`. */
export const PreviousStatusesSchema = Type.Union(
  [
    Type.Object(
      {
        status: Type.Ref(VerificationStatusSchema),
        records: Type.Array(
          Type.Object(
            { fqdn: Type.String(), status: Type.Ref(VerificationStatusSchema) },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'The statuses before the change (`domain.updated`, `domain.verified`); `null` for `domain.created`, `domain.deleted` and `domain.dkim_rotated`.',
  },
);

/** The body of every webhook request. */
export const WebhookEventBodySchema = Type.Object(
  {
    type: Type.Union(DOMAIN_EVENT_TYPES.map((t) => Type.Literal(t))),
    createdAt: dateTime('When the change happened.'),
    data: Type.Object(
      { ...DomainResultSchema.properties, previous: PreviousStatusesSchema },
      {
        additionalProperties: false,
        description:
          'The domain result as `POST /api/public/domain/status` returns it, as it was at the event, plus `previous`.',
      },
    ),
  },
  { $id: 'WebhookEvent', additionalProperties: false },
);

/** The body of `email.*` events: one recipient's attempt of one message. */
export const EmailWebhookEventSchema = Type.Object(
  {
    type: Type.Union(EMAIL_EVENT_TYPES.map((t) => Type.Literal(t))),
    createdAt: dateTime('When the attempt ended.'),
    data: Type.Object(
      {
        id: Type.String({ description: 'The message’s id: `GET /api/public/emails/{id}`.' }),
        from: Type.String(),
        subject: Type.String(),
        tags: Type.Array(
          Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
        ),
        recipient: Type.String(),
        smtpCode: Type.Union([Type.Integer(), Type.Null()], {
          description: 'The SMTP reply code, `null` when none came.',
        }),
        smtpText: Type.Union([Type.String(), Type.Null()]),
        mxHost: Type.Union([Type.String(), Type.Null()], {
          description: 'The host that answered (the relay, with `SMTP_RELAY_URL`).',
        }),
        attempts: Type.Integer(),
        bounceType: Type.Optional(BounceTypeSchema),
        diagnosticCode: Type.Optional(
          Type.Union([Type.String(), Type.Null()], {
            description:
              '`email.bounced`: the enhanced status code (RFC 3463) such as `5.1.1`, `null` when none came.',
          }),
        ),
        suppressed: Type.Optional(
          Type.Boolean({
            description:
              '`email.bounced`: whether the address went on the suppression list (a hard bounce); `email.complained`: always (for the message’s stream).',
          }),
        ),
        feedbackType: Type.Optional(
          Type.String({
            description:
              '`email.complained`: the complaint report’s `Feedback-Type` (RFC 5965): `abuse`, `fraud`, `virus`, `other`.',
          }),
        ),
        url: Type.Optional(Type.String({ description: '`email.clicked`: the link followed.' })),
        machine: Type.Optional(
          Type.Boolean({
            description:
              '`email.opened` and `email.clicked`: whether a machine did it rather than a person, as far as the request tells (`machineReason` says why).',
          }),
        ),
        machineReason: Type.Optional(
          Type.Union([Type.Union(MACHINE_REASONS.map((r) => Type.Literal(r))), Type.Null()], {
            description:
              '`apple_privacy_protection` (Apple Mail loads every image through a proxy, whether the message is read or not), `security_scanner` (a mail gateway or program fetched it, by its user agent), `head_request` (a link checked, not followed), `too_soon` (a link followed within 10 s of the copy leaving: a gateway scanning mail as it arrives)',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'EmailWebhookEvent', additionalProperties: false },
);

/**
 * Registered with Fastify under their `$id` and published as OpenAPI components, so the typed
 * client names them and the four event entries share one body schema.
 */
export const WEBHOOK_SCHEMAS = [
  WebhookEndpointSchema,
  CreatedWebhookSchema,
  WebhookDeliverySchema,
  WebhookEventBodySchema,
  EmailWebhookEventSchema,
];

/** `{data, error: null, status: 200}` around `data`. */
export function dataEnvelope(data: TSchema) {
  return Type.Object(
    { data, error: Type.Null(), status: Type.Literal(200) },
    { additionalProperties: false },
  );
}

export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;
export type CreatedWebhookView = Static<typeof CreatedWebhookSchema>;
export type WebhookDeliveryView = Static<typeof WebhookDeliverySchema>;
