/**
 * The API's schemas, written once with TypeBox. They validate requests, drive response
 * serialisation, and generate `/openapi.json` (from which the client's types come).
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { DOMAIN_TYPES } from '../domain/domain-type.js';
import { ERROR_CODES } from '../errors.js';

export const VerificationStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('verified')], {
  $id: 'VerificationStatus',
  description: 'State of a domain or of one record.',
});

export const DnsRecordSchema = Type.Object(
  {
    name: Type.String({
      description:
        'Host name to publish, relative to `zone`, the zone the customer edits: `<token>._domainkey.mail` and `_dmarc.mail` for `mail.example.com` in `example.com`; `<token>._domainkey` and `_dmarc` for the apex `example.com`.',
    }),
    type: Type.Union([Type.Literal('CNAME'), Type.Literal('TXT')]),
    value: Type.String({
      description: 'CNAME: `<token>.dkim.<provider host>`. TXT: the quoted DMARC policy.',
    }),
    status: Type.Ref(VerificationStatusSchema),
    record: Type.String({
      description: 'CNAME: the selector token. TXT: the same quoted string as `value`.',
    }),
    ttl: Type.Literal('Auto'),
    fqdn: Type.String({
      description: 'The record’s fully qualified name, for DNS hosts that want it whole.',
    }),
    zone: Type.String({
      description:
        'The zone `name` is relative to: the registrable domain by the Public Suffix List (`example.com` for `mail.example.com`).',
    }),
    reason: Type.Union(
      [
        Type.Literal('not_found'),
        Type.Literal('wrong_type'),
        Type.Literal('wrong_value'),
        Type.Literal('dns_error'),
        Type.Null(),
      ],
      {
        description:
          'Why the last check did not find the record as expected: `not_found` (no such record), `wrong_type` (the name holds other record types), ' +
          '`wrong_value` (another target, or a DMARC record that is invalid or duplicated), `dns_error` (no definitive answer; the status is kept). `null` when it matched.',
      },
    ),
    found: Type.Union([Type.String(), Type.Null()], {
      description: 'What DNS answered instead, when it answered something.',
    }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'What is wrong and what to do, in a sentence.',
    }),
    lastCheckedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When this record was last checked; `null` before the first check.',
    }),
  },
  { $id: 'DnsRecord', additionalProperties: false },
);

export const DomainResultSchema = Type.Object(
  {
    domain: Type.String({ description: 'The domain in its ASCII (punycode) form.' }),
    status: Type.Ref(VerificationStatusSchema),
    records: Type.Array(Type.Ref(DnsRecordSchema), {
      description: 'Three DKIM CNAME records, then one DMARC TXT record.',
    }),
    type: Type.Union(
      DOMAIN_TYPES.map((t) => Type.Literal(t)),
      { description: 'The domain type, in canonical spelling.' },
    ),
    lastCheckedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When DNS was last checked; `null` before the first check.',
    }),
    nextCheckAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the background scheduler checks next; a status request re-checks sooner if the last check is a few seconds old. `null`: a domain pending for more than 30 days is checked only when its status is requested.',
    }),
  },
  { $id: 'DomainResult', additionalProperties: false },
);

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

export const StatusEventSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    record: Type.Union([Type.String(), Type.Null()], {
      description: 'The record’s `fqdn`, or `null` for the domain’s own status.',
    }),
    from: Type.Ref(VerificationStatusSchema),
    to: Type.Ref(VerificationStatusSchema),
    reason: Type.Union([Type.String(), Type.Null()]),
    found: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'StatusEvent', additionalProperties: false },
);

export const DomainHistorySchema = Type.Object(
  {
    domain: Type.String(),
    events: Type.Array(Type.Ref(StatusEventSchema), { description: 'Newest first.' }),
  },
  { $id: 'DomainHistory', additionalProperties: false },
);

export const HistoryEnvelopeSchema = itemEnvelope('HistoryEnvelope', Type.Ref(DomainHistorySchema));

export const DeletedDomainSchema = Type.Object(
  { domain: Type.String(), deleted: Type.Literal(true) },
  { $id: 'DeletedDomain', additionalProperties: false },
);

export const DeleteEnvelopeSchema = itemEnvelope('DeleteEnvelope', Type.Ref(DeletedDomainSchema));

export const DomainPageSchema = pageSchema('DomainPage', 'domains', Type.Ref(DomainResultSchema));

/** Schemas registered with Fastify under their `$id`, and published as OpenAPI components. */
export const SHARED_SCHEMAS: TSchema[] = [
  VerificationStatusSchema,
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
  const domainName = Type.String({ description: 'A fully qualified domain or subdomain name.' });
  return {
    registerBody: Type.Object(
      {
        domains: Type.Array(
          Type.Object(
            {
              domain: domainName,
              domainType: Type.String({
                description: '`Transactional` or `Marketing` (case-insensitive).',
              }),
            },
            { additionalProperties: false },
          ),
          { maxItems, description: `At most ${maxItems} entries.` },
        ),
      },
      { additionalProperties: false },
    ),
    namesBody: Type.Object(
      { domains: Type.Array(domainName, { maxItems, description: `At most ${maxItems} names.` }) },
      { additionalProperties: false },
    ),
    listQuery: ListQuerySchema,
  };
}

export type RegisterBody = Static<ReturnType<typeof requestSchemas>['registerBody']>;
export type NamesBody = Static<ReturnType<typeof requestSchemas>['namesBody']>;
export type ListQuery = Static<typeof ListQuerySchema>;

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
