/**
 * `/api/public/keys` (issue 40): an account's API keys, for full keys only (scope `keys`, which
 * no browser key holds). The dashboard's API keys section calls these.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { API_SCOPES } from '../../domain/api-key.js';
import { ApiError } from '../../errors.js';
import { type ApiKeyService, MAX_KEY_DOMAINS } from '../../service/api-key-service.js';
import type { Store } from '../../store/store.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, requestErrorResponses } from '../schemas.js';

const ScopeSchema = Type.Union(API_SCOPES.map((s) => Type.Literal(s)));
const Scopes = Type.Array(ScopeSchema, { minItems: 1, maxItems: API_SCOPES.length, uniqueItems: true });

const keyProperties = {
  id: Type.String({ description: '`key_…`: what `DELETE /api/public/keys/{id}` takes.' }),
  name: Type.String(),
  prefix: Type.String({ description: 'The key’s first characters, to recognise it; never the key.' }),
  scopes: Type.Array(ScopeSchema, {
    description:
      '`["*"]`: the whole API; `["sending"]`: sending and reading what was sent; `["templates", "images"]`: only the routes a web page may call.',
  }),
  domains: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description:
      'A sending key’s only domains: it sends from these and reads their messages alone; `null`: not limited.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
};

export const ApiKeySchema = Type.Object(keyProperties, { $id: 'ApiKey', additionalProperties: false });

export const CreatedApiKeySchema = Type.Object(
  {
    ...keyProperties,
    key: Type.String({ description: 'The key itself, shown only in this answer: store it now.' }),
  },
  { $id: 'CreatedApiKey', additionalProperties: false },
);

export const KEY_SCHEMAS = [ApiKeySchema, CreatedApiKeySchema];

export async function keyRoutes(
  app: FastifyInstance,
  options: { store: Store; service: ApiKeyService },
): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'keys' });
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const errors = {
    ...requestErrorResponses,
    403: Type.Ref(ErrorEnvelopeSchema),
    404: Type.Ref(ErrorEnvelopeSchema),
    409: Type.Ref(ErrorEnvelopeSchema),
  };
  const ok = <T>(data: T) => ({ data, error: null, status: 200 as const });

  api.post(
    '',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Create an API key in this account',
        description:
          'Its `key` is in this answer only. `scopes` defaults to `["*"]`; `["sending"]` makes a sending key (`scope` is another name for `scopes`); `["templates", "images"]` makes a key a web page may hold (the editor’s uploads and My Templates). ' +
          'With `domains` (registered domains of this account), the key sends only from those and reads only their messages, as a platform gives its customer: its scopes are `["sending"]`, and it reads neither the suppression list nor the sandbox (both are the account’s). At most 100 live keys per account.',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 200, examples: ['production app'] }),
            scopes: Type.Optional(Scopes),
            scope: Type.Optional(Scopes),
            domains: Type.Optional(
              Type.Array(Type.String({ maxLength: 253 }), {
                minItems: 1,
                maxItems: MAX_KEY_DOMAINS,
                examples: [['mail.customer.example']],
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: dataEnvelope(Type.Ref(CreatedApiKeySchema)), ...errors },
      },
    },
    async (request) => {
      const { scope, scopes, ...rest } = request.body;
      if (scope !== undefined && scopes !== undefined)
        throw new ApiError('REQUEST_INVALID', 'scope is another name for scopes: give one of them');
      const granted = scopes ?? scope;
      return ok(
        await options.service.create(request.apiKey!.accountId, {
          ...rest,
          ...(granted !== undefined && { scopes: granted }),
        }),
      );
    },
  );

  api.get(
    '',
    {
      schema: {
        tags: ['API keys'],
        summary: 'The account’s API keys',
        description: 'Oldest first, revoked ones too (`revokedAt`); never a key itself.',
        response: { 200: dataEnvelope(Type.Array(Type.Ref(ApiKeySchema))), ...errors },
      },
    },
    async (request) => ok(await options.service.list(request.apiKey!.accountId)),
  );

  api.delete(
    '/:id',
    {
      schema: {
        tags: ['API keys'],
        summary: 'Revoke an API key',
        description:
          'It stops working at once, on every process. Not the key making this request (`API_KEY_IN_USE`): revoke that one with another key.',
        params: Type.Object(
          { id: Type.String({ pattern: '^key_[a-z0-9]{1,60}$' }) },
          { additionalProperties: false },
        ),
        response: { 200: dataEnvelope(Type.Ref(ApiKeySchema)), ...errors },
      },
    },
    async (request) =>
      ok(await options.service.revoke(request.apiKey!.accountId, request.params.id, request.apiKey!.id)),
  );
}
