/**
 * The sandbox's capture inbox (issue 40, `email/sandbox.ts`): registered only outside
 * production mode, for full keys and sending keys (scope `sending`), like the sending routes it serves.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { SandboxService } from '../../service/sandbox-service.js';
import type { Store } from '../../store/store.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { wholeAccount } from '../auth.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, ListQuerySchema, requestErrorResponses } from '../schemas.js';

const Verdict = (description: string) => Type.String({ description });

export const SandboxAuthenticationSchema = Type.Object(
  {
    spf: Type.Object(
      {
        result: Verdict('`pass`, `fail`, `softfail`, `neutral`, `none`, `temperror` or `permerror`.'),
        domain: Type.String({ description: 'The envelope sender’s domain SPF was checked for.' }),
        ip: Type.String({ description: 'The address the message is judged as coming from.' }),
      },
      { additionalProperties: false },
    ),
    dkim: Type.Array(
      Type.Object(
        {
          result: Verdict('`pass`, `fail`, `neutral`, `temperror` or `permerror`.'),
          domain: Type.String({ description: '`d=`.' }),
          selector: Type.Union([Type.String(), Type.Null()], { description: '`s=`.' }),
          aligned: Type.Boolean({ description: 'Whether `d=` aligns with the From domain (DMARC).' }),
        },
        { additionalProperties: false },
      ),
    ),
    dmarc: Type.Object(
      {
        result: Verdict('`pass`, `fail`, `none`, `temperror` or `permerror`.'),
        domain: Type.String(),
        policy: Type.Union([Type.String(), Type.Null()], {
          description: 'The policy that applies: `none`, `quarantine` or `reject`.',
        }),
      },
      { additionalProperties: false },
    ),
    header: Type.String({ description: 'The `Authentication-Results` field a receiver would add.' }),
  },
  {
    $id: 'SandboxAuthentication',
    additionalProperties: false,
    description: 'mailauth’s verdicts on the message as it would have left, computed at capture.',
  },
);

const summaryProperties = {
  id: Type.String({ description: 'The envelope recipient’s id (`rcp_…`).' }),
  emailId: Type.String({ description: 'The message’s id, for `GET /api/public/emails/{id}`.' }),
  from: Type.String(),
  to: Type.String({ description: 'The envelope recipient this copy went to.' }),
  subject: Type.String(),
  capturedAt: Type.String({ format: 'date-time' }),
  authentication: Type.Ref(SandboxAuthenticationSchema),
};

export const CapturedSummarySchema = Type.Object(summaryProperties, {
  $id: 'CapturedMessageSummary',
  additionalProperties: false,
});

export const CapturedMessageSchema = Type.Object(
  {
    ...summaryProperties,
    headers: Type.Array(
      Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }),
      { description: 'The header fields in order, unfolded, as a receiver got them (DKIM-Signature first).' },
    ),
    html: Type.Union([Type.String(), Type.Null()]),
    text: Type.Union([Type.String(), Type.Null()]),
    raw: Type.String({ description: 'The whole message, signed, CRLF line endings.' }),
  },
  { $id: 'CapturedMessage', additionalProperties: false },
);

/** Registered with the app always, so the OpenAPI document names them wherever it is built. */
export const SANDBOX_SCHEMAS = [SandboxAuthenticationSchema, CapturedSummarySchema, CapturedMessageSchema];

/** A page's cursor: the last capture's time and id. */
const CURSOR = /^(\d{1,16}):(rcp_[A-Za-z0-9_-]{1,60})$/;

export async function sandboxRoutes(
  app: FastifyInstance,
  options: { store: Store; service: SandboxService },
): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'sending' });
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const errors = {
    ...requestErrorResponses,
    403: Type.Ref(ErrorEnvelopeSchema),
    404: Type.Ref(ErrorEnvelopeSchema),
  };

  api.get(
    '/messages',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'The capture inbox (development only)',
        description:
          'What was sent to `sandbox.test` addresses, newest first; follow `nextCursor`. Outside production mode only: in production this route does not exist.',
        querystring: ListQuerySchema,
        response: {
          200: dataEnvelope(
            Type.Object(
              {
                messages: Type.Array(Type.Ref(CapturedSummarySchema)),
                nextCursor: Type.Union([Type.String(), Type.Null()]),
              },
              { additionalProperties: false },
            ),
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const after =
        cursor === undefined
          ? undefined
          : (() => {
              const [, at, id] = CURSOR.exec(decodeCursor(cursor, (t) => CURSOR.test(t)))!;
              return { capturedAt: Number(at), id: id! };
            })();
      const page = await options.service.list(
        wholeAccount(request),
        limit === undefined ? 50 : Number(limit),
        after,
      );
      return {
        data: {
          messages: page.messages,
          nextCursor: page.next && encodeCursor(`${page.next.capturedAt}:${page.next.id}`),
        },
        error: null,
        status: 200 as const,
      };
    },
  );

  api.get(
    '/messages/:id',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'One captured message (development only)',
        description:
          'As a receiver got it: headers, HTML, text, the raw message, and its SPF, DKIM and DMARC verdicts.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: dataEnvelope(Type.Ref(CapturedMessageSchema)), ...errors },
      },
    },
    async (request) => ({
      data: await options.service.get(wholeAccount(request), request.params.id),
      error: null,
      status: 200 as const,
    }),
  );
}
