/**
 * The sending routes (issue 21): submit a message, read what became of it, and the account's
 * suppression list. Full keys and sending keys (scope `sending`; no browser key holds it). The
 * one-click unsubscribe routes (`/unsubscribe/{token}`) are public: the token is the credential.
 */
import { type Readable, Transform } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EmailContentSchema,
  EmailSchema,
  ListedEmailSchema,
  SendEmailBodySchema,
  type SendEmailInput,
  SuppressionSchema,
} from '../../email/schemas.js';
import { EMAIL_STATUSES } from '../../email/status.js';
import { ApiError } from '../../errors.js';
import type { EmailService } from '../../service/email-service.js';
import { renderCost } from '../../service/template-service.js';
import type { Store } from '../../store/store.js';
import { dataEnvelope } from '../../webhook/schemas.js';
import { wholeAccount } from '../auth.js';
import { CostBudget } from '../cost-budget.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { shapeError } from '../error-handler.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, itemEnvelope, ListQuerySchema, requestErrorResponses } from '../schemas.js';

/**
 * One batch entry's schema, one object: Fastify keeps a compiled validator per schema object, so
 * a literal made per request compiled the send body's validator again for every batch (about
 * 3.9 ms of the event loop each, the longest stretch left in a batch flood; issue 37).
 */
const BATCH_ENTRY_SCHEMA = { $ref: 'SendEmailBody#' };
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
  410: Type.Ref(ErrorEnvelopeSchema),
  413: Type.Ref(ErrorEnvelopeSchema),
};
const ok = <T>(data: T) => ({ data, error: null, status: 200 as const });

/** A page's cursor: the last message's creation time and id. */
const EMAIL_CURSOR = /^(\d{1,16}):(eml_[a-z0-9]{1,60})$/;

/** How long a request over its account's composition budget waits for its 429. */
const REFUSAL_PAUSE_MS = 1_000;

/** What a send answers: `scheduled` when it waits for its `scheduledAt`. */
const AcceptedSchema = Type.Object(
  { id: Type.String(), status: Type.Union([Type.Literal('queued'), Type.Literal('scheduled')]) },
  { additionalProperties: false },
);

/** The most messages one batch request holds, as Resend's batch. */
const MAX_BATCH = 100;

export async function emailRoutes(app: FastifyInstance, options: EmailRoutesOptions): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'sending' });
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
  // Charged by the body's size before it is parsed (a 10 MB body costs the event loop its
  // parsing even when refused after): from Content-Length before a byte is read, or, for a
  // chunked body, as its bytes arrive.
  const chargeParsing = async (request: FastifyRequest, _reply: FastifyReply, payload: Readable) => {
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
  };

  api.post(
    '/emails',
    {
      bodyLimit: options.bodyLimit,
      // Charged by the body's size before it is parsed (a 10 MB body costs the event loop its
      // parsing even when refused after): from Content-Length before a byte is read, or, for a
      // chunked body, as its bytes arrive.
      preParsing: chargeParsing,
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
          200: dataEnvelope(AcceptedSchema),
          ...errors,
        },
      },
    },
    async (request) =>
      ok(await service.send(request.apiKey!, request.body as never, request.headers['idempotency-key'])),
  );

  api.post(
    '/emails/batch',
    {
      bodyLimit: options.bodyLimit,
      preParsing: chargeParsing,
      // Entries are validated one by one below, so that a malformed entry fails alone.
      attachValidation: true,
      schema: {
        tags: ['Sending'],
        summary: 'Send up to 100 emails in one request',
        description:
          'Each entry is a `POST /api/public/emails` body (its own `from`, recipients, `templateId` and `variables`, `scheduledAt`…), and each gets its own envelope, in request order: an entry that is malformed or refused fails alone, with the error a single send would get. ' +
          `The whole body is at most ${options.bodyLimit} bytes, as one message's, and costs the account's composition budget as one. ` +
          'With an `Idempotency-Key` header the batch is the request: a retry of the same body answers the messages queued the first time and tries again only the entries refused; another body under the same key is refused with `IDEMPOTENCY_KEY_REUSED`.',
        body: Type.Object(
          { emails: Type.Array(Type.Ref(SendEmailBodySchema), { minItems: 1, maxItems: MAX_BATCH }) },
          { additionalProperties: false },
        ),
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 1024 })) }),
        response: { 200: Type.Array(itemEnvelope('SendEnvelope', AcceptedSchema)), ...errors },
      },
    },
    async (request) => {
      const checkEntry = request.compileValidationSchema(BATCH_ENTRY_SCHEMA, 'body');
      // a malformed entry comes with its shape error, which becomes its envelope
      const entries = batchEntries(request).map((entry, i) =>
        checkEntry(entry)
          ? { input: entry as SendEmailInput }
          : { raw: entry, refused: shapeError(checkEntry.errors ?? [], `emails[${i}]`) },
      );
      return service.sendBatch(request.apiKey!, entries, request.headers['idempotency-key']);
    },
  );

  api.post(
    '/emails/:id/cancel',
    {
      schema: {
        tags: ['Sending'],
        summary: 'Cancel a scheduled email',
        description:
          'A message waiting for its `scheduledAt` is not sent: its status becomes `canceled`, with a `canceled` event per recipient. Once its sending has begun it is too late: 409 `EMAIL_NOT_SCHEDULED`.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: {
          200: dataEnvelope(
            Type.Object(
              { id: Type.String(), status: Type.Literal('canceled') },
              { additionalProperties: false },
            ),
          ),
          ...errors,
        },
      },
    },
    async (request) => ok(await service.cancel(request.apiKey!, request.params.id)),
  );

  api.patch(
    '/emails/:id',
    {
      schema: {
        tags: ['Sending'],
        summary: 'Move a scheduled email',
        description:
          'A message waiting for its `scheduledAt` goes at the new time instead (up to 30 days ahead; a time not in the future sends it at once), its `Date` header with it. Once its sending has begun: 409 `EMAIL_NOT_SCHEDULED`.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        body: Type.Object(
          { scheduledAt: Type.String({ format: 'date-time', examples: ['2026-12-01T09:00:00Z'] }) },
          { additionalProperties: false },
        ),
        response: {
          200: dataEnvelope(
            Type.Object(
              {
                id: Type.String(),
                status: Type.Literal('scheduled'),
                scheduledAt: Type.String({ format: 'date-time' }),
              },
              { additionalProperties: false },
            ),
          ),
          ...errors,
        },
      },
    },
    async (request) =>
      ok(await service.reschedule(request.apiKey!, request.params.id, request.body.scheduledAt)),
  );

  api.get(
    '/emails',
    {
      schema: {
        tags: ['Sending'],
        summary: 'The account’s messages, newest first',
        description:
          'A page at a time (`limit`, default 50, at most 100; follow `nextCursor`), filtered by `status`, by a recipient address (`to`), by the sending `domain`, by a tag (`tag=name` or `tag=name:value`), and by creation time (`after` inclusive, `before` exclusive, RFC 3339). Each filter is an index range, so a page costs the same at ten million messages.',
        querystring: Type.Object(
          {
            limit: ListQuerySchema.properties.limit,
            cursor: ListQuerySchema.properties.cursor,
            status: Type.Optional(Type.Union(EMAIL_STATUSES.map((s) => Type.Literal(s)))),
            to: Type.Optional(
              Type.String({ maxLength: 320, description: 'An envelope recipient (to, cc or bcc).' }),
            ),
            recipient: Type.Optional(Type.String({ maxLength: 320, description: 'The same as `to`.' })),
            domain: Type.Optional(Type.String({ maxLength: 253 })),
            after: Type.Optional(
              Type.String({ format: 'date-time', description: 'Created at or after this time.' }),
            ),
            before: Type.Optional(
              Type.String({ format: 'date-time', description: 'Created before this time.' }),
            ),
            since: Type.Optional(Type.String({ format: 'date-time', description: 'The same as `after`.' })),
            until: Type.Optional(Type.String({ format: 'date-time', description: 'The same as `before`.' })),
            tag: Type.Optional(
              Type.String({
                maxLength: 513,
                description:
                  'A tag: `name` (messages carrying it, whatever its value) or `name:value`. With `tagValue`, `tag` is the whole name.',
              }),
            ),
            tagValue: Type.Optional(
              Type.String({
                maxLength: 256,
                description: 'With `tag`: messages carrying it with this value.',
              }),
            ),
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
      const { limit, cursor, to, recipient, after, since, before, until, tag, tagValue, ...filters } =
        request.query;
      const position =
        cursor === undefined
          ? undefined
          : (() => {
              const [, at, id] = EMAIL_CURSOR.exec(decodeCursor(cursor, (t) => EMAIL_CURSOR.test(t)))!;
              return { createdAt: Number(at), id: id! };
            })();
      // `to`, `after` and `before` are the names; `recipient`, `since` and `until` say the same
      const address = oneOf('to', to, 'recipient', recipient);
      const from = oneOf('after', after, 'since', since);
      const till = oneOf('before', before, 'until', until);
      // `tag=name:value` names a value too, unless `tagValue` does (then `tag` is the whole name)
      const colon = tag !== undefined && tagValue === undefined ? tag.indexOf(':') : -1;
      const tagged =
        colon > 0 ? { tag: tag!.slice(0, colon), tagValue: tag!.slice(colon + 1) } : { tag, tagValue };
      const page = await service.list(request.apiKey!, {
        limit: limit === undefined ? 50 : Number(limit),
        ...filters,
        ...(address !== undefined && { recipient: address }),
        ...(from !== undefined && { since: from }),
        ...(till !== undefined && { until: till }),
        ...(tagged.tag !== undefined && { tag: tagged.tag }),
        ...(tagged.tagValue !== undefined && { tagValue: tagged.tagValue }),
        ...(position && { after: position }),
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
    async (request) => ok(await service.get(request.apiKey!, request.params.id)),
  );

  api.get(
    '/emails/:id/content',
    {
      schema: {
        tags: ['Sending'],
        summary: 'A message as its recipients get it',
        description:
          'Its subject, header fields, and decoded HTML and text parts, read from the stored message (the fields each attempt adds aside: DKIM-Signature, Feedback-ID, a Marketing recipient’s List-Unsubscribe). Tracked links are shown as their destinations and the open pixel is left out: each recipient’s copy has its own. For showing what was sent; render the HTML only in a sandboxed frame.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: dataEnvelope(Type.Ref(EmailContentSchema)), ...errors },
      },
    },
    async (request) => ok(await service.getContent(request.apiKey!, request.params.id)),
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
    async (request) => ok(await service.suppressions(wholeAccount(request), request.query.after)),
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
    async (request) => ok(await service.removeSuppression(wholeAccount(request), request.params.address)),
  );
}

/** The value of a filter that has two names, refusing both at once. */
function oneOf(name: string, value: string | undefined, alias: string, aliasValue: string | undefined) {
  if (value !== undefined && aliasValue !== undefined)
    throw new ApiError('REQUEST_INVALID', `${alias} is another name for ${name}: give one of them`);
  return value ?? aliasValue;
}

/**
 * The batch's entries, once its shape around them is right: a body that is not `{emails: [...]}`
 * with 1 to 100 entries fails as a whole, as any route's malformed body does; an entry that is
 * not a message (a number, `null`) is that entry's error.
 */
function batchEntries(request: FastifyRequest): unknown[] {
  const error = request.validationError as FastifyError | undefined;
  const emails = (request.body as { emails?: unknown } | undefined)?.emails;
  const shaped =
    request.body !== null &&
    typeof request.body === 'object' &&
    Object.keys(request.body).every((k) => k === 'emails') &&
    Array.isArray(emails) &&
    emails.length >= 1 &&
    emails.length <= MAX_BATCH;
  if (error !== undefined && !shaped) throw error;
  return emails as unknown[];
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
