/**
 * The API's schemas, written once with TypeBox. They validate requests, type the routes'
 * bodies and answers (the app's TypeBox type provider), and generate `/openapi.json`, from
 * which the client's types come. Answers are serialised with plain JSON.stringify (app.ts);
 * tests check every answer against the document.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { ERROR_CODES } from '../errors.js';
import {
  DkimSelectorSchema,
  DkimStatusSchema,
  DnsProviderSchema,
  DnsRecordSchema,
  DomainConnectSchema,
  DomainHistorySchema,
  DomainResultSchema,
  ProviderHintSchema,
  StatusEventSchema,
  VerificationStatusSchema,
} from '../views.js';

export {
  DnsRecordSchema,
  DomainHistorySchema,
  DomainResultSchema,
  StatusEventSchema,
  VerificationStatusSchema,
};

export const ApiErrorSchema = Type.Object(
  {
    code: Type.Union(
      ERROR_CODES.map((c) => Type.Literal(c)),
      { description: 'Stable machine-readable code; see the error catalogue.' },
    ),
    message: Type.String({ description: 'What went wrong, for humans.' }),
    details: Type.Optional(
      Type.Array(
        Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false }),
      ),
    ),
    requestId: Type.Optional(Type.String()),
  },
  { $id: 'ApiError', additionalProperties: false },
);

/** A request-level error: the HTTP status, and one envelope as the body. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    data: Type.Null(),
    error: Type.Ref(ApiErrorSchema),
    status: Type.Integer(),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);

/**
 * One element of a 200 array: `data` (a result) or an item-level `error`, and the item's
 * status. Every per-item route of the API answers an array of these.
 */
export function itemEnvelope($id: string, data: TSchema, status: TSchema = Type.Integer()) {
  return Type.Object(
    {
      data: Type.Union([data, Type.Null()]),
      error: Type.Union([Type.Ref(ApiErrorSchema), Type.Null()]),
      status,
    },
    { $id, additionalProperties: false },
  );
}

/** A page of a listing: the items under `key`, and the cursor of the next page. */
export function pageSchema($id: string, key: string, item: TSchema) {
  return Type.Object(
    {
      data: Type.Object(
        {
          [key]: Type.Array(item),
          nextCursor: Type.Union([Type.String(), Type.Null()], {
            description: 'Pass as `cursor` to get the next page; `null` on the last page.',
          }),
        },
        { additionalProperties: false },
      ),
      error: Type.Null(),
      status: Type.Literal(200),
    },
    { $id, additionalProperties: false },
  );
}

export const DomainEnvelopeSchema = itemEnvelope(
  'DomainEnvelope',
  Type.Ref(DomainResultSchema),
  Type.Integer({ description: '200 on success, else the item’s error status (400, 404, 409).' }),
);

export const HistoryEnvelopeSchema = itemEnvelope('HistoryEnvelope', Type.Ref(DomainHistorySchema));

export const DeletedDomainSchema = Type.Object(
  { domain: Type.String(), deleted: Type.Literal(true) },
  { $id: 'DeletedDomain', additionalProperties: false },
);

export const DeleteEnvelopeSchema = itemEnvelope('DeleteEnvelope', Type.Ref(DeletedDomainSchema));

export const DomainPageSchema = pageSchema('DomainPage', 'domains', Type.Ref(DomainResultSchema));

export const SetupLinkEnvelopeSchema = Type.Object(
  {
    data: Type.Object(
      {
        domain: Type.String(),
        providerName: Type.Union([Type.String(), Type.Null()], {
          description: 'The DNS provider as its Domain Connect settings name it.',
        }),
        url: Type.String({
          format: 'uri',
          description:
            'Open it in the customer’s browser (a new window or a redirect); it is signed, so it cannot be altered.',
        }),
      },
      { additionalProperties: false },
    ),
    error: Type.Null(),
    status: Type.Literal(200),
  },
  { $id: 'SetupLinkEnvelope', additionalProperties: false },
);

export const DkimRotationEnvelopeSchema = Type.Object(
  {
    data: Type.Object(
      {
        domain: Type.String(),
        dkim: Type.Ref(DkimStatusSchema, {
          description:
            'The selectors as they stand, with `rotationRequestedAt` set and `nextRotationAt` the planned switch: at once when the next key has been served long enough, otherwise once it has (the key zone’s TTL plus a few seconds).',
        }),
      },
      { additionalProperties: false },
    ),
    error: Type.Null(),
    status: Type.Literal(200),
  },
  { $id: 'DkimRotationEnvelope', additionalProperties: false },
);

/** Schemas registered with Fastify under their `$id`, and published as OpenAPI components. */
export const SHARED_SCHEMAS: TSchema[] = [
  VerificationStatusSchema,
  ProviderHintSchema,
  DnsProviderSchema,
  DomainConnectSchema,
  DkimSelectorSchema,
  DkimStatusSchema,
  DnsRecordSchema,
  DomainResultSchema,
  ApiErrorSchema,
  ErrorEnvelopeSchema,
  DomainEnvelopeSchema,
  StatusEventSchema,
  DomainHistorySchema,
  HistoryEnvelopeSchema,
  DeletedDomainSchema,
  DeleteEnvelopeSchema,
  DomainPageSchema,
  SetupLinkEnvelopeSchema,
  DkimRotationEnvelopeSchema,
];

/** The query of a listing: page size and the cursor of the page to read. */
export const ListQuerySchema = Type.Object(
  {
    // Query strings are text; the pattern keeps validation strict without type coercion.
    limit: Type.Optional(
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'Page size, 1–100 (default 50).' }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);

/** Request bodies depend on the configured batch limit. */
export function requestSchemas(maxItems: number) {
  // No maxLength on names or types: the body limit bounds them, and an overlong one is an
  // item-level error (DOMAIN_TOO_LONG, DOMAIN_TYPE_INVALID) that leaves its neighbours alone.
  const domainName = Type.String({
    description: 'A fully qualified domain or subdomain name.',
    examples: ['mail.example.com'],
  });
  return {
    registerBody: Type.Object(
      {
        domains: Type.Array(
          Type.Object(
            {
              domain: domainName,
              // a string, not an enum: a wrong type is that entry's error (DOMAIN_TYPE_INVALID), not the batch's
              domainType: Type.String({
                description: '`Transactional` or `Marketing` (case-insensitive).',
                examples: ['Transactional', 'Marketing'],
              }),
              returnPath: Type.Optional(
                Type.Union([Type.Boolean(), Type.String()], {
                  description:
                    'Ask for a return-path (bounce) domain: `true` for `bounces.<domain>`, or the label to use instead (`"rp"` for `rp.<domain>`). Its CNAME joins the records (a fifth record, with its own status: `verified` does not wait for it); mail from the domain then carries an envelope sender there, so SPF passes aligned and bounces and complaints come back. Given again for a registered domain, it adds (or renames) the record; left out, nothing changes.',
                  examples: [true, 'bounces'],
                }),
              ),
              tracking: Type.Optional(
                Type.Union([Type.Boolean(), Type.String()], {
                  description:
                    'Ask for a tracking host for open and click tracking: `true` for `track.<domain>`, or the label to use instead. Its CNAME joins the records (after the return path’s, with its own status: `verified` does not wait for it). Once it is verified, Marketing mail from the domain is tracked, and Transactional mail when a send asks (`tracking` in the send body). Given again for a registered domain, it adds (or renames) the record; left out, nothing changes.',
                  examples: [true, 'track'],
                }),
              ),
            },
            { additionalProperties: false },
          ),
          { maxItems, description: `At most ${maxItems} entries.` },
        ),
      },
      {
        additionalProperties: false,
        // The example /docs fills in: the spec's own body (a return path is asked for explicitly).
        examples: [{ domains: [{ domain: 'mail.example.com', domainType: 'Transactional' }] }],
      },
    ),
    namesBody: Type.Object(
      { domains: Type.Array(domainName, { maxItems, description: `At most ${maxItems} names.` }) },
      { additionalProperties: false },
    ),
    listQuery: ListQuerySchema,
  };
}

/** Responses every authenticated route can give besides its 200. */
export const requestErrorResponses = {
  400: Type.Ref(ErrorEnvelopeSchema),
  401: Type.Ref(ErrorEnvelopeSchema),
  403: Type.Ref(ErrorEnvelopeSchema),
  413: Type.Ref(ErrorEnvelopeSchema),
  415: Type.Ref(ErrorEnvelopeSchema),
  429: Type.Ref(ErrorEnvelopeSchema),
  500: Type.Ref(ErrorEnvelopeSchema),
  503: Type.Ref(ErrorEnvelopeSchema),
};
