/**
 * The domain routes: the spec's two (register, status) and, beyond it, list and delete.
 * Handlers only translate HTTP to the `DomainService` and back.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainService } from '../../service/domain-service.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import {
  DeleteEnvelopeSchema,
  DkimRotationEnvelopeSchema,
  DomainEnvelopeSchema,
  DomainPageSchema,
  ErrorEnvelopeSchema,
  HistoryEnvelopeSchema,
  requestErrorResponses,
  requestSchemas,
  SetupLinkEnvelopeSchema,
} from '../schemas.js';

export interface DomainRoutesOptions {
  service: DomainService;
  maxItems: number;
}

export async function domainRoutes(app: FastifyInstance, options: DomainRoutesOptions): Promise<void> {
  const { service } = options;
  // Bodies and queries are typed from their schemas: no hand-written copy to drift.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const schemas = requestSchemas(options.maxItems);
  const tags = ['Domains'];

  api.post(
    '/domain',
    {
      schema: {
        tags,
        summary: 'Register sending domains',
        description:
          'Registers each entry and returns the DNS records to publish: three DKIM CNAMEs and one DMARC TXT. ' +
          'Idempotent: registering a domain again returns the same tokens and statuses (a different `domainType` updates it). ' +
          'HTTP 200 with one envelope per entry, in request order; a bad entry gets its own error without affecting the others.',
        body: schemas.registerBody,
        response: { 200: Type.Array(Type.Ref(DomainEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.register(request.apiKey!.accountId, request.body.domains),
  );

  api.post(
    '/domain/status',
    {
      schema: {
        tags,
        summary: 'Check verification status',
        description:
          'The current status of each named domain and of its records. HTTP 200 with one envelope per name, in request order; ' +
          'a name this account never registered gets `DOMAIN_NOT_REGISTERED` (404) in its envelope.',
        body: schemas.namesBody,
        response: { 200: Type.Array(Type.Ref(DomainEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.status(request.apiKey!.accountId, request.body.domains),
  );

  api.post(
    '/domain/history',
    {
      schema: {
        tags,
        summary: 'Status history',
        description:
          'Every status change of each named domain and of its records, newest first (at most 200 per domain), with the reason DNS gave. ' +
          'HTTP 200 with one envelope per name, in request order.',
        body: schemas.namesBody,
        response: { 200: Type.Array(Type.Ref(HistoryEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.history(request.apiKey!.accountId, request.body.domains),
  );

  api.get(
    '/domain',
    {
      schema: {
        tags,
        summary: 'List registered domains',
        description: 'The account’s registrations ordered by name, one page at a time; follow `nextCursor`.',
        querystring: schemas.listQuery,
        response: { 200: Type.Ref(DomainPageSchema), ...requestErrorResponses },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      const after = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor);
      const page = await service.list(
        request.apiKey!.accountId,
        after === undefined ? { limit } : { after, limit },
      );
      return {
        data: { domains: page.domains, nextCursor: page.next === null ? null : encodeCursor(page.next) },
        error: null,
        status: 200 as const,
      };
    },
  );

  api.get(
    '/domain/setup-link',
    {
      schema: {
        tags,
        summary: 'Domain Connect setup link',
        description:
          'A signed link that opens the DNS provider’s consent page (Domain Connect, synchronous flow), where the customer approves and the provider adds the four records; then the provider sends the browser to `redirect_uri` with `state` (and `error` when it failed or the customer declined). ' +
          'The domain result’s `domainConnect` says whether the provider supports it; when it does not, this answers `SETUP_LINK_UNAVAILABLE` with the reason, and the records are published by hand. ' +
          'Whatever the redirect says, the status shows what DNS holds.',
        querystring: Type.Object(
          {
            domain: Type.String({ minLength: 1, maxLength: 253, description: 'A registered domain.' }),
            redirect_uri: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 2048,
                description: 'Where the provider sends the customer back.',
              }),
            ),
            state: Type.Optional(
              Type.String({
                maxLength: 512,
                description: 'Returned unchanged with the redirect (e.g. to match the request).',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Ref(SetupLinkEnvelopeSchema),
          404: Type.Ref(ErrorEnvelopeSchema),
          409: Type.Ref(ErrorEnvelopeSchema),
          ...requestErrorResponses,
        },
      },
    },
    async (request) => {
      const { domain, redirect_uri, state } = request.query;
      const data = await service.setupLink(request.apiKey!.accountId, domain, {
        ...(redirect_uri !== undefined && { redirectUri: redirect_uri }),
        ...(state !== undefined && { state }),
      });
      return { data, error: null, status: 200 as const };
    },
  );

  api.post(
    '/domain/dkim/rotate',
    {
      schema: {
        tags,
        summary: 'Rotate DKIM keys now',
        description:
          'Moves signing to the domain’s `next` DKIM selector now, as the automatic rotation does every `DKIM_ROTATION_INTERVAL_DAYS` (90 by default): at once when its key has been served longer than the key zone’s TTL, otherwise as soon as it has. ' +
          'The selector that signed is retired (its key stays published for mail in flight), and the webhook event `domain.dkim_rotated` follows the switch. The customer’s CNAMEs do not change. ' +
          'Asking again before the switch changes nothing. `DKIM_ROTATION_UNAVAILABLE` (409) says why a rotation cannot happen now.',
        body: Type.Object(
          {
            domain: Type.String({
              minLength: 1,
              maxLength: 253,
              description: 'A registered domain.',
              examples: ['mail.example.com'],
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Ref(DkimRotationEnvelopeSchema),
          404: Type.Ref(ErrorEnvelopeSchema),
          409: Type.Ref(ErrorEnvelopeSchema),
          ...requestErrorResponses,
        },
      },
    },
    async (request) => {
      const data = await service.rotateDkim(request.apiKey!.accountId, request.body.domain);
      return { data, error: null, status: 200 as const };
    },
  );

  api.delete(
    '/domain',
    {
      schema: {
        tags,
        summary: 'Delete registrations',
        description:
          'Deletes each named registration with its records (and, once hosted keys exist, its DKIM keys). ' +
          'HTTP 200 with one envelope per name, in request order.',
        body: schemas.namesBody,
        response: { 200: Type.Array(Type.Ref(DeleteEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.remove(request.apiKey!.accountId, request.body.domains),
  );
}
