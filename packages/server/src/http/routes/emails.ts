/**
 * The sending routes (issue 21): submit a message, read what became of it, and the account's
 * suppression list. Full keys only (scope `emails`, which no browser key can hold). The
 * one-click unsubscribe routes (`/unsubscribe/{token}`) are public: the token is the credential.
 */
import { type Readable, Transform } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  EmailContentSchema,
  EmailSchema,
  ListedEmailSchema,
  SendEmailBodySchema,
  SuppressionSchema,
} from '../../email/schemas.js';
import { EMAIL_STATUSES } from '../../email/status.js';
import { ApiError } from '../../errors.js';
import type { EmailService } from '../../service/email-service.js';
import { renderCost } from '../../service/template-service.js';
import type { Store } from '../../store/store.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { CostBudget } from '../cost-budget.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, ListQuerySchema, requestErrorResponses } from '../schemas.js';

export interface EmailRoutesOptions {
  store: Store;
  service: EmailService;
  /** The largest request body: the message's limit plus room for JSON escaping. */
  bodyLimit: number;
  /** Composition units per account and window (`EMAIL_COMPOSE_BUDGET`), one per started 16 KiB of request body. */
  composeBudget: number;
  /** The budget's window: the rate limit's (`RATE_LIMIT_WINDOW_MS`). */
  windowMs: number;
}

const errors = {
  ...requestErrorResponses,
  403: Type.Ref(ErrorEnvelopeSchema),
  404: Type.Ref(ErrorEnvelopeSchema),
  409: Type.Ref(ErrorEnvelopeSchema),
  413: Type.Ref(ErrorEnvelopeSchema),
};
const ok = <T>(data: T) => ({ data, error: null, status: 200 as const });

/** A page's cursor: the last message's creation time and id. */
const EMAIL_CURSOR = /^(\d{1,16}):(eml_[a-z0-9]{1,60})$/;

/** How long a request over its account's composition budget waits for its 429. */
const REFUSAL_PAUSE_MS = 1_000;

export async function emailRoutes(app: FastifyInstance, options: EmailRoutesOptions): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'emails' });
  const { service } = options;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // What one account may make us parse and compose per window: parsing runs on the event loop,
  // composition on the shared render threads (issue 33).
  const composeBudget = new CostBudget({
    max: options.composeBudget,
    windowMs: options.windowMs,
    units: 'composition units',
    spender: 'this account',
  });

  api.post(
    '/emails',
    {
      bodyLimit: options.bodyLimit,
      // Charged by the body's size before it is parsed (a 10 MB body costs the event loop its
      // parsing even when refused after): from Content-Length before a byte is read, or, for a
      // chunked body, as its bytes arrive.
      preParsing: async (request, _reply, payload) => {
        const accountId = request.apiKey!.accountId;
        const charge = (units: number) => composeBudget.charge(accountId, units);
        const length = Number(request.headers['content-length']);
        // Fastify refuses it after this hook: refuse it here, before it costs the budget.
        if (length > options.bodyLimit) {
          throw new ApiError(
            'REQUEST_BODY_TOO_LARGE',
            `the body is larger than the limit of ${options.bodyLimit} bytes`,
          );
        }
        try {
          if (!(Number.isSafeInteger(length) && length > 0)) {
            composeBudget.refuseIfSpent(accountId);
            return chargedAsRead(payload, charge);
          }
          charge(renderCost(length));
          return payload;
        } catch (error) {
          // A client told to wait that comes straight back waits for its answer: the refusal
          // itself (a connection, its headers, a 429) is what a flood of them costs us, and a
          // second's pause makes each of its connections cost that once a second (issue 33).
          if (error instanceof ApiError && error.code === 'RATE_LIMITED')
            await new Promise((resolve) => setTimeout(resolve, REFUSAL_PAUSE_MS));
          throw error;
        }
      },
      schema: {
        tags: ['Sending'],
        summary: 'Send an email from a verified domain',
        description:
          'Queues the message and answers at once; `GET /api/public/emails/{id}` tells what became of it. ' +
          'It is DKIM-signed with the domain’s active selector (aligned with `From`, so it passes DMARC), and carries `Message-ID`, `Date`, and for Marketing domains a one-click `List-Unsubscribe`. ' +
          'With an `Idempotency-Key` header, a retry of the same request answers the same message instead of sending twice. ' +
          `Each request costs one composition unit per started 16 KiB of its body from the account’s budget of ${options.composeBudget} per rate-limit window (\`EMAIL_COMPOSE_BUDGET\`), charged before the body is parsed: 429 \`RATE_LIMITED\` with \`Retry-After\` when spent.`,
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
    '/emails',
    {
      schema: {
        tags: ['Sending'],
        summary: 'The account’s messages, newest first',
        description:
          'A page at a time (`limit`, default 50, at most 100; follow `nextCursor`), filtered by `status`, by a `recipient` address, by the sending `domain`, and by creation time (`since` inclusive, `until` exclusive, RFC 3339). Each filter is an index range, so a page costs the same at ten million messages.',
        querystring: Type.Object(
          {
            limit: ListQuerySchema.properties.limit,
            cursor: ListQuerySchema.properties.cursor,
            status: Type.Optional(Type.Union(EMAIL_STATUSES.map((s) => Type.Literal(s)))),
            recipient: Type.Optional(Type.String({ maxLength: 320 })),
            domain: Type.Optional(Type.String({ maxLength: 253 })),
            since: Type.Optional(Type.String({ format: 'date-time' })),
            until: Type.Optional(Type.String({ format: 'date-time' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: dataEnvelope(
            Type.Object(
              {
                emails: Type.Array(Type.Ref(ListedEmailSchema)),
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
      const { limit, cursor, ...filters } = request.query;
      const after =
        cursor === undefined
          ? undefined
          : (() => {
              const [, at, id] = EMAIL_CURSOR.exec(decodeCursor(cursor, (t) => EMAIL_CURSOR.test(t)))!;
              return { createdAt: Number(at), id: id! };
            })();
      const page = await service.list(request.apiKey!.accountId, {
        limit: limit === undefined ? 50 : Number(limit),
        ...filters,
        ...(after && { after }),
      });
      return ok({
        emails: page.emails,
        nextCursor: page.next && encodeCursor(`${page.next.createdAt}:${page.next.id}`),
      });
    },
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
    '/emails/:id/content',
    {
      schema: {
        tags: ['Sending'],
        summary: 'A message as its recipients get it',
        description:
          'Its subject, header fields, and decoded HTML and text parts, read from the stored message (the DKIM-Signature each attempt adds aside). For showing what was sent; render the HTML only in a sandboxed frame.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: dataEnvelope(Type.Ref(EmailContentSchema)), ...errors },
      },
    },
    async (request) => ok(await service.getContent(request.apiKey!.accountId, request.params.id)),
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

/**
 * A chunked body (no Content-Length) passed on as it arrives, its account charged one unit per
 * started 16 KiB as the bytes come in; the stream fails with the budget's refusal once spent.
 */
function chargedAsRead(payload: Readable, charge: (units: number) => void): Readable {
  let bytes = 0;
  let charged = 0;
  const counted: Transform & { receivedEncodedLength?: number } = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      // Fastify compares it with the body limit as the bytes come
      counted.receivedEncodedLength = bytes;
      const due = renderCost(bytes) - charged;
      try {
        if (due > 0) charge(due);
      } catch (error) {
        return callback(error as Error);
      }
      charged += Math.max(0, due);
      callback(null, chunk);
    },
  });
  payload.on('error', (error) => counted.destroy(error));
  return payload.pipe(counted);
}
