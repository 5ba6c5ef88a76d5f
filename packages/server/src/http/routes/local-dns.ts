/**
 * The development local DNS's routes (issue 40, `service/local-dns-service.ts`): publish a
 * `.test` registration's records there, or remove them. Registered always, so the OpenAPI
 * document is one; in production mode (or with `LOCAL_DNS_LISTEN=off`) they answer
 * `LOCAL_DNS_OFF`.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { LocalDnsService } from '../../service/local-dns-service.js';
import { VerificationStatusSchema } from '../../views.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { ErrorEnvelopeSchema, requestErrorResponses } from '../schemas.js';

const LocalDnsSchema = Type.Object(
  {
    domain: Type.String({ examples: ['acme.test'] }),
    server: Type.String({
      description: 'Where the local DNS answers (`LOCAL_DNS_LISTEN`), for `dig @127.0.0.1 -p 5354 …`.',
      examples: ['127.0.0.1:5354'],
    }),
    records: Type.Array(
      Type.Object(
        {
          fqdn: Type.String(),
          type: Type.Union([Type.Literal('CNAME'), Type.Literal('TXT')]),
          value: Type.String({
            description: 'As DNS holds it: a CNAME’s target, a TXT record’s text (no quotes).',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'The domain’s records the local DNS holds now.' },
    ),
    status: Type.Ref(VerificationStatusSchema, {
      description: 'The domain’s status after the check that followed the change.',
    }),
  },
  { additionalProperties: false },
);

const domainField = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'A registered domain under `.test`.',
  examples: ['acme.test'],
});

export async function localDnsRoutes(
  app: FastifyInstance,
  options: { service: LocalDnsService },
): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Domains'];
  const response = {
    200: dataEnvelope(LocalDnsSchema),
    ...requestErrorResponses,
    404: Type.Ref(ErrorEnvelopeSchema),
  };

  api.get(
    '/domain/local-dns',
    {
      schema: {
        tags,
        summary: 'Where the local DNS answers (development only)',
        description:
          'The address of the development local DNS (`LOCAL_DNS_LISTEN`), which answers the `.test` zones published in it; `LOCAL_DNS_OFF` (403) in production mode or with `LOCAL_DNS_LISTEN=off`. The dashboard asks it to offer its buttons.',
        response: {
          200: dataEnvelope(
            Type.Object(
              { server: Type.String({ examples: ['127.0.0.1:5354'] }) },
              { additionalProperties: false },
            ),
          ),
          ...requestErrorResponses,
        },
      },
    },
    async () => ({ data: options.service.where(), error: null, status: 200 as const }),
  );

  api.post(
    '/domain/local-dns',
    {
      schema: {
        tags,
        summary: 'Publish in the local DNS (development only)',
        description:
          'Publishes every record the API lists for a registered `.test` domain in the development local DNS (`LOCAL_DNS_LISTEN`), which plays the domain’s DNS provider on this machine, then checks the domain at once through the ordinary verification path (real DNS queries to that server). ' +
          'So a domain turns `verified` (and `domain.verified` is sent) with no public DNS. `LOCAL_DNS_OFF` (403) in production mode; `LOCAL_DNS_NOT_TEST` (400) for any other domain.',
        body: Type.Object({ domain: domainField }, { additionalProperties: false }),
        response,
      },
    },
    async (request) => ({
      data: await options.service.publish(request.apiKey!.accountId, request.body.domain),
      error: null,
      status: 200 as const,
    }),
  );

  api.delete(
    '/domain/local-dns',
    {
      schema: {
        tags,
        summary: 'Remove from the local DNS (development only)',
        description:
          'Removes a `.test` domain’s records from the local DNS: those at `names` (each record’s `fqdn`), or all of them, as deleting them at a DNS provider would; then checks the domain. ' +
          'A removed record reads `not_found` at its next check; one already verified stays so for `VERIFY_GRACE_MS`, as in real DNS.',
        body: Type.Object(
          {
            domain: domainField,
            names: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
                maxItems: 100,
                description: 'The `fqdn`s of the records to remove; absent: all of the domain’s.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response,
      },
    },
    async (request) => ({
      data: await options.service.remove(request.apiKey!.accountId, request.body.domain, request.body.names),
      error: null,
      status: 200 as const,
    }),
  );
}
