/**
 * The sending shapes (issue 21), written once with TypeBox: the request body, the message as
 * `GET /api/public/emails/{id}` answers it, and a suppression. The route validates and
 * documents with them; the service's input type derives from them. Layer-neutral, as
 * `webhook/schemas.ts`.
 */
import { type Static, Type } from '@sinclair/typebox';
import { EMAIL_STATUSES } from './status.js';
import { MACHINE_REASONS } from './tracking.js';

const addresses = (description: string) =>
  Type.Array(Type.String({ maxLength: 512 }), { maxItems: 1000, description });

export const SendEmailBodySchema = Type.Object(
  {
    from: Type.String({
      maxLength: 512,
      description: 'An address on a verified domain of this account, e.g. `Ann <ann@mail.example.com>`.',
      examples: ['Ann <ann@mail.example.com>'],
    }),
    to: Type.Array(Type.String({ maxLength: 512 }), {
      minItems: 1,
      maxItems: 1000,
      examples: [['bob@example.org']],
    }),
    cc: Type.Optional(addresses('Copied recipients, shown in the `Cc` header.')),
    bcc: Type.Optional(addresses('Blind copies: in the SMTP envelope only, never in a header.')),
    replyTo: Type.Optional(Type.Union([Type.String({ maxLength: 512 }), addresses('Reply-To addresses.')])),
    subject: Type.String({ maxLength: 998, examples: ['Your receipt'] }),
    html: Type.Optional(Type.String({ description: 'The HTML body; give this or `templateId`.' })),
    text: Type.Optional(
      Type.String({
        description:
          'The plain-text body. Default: the editor’s plain-text rendering of the template, or a text rendering of `html`.',
      }),
    ),
    templateId: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'A stored template, rendered by the editor’s own renderer.',
      }),
    ),
    variables: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Merge variables for `templateId`.' }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'Extra header fields (not those the service sets: From, To, Subject, Date, Message-ID…).',
      }),
    ),
    tags: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ maxLength: 256 }), value: Type.String({ maxLength: 256 }) },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    attachments: Type.Optional(
      Type.Array(
        Type.Object(
          {
            filename: Type.String({ maxLength: 255, examples: ['invoice-1234.pdf'] }),
            content: Type.String({
              description: 'The file, base64 (RFC 4648); counted in `MAX_EMAIL_BYTES` once decoded.',
              examples: ['JVBERi0xLjQK'],
            }),
            contentType: Type.Optional(
              Type.String({
                maxLength: 255,
                description: 'Its media type; by default, from the file name’s extension.',
                examples: ['application/pdf'],
              }),
            ),
            contentId: Type.Optional(
              Type.String({
                maxLength: 252,
                description: 'Makes the file an inline part, shown where the HTML says `<img src="cid:…">`.',
                examples: ['logo@shop'],
              }),
            ),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 50,
          description:
            'Files sent with the message. Types mailbox providers refuse (`.exe`, `.js`, `.bat`… by name, executables by content, and such files in a ZIP) are refused with `EMAIL_ATTACHMENT_BLOCKED`.',
        },
      ),
    ),
    scheduledAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Send at this time (RFC 3339 with a zone, up to 30 days ahead) instead of at once; the message is `scheduled` until then, can be canceled (`POST /api/public/emails/{id}/cancel`) or moved (`PATCH /api/public/emails/{id}`), and is dated when it goes. A time not in the future sends at once.',
        examples: ['2026-12-01T09:00:00Z'],
      }),
    ),
    tracking: Type.Optional(
      Type.Object(
        {
          opens: Type.Optional(
            Type.Boolean({ description: 'An invisible pixel says when the message is opened.' }),
          ),
          clicks: Type.Optional(
            Type.Boolean({
              description: 'Links go through the domain’s tracking host, which says when one is followed.',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'Open and click tracking for this message, over the domain’s default: Marketing mail from a domain registered with `tracking` is tracked once its tracking record is verified, Transactional mail only when asked here. Needs the tracking record verified (or, without `TRACKING_LISTEN`, goes through `PUBLIC_URL`); the message’s `tracking` says what applied. `email.opened` and `email.clicked` events follow.',
        },
      ),
    ),
  },
  { $id: 'SendEmailBody', additionalProperties: false },
);

const recipientStatus = Type.Union(
  ['scheduled', 'queued', 'sending', 'sent', 'deferred', 'bounced', 'failed', 'suppressed', 'canceled'].map(
    (s) => Type.Literal(s),
  ),
);

const scheduledAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'When a scheduled message goes (or went); `null` for one sent at once.',
});

/** What a refusal says about the address (`email/bounce.ts`). */
export const BounceTypeSchema = Type.Union(
  ['hard', 'soft', 'block', 'undetermined'].map((t) => Type.Literal(t)),
  {
    description:
      'For a bounce: `hard` (the address or its domain does not exist: 5.1.x, 5.2.1; the address is suppressed), `soft` (full mailbox 5.2.2, too large, a temporary state), `block` (the receiver refused the sender or the content: 5.7.x, blocklists; the address is good and is not suppressed), `undetermined` (a refusal that says neither).',
  },
);

export const EmailSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(
      EMAIL_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          '`scheduled` (waiting for its `scheduledAt`), `queued` (no attempt yet), `sending`, `deferred` (a recipient waits for a retry), `sent` (every recipient accepted by the next hop, or some and the rest refused), `bounced` (every recipient refused), `failed` (none could be sent), `canceled` (canceled while scheduled).',
      },
    ),
    from: Type.String(),
    subject: Type.String(),
    tags: Type.Array(
      Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    scheduledAt,
    tracking: Type.Object(
      { opens: Type.Boolean(), clicks: Type.Boolean() },
      { additionalProperties: false, description: 'What is tracked in this message.' },
    ),
    recipients: Type.Array(
      Type.Object(
        {
          address: Type.String(),
          kind: Type.Union([Type.Literal('to'), Type.Literal('cc'), Type.Literal('bcc')]),
          status: recipientStatus,
          attempts: Type.Integer(),
          nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          events: Type.Array(
            Type.Object(
              {
                type: Type.Union(
                  [
                    'sent',
                    'delivered',
                    'deferred',
                    'bounced',
                    'failed',
                    'suppressed',
                    'complained',
                    'canceled',
                    'opened',
                    'clicked',
                  ].map((s) => Type.Literal(s)),
                ),
                smtpCode: Type.Union([Type.Integer(), Type.Null()]),
                smtpText: Type.Union([Type.String(), Type.Null()]),
                mxHost: Type.Union([Type.String(), Type.Null()]),
                bounceType: Type.Optional(BounceTypeSchema),
                url: Type.Optional(Type.String({ description: '`clicked`: the link followed.' })),
                machineReason: Type.Optional(
                  Type.Union([Type.Union(MACHINE_REASONS.map((r) => Type.Literal(r))), Type.Null()], {
                    description:
                      '`opened` and `clicked`: why a machine did it rather than a person (see the `email.opened` webhook); `null`: nothing says so.',
                  }),
                ),
                at: Type.String({ format: 'date-time' }),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'Email', additionalProperties: false },
);

export const SuppressionSchema = Type.Object(
  {
    address: Type.String(),
    reason: Type.String({
      description: 'The refusal that put it here (SMTP code and text, the code once), or `unsubscribed`.',
    }),
    scope: Type.Union(
      ['all', 'Marketing', 'Transactional'].map((t) => Type.Literal(t)),
      {
        description:
          'The mail it stops: `all` (a hard bounce, or a recipient who asked to receive nothing), or the one stream the recipient left, the From domain’s type (an unsubscribe from Marketing mail stops Marketing mail only; password resets from the account’s Transactional domains still arrive).',
      },
    ),
    emailId: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Suppression', additionalProperties: false },
);

/** A message as `GET /api/public/emails` lists it. */
export const ListedEmailSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(
      EMAIL_STATUSES.map((s) => Type.Literal(s)),
      {
        description: 'As `GET /api/public/emails/{id}` gives it, from its recipients’.',
      },
    ),
    from: Type.String(),
    to: Type.Array(Type.String(), {
      description:
        'Its first 10 envelope recipients (to, then cc, then bcc); `GET /api/public/emails/{id}` has them all.',
    }),
    subject: Type.String(),
    tags: Type.Array(
      Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    scheduledAt,
  },
  { $id: 'ListedEmail', additionalProperties: false },
);

/** A message's content as `GET /api/public/emails/{id}/content` gives it. */
export const EmailContentSchema = Type.Object(
  {
    id: Type.String(),
    subject: Type.String(),
    headers: Type.Array(
      Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
      {
        description:
          'The header fields in order, unfolded, as stored: every recipient gets these, after the DKIM-Signature added at each attempt.',
      },
    ),
    html: Type.Union([Type.String(), Type.Null()], {
      description: 'The HTML part, decoded; null without one.',
    }),
    text: Type.Union([Type.String(), Type.Null()], {
      description: 'The text part, decoded; null without one.',
    }),
  },
  { $id: 'EmailContent', additionalProperties: false },
);

/** Registered with Fastify under their `$id` and published as OpenAPI components. */
export const EMAIL_SCHEMAS = [
  SendEmailBodySchema,
  EmailSchema,
  SuppressionSchema,
  ListedEmailSchema,
  EmailContentSchema,
];

export type SendEmailInput = Static<typeof SendEmailBodySchema>;
