/**
 * The sending routes (issue 21): submit a message, read what became of it, and the account's
 * suppression list. Full keys only (scope `emails`, which no browser key can hold). The
 * one-click unsubscribe routes (`/unsubscribe/{token}`) are public: the token is the credential.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { EmailService } from '../../service/email-service.js';
import type { Store } from '../../store/store.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, requestErrorResponses } from '../schemas.js';

export interface EmailRoutesOptions {
  store: Store;
  service: EmailService;
  /** The largest request body: the message's limit plus room for JSON escaping. */
  bodyLimit: number;
}

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
  },
  { $id: 'SendEmailBody', additionalProperties: false },
);

const recipientStatus = Type.Union(
  ['queued', 'sending', 'sent', 'deferred', 'bounced', 'failed', 'suppressed'].map((s) => Type.Literal(s)),
);

export const EmailSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(
      ['queued', 'sending', 'sent', 'deferred', 'bounced', 'failed'].map((s) => Type.Literal(s)),
      {
        description:
          '`queued` (no attempt yet), `sending`, `deferred` (a recipient waits for a retry), `sent` (every recipient accepted by the next hop, or some and the rest refused), `bounced` (every recipient refused), `failed` (none could be sent).',
      },
    ),
    from: Type.String(),
    subject: Type.String(),
    tags: Type.Array(
      Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
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
                  ['sent', 'delivered', 'deferred', 'bounced', 'failed', 'suppressed'].map((s) =>
                    Type.Literal(s),
                  ),
                ),
                smtpCode: Type.Union([Type.Integer(), Type.Null()]),
                smtpText: Type.Union([Type.String(), Type.Null()]),
                mxHost: Type.Union([Type.String(), Type.Null()]),
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
      description: 'The refusal that put it here (SMTP code and text), or `unsubscribed`.',
    }),
    emailId: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Suppression', additionalProperties: false },
);

export const EMAIL_SCHEMAS = [SendEmailBodySchema, EmailSchema, SuppressionSchema];

const errors = {
  ...requestErrorResponses,
  403: Type.Ref(ErrorEnvelopeSchema),
  404: Type.Ref(ErrorEnvelopeSchema),
  409: Type.Ref(ErrorEnvelopeSchema),
  413: Type.Ref(ErrorEnvelopeSchema),
};
const ok = <T>(data: T) => ({ data, error: null, status: 200 as const });

export async function emailRoutes(app: FastifyInstance, options: EmailRoutesOptions): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'emails' });
  const { service } = options;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/emails',
    {
      bodyLimit: options.bodyLimit,
      schema: {
        tags: ['Sending'],
        summary: 'Send an email from a verified domain',
        description:
          'Queues the message and answers at once; `GET /api/public/emails/{id}` tells what became of it. ' +
          'It is DKIM-signed with the domain’s active selector (aligned with `From`, so it passes DMARC), and carries `Message-ID`, `Date`, and for Marketing domains a one-click `List-Unsubscribe`. ' +
          'With an `Idempotency-Key` header, a retry of the same request answers the same message instead of sending twice.',
        body: Type.Ref(SendEmailBodySchema),
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 1024 })) }),
        response: {
          200: dataEnvelope(
            Type.Object(
              { id: Type.String(), status: Type.Literal('queued') },
              { additionalProperties: false },
            ),
          ),
          ...errors,
        },
      },
    },
    async (request) =>
      ok(
        await service.send(
          request.apiKey!.accountId,
          request.body as never,
          request.headers['idempotency-key'],
        ),
      ),
  );

  api.get(
    '/emails/:id',
    {
      schema: {
        tags: ['Sending'],
        summary: 'What became of a message',
        description: 'Its status, and each recipient’s with every attempt’s SMTP answer.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: dataEnvelope(Type.Ref(EmailSchema)), ...errors },
      },
    },
    async (request) => ok(await service.get(request.apiKey!.accountId, request.params.id)),
  );

  api.get(
    '/suppressions',
    {
      schema: {
        tags: ['Sending'],
        summary: 'The account’s suppressed addresses',
        description:
          'Addresses that hard-bounced or unsubscribed: later messages to them are not sent to them (their recipient status is `suppressed`). By address, 100 a page; pass the last address as `after`.',
        querystring: Type.Object(
          { after: Type.Optional(Type.String({ maxLength: 320 })) },
          { additionalProperties: false },
        ),
        response: { 200: dataEnvelope(Type.Array(Type.Ref(SuppressionSchema))), ...errors },
      },
    },
    async (request) => ok(await service.suppressions(request.apiKey!.accountId, request.query.after)),
  );

  api.delete(
    '/suppressions/:address',
    {
      schema: {
        tags: ['Sending'],
        summary: 'Remove an address from the suppression list',
        params: Type.Object({ address: Type.String({ maxLength: 320 }) }, { additionalProperties: false }),
        response: {
          200: dataEnvelope(
            Type.Object(
              { address: Type.String(), deleted: Type.Literal(true) },
              { additionalProperties: false },
            ),
          ),
          ...errors,
        },
      },
    },
    async (request) => ok(await service.removeSuppression(request.apiKey!.accountId, request.params.address)),
  );
}
