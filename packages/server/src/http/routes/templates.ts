/**
 * Saved email templates, per account ("My Templates" of `@service/email-builder`, whose
 * `HttpTemplateStore` speaks to these routes): list, get, create, update, delete, and render a
 * stored template with its merge variables filled. Browser-facing: scope `templates`, CORS open.
 */
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { TemplateService } from '../../service/template-service.js';
import type { Store } from '../../store/store.js';
import { browserApi } from '../browser-api.js';
import { CostBudget } from '../cost-budget.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { errorEnvelope } from '../error-handler.js';
import {
  ErrorEnvelopeSchema,
  itemEnvelope,
  ListQuerySchema,
  pageSchema,
  requestErrorResponses,
} from '../schemas.js';

export const TemplateDocumentSchema = Type.Object(
  {
    type: Type.Literal('doc'),
    attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    content: Type.Optional(Type.Array(Type.Unknown())),
  },
  {
    $id: 'TemplateDocument',
    additionalProperties: false,
    description:
      'A document of the editor’s own JSON (`editor.getJSON()`), as the editor’s rules cleaned it: unknown blocks are refused, unsafe URLs emptied.',
  },
);

const summaryFields = {
  id: Type.String({ description: 'The template’s id, `tpl_…`.' }),
  name: Type.String(),
  size: Type.Integer({ description: 'Bytes of the document’s JSON.' }),
  createdAt: Type.String({ description: 'ISO 8601 time.' }),
  updatedAt: Type.String({ description: 'ISO 8601 time.' }),
};

export const TemplateSummarySchema = Type.Object(summaryFields, {
  $id: 'TemplateSummary',
  additionalProperties: false,
});

export const TemplateSchema = Type.Object(
  { ...summaryFields, document: Type.Ref(TemplateDocumentSchema) },
  { $id: 'Template', additionalProperties: false },
);

/** Template envelopes say which statuses an item can have. */
const envelope = (id: string, data: TSchema) =>
  itemEnvelope(id, data, Type.Integer({ description: '200 on success, else the item’s error status.' }));

export const TemplateEnvelopeSchema = envelope('TemplateEnvelope', Type.Ref(TemplateSchema));
export const DeletedTemplateEnvelopeSchema = envelope(
  'DeletedTemplateEnvelope',
  Type.Object({ id: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: false }),
);
export const RenderedTemplateEnvelopeSchema = envelope(
  'RenderedTemplateEnvelope',
  Type.Object(
    {
      id: Type.String(),
      html: Type.String({
        description: 'The email as a complete HTML document, variables filled and escaped.',
      }),
      text: Type.String({ description: 'The plain-text alternative, variables filled.' }),
      missing: Type.Array(Type.String(), {
        description: 'Variables with no value and no fallback: rendered as empty text.',
      }),
      defaulted: Type.Array(Type.String(), {
        description: 'Variables with no value that showed their fallback.',
      }),
      unsafe: Type.Array(Type.String(), {
        description: 'Variables whose value was refused as a whole link URL (not http(s), mailto or tel).',
      }),
    },
    { additionalProperties: false },
  ),
);

export const TemplatePageSchema = pageSchema('TemplatePage', 'templates', Type.Ref(TemplateSummarySchema));

/** One template as a single envelope (`GET /api/public/templates/{id}`). */
export const TemplateResultSchema = Type.Object(
  { data: Type.Ref(TemplateSchema), error: Type.Null(), status: Type.Literal(200) },
  { $id: 'TemplateResult', additionalProperties: false },
);

/** Schemas registered at the root, so /openapi.json lists them as components. */
export const TEMPLATE_SCHEMAS = [
  TemplateDocumentSchema,
  TemplateSummarySchema,
  TemplateSchema,
  TemplateEnvelopeSchema,
  DeletedTemplateEnvelopeSchema,
  RenderedTemplateEnvelopeSchema,
  TemplatePageSchema,
  TemplateResultSchema,
];

const TemplateId = Type.String({ minLength: 1, maxLength: 64 });
const Name = Type.String({ maxLength: 1000, description: '1–200 characters after trimming.' });
const Document = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'The editor’s JSON (`editor.getJSON()`); checked per item by the editor’s own rules.',
  },
);

function bodies(maxItems: number, maxRenderItems: number) {
  const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, what: string, most = maxItems) =>
    Type.Array(item, { minItems: 1, maxItems: most, description: `1 to ${most} ${what}.` });
  return {
    create: Type.Object(
      {
        templates: list(
          Type.Object({ name: Name, document: Document }, { additionalProperties: false }),
          'templates',
        ),
      },
      { additionalProperties: false },
    ),
    update: Type.Object(
      {
        templates: list(
          Type.Object(
            { id: TemplateId, name: Type.Optional(Name), document: Type.Optional(Document) },
            {
              additionalProperties: false,
              minProperties: 2,
              description: '`id` and a new `name`, `document` or both.',
            },
          ),
          'changes',
        ),
      },
      { additionalProperties: false },
    ),
    remove: Type.Object({ ids: list(TemplateId, 'template ids') }, { additionalProperties: false }),
    render: Type.Object(
      {
        templates: list(
          Type.Object(
            {
              id: TemplateId,
              variables: Type.Optional(
                Type.Record(Type.String(), Type.Unknown(), {
                  description:
                    'Values by variable name (`{"first_name": "Ada", "order": {"total": "$5"}}`); strings, numbers and booleans are used.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          'templates to render',
          maxRenderItems,
        ),
      },
      { additionalProperties: false },
    ),
    listQuery: ListQuerySchema,
  };
}

export interface TemplateRoutesOptions {
  config: Config;
  store: Store;
  service: TemplateService;
}

/** Bytes per socket write of a render answer: one 4 MB write held the event loop ~8 ms. */
const WRITE_SLICE = 64 * 1024;

/** The pieces cut into writes of at most `WRITE_SLICE` bytes (views, not copies). */
function* slices(pieces: readonly Uint8Array[]): Generator<Uint8Array> {
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += WRITE_SLICE) yield piece.subarray(at, at + WRITE_SLICE);
  }
}

const TEMPLATE_CURSOR = /^(\d{1,16})\.(tpl_[a-z2-7]{1,40})$/;

/** A page's cursor: `<updatedAt>.<id>` of its last template. */
function templateCursor(next: { updatedAt: number; id: string }): string {
  return encodeCursor(`${next.updatedAt}.${next.id}`);
}

function templateAfter(cursor: string): { updatedAt: number; id: string } {
  const [, updatedAt, id] = TEMPLATE_CURSOR.exec(decodeCursor(cursor, (text) => TEMPLATE_CURSOR.test(text)))!;
  return { updatedAt: Number(updatedAt), id: id! };
}

export async function templateRoutes(app: FastifyInstance, options: TemplateRoutesOptions): Promise<void> {
  const { service, config } = options;
  await browserApi(app, { config, store: options.store, scope: 'templates' });
  const schemas = bodies(config.limits.maxItemsPerRequest, config.templates.maxRenderItems);
  const renderBudget = new CostBudget({
    max: config.templates.renderBudget,
    windowMs: config.limits.rateLimitWindowMs,
    units: 'render units',
    spender: 'this key',
  });
  // Bodies, queries and params are typed from their schemas: no hand-written copy to drift.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Templates'];
  const bodyLimit = config.templates.bodyLimitBytes;
  const account = (request: { apiKey?: { accountId: string } }) => request.apiKey!.accountId;

  api.get(
    '',
    {
      schema: {
        tags,
        summary: 'List saved templates',
        description:
          'The account’s templates without their documents, most recently updated first; follow `nextCursor`.',
        querystring: schemas.listQuery,
        response: { 200: Type.Ref(TemplatePageSchema), ...requestErrorResponses },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      const after = request.query.cursor === undefined ? undefined : templateAfter(request.query.cursor);
      const page = await service.list(account(request), after ? { after, limit } : { limit });
      return {
        data: { templates: page.templates, nextCursor: page.next ? templateCursor(page.next) : null },
        error: null,
        status: 200 as const,
      };
    },
  );

  api.get(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Get a template with its document',
        params: Type.Object({ id: TemplateId }, { additionalProperties: false }),
        response: {
          200: Type.Ref(TemplateResultSchema),
          404: Type.Ref(ErrorEnvelopeSchema),
          ...requestErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const template = await service.get(account(request), request.params.id);
      if (!template) {
        return reply.code(404).send(
          errorEnvelope({
            code: 'TEMPLATE_NOT_FOUND',
            message: `this account has no template "${request.params.id.slice(0, 64)}"`,
          }),
        );
      }
      // Stored documents passed the editor's checkDocument: their root is a `doc`.
      const data = template as typeof template & { document: { type: 'doc' } };
      return { data, error: null, status: 200 as const };
    },
  );

  api.post(
    '',
    {
      bodyLimit,
      schema: {
        tags,
        summary: 'Save templates',
        description:
          'Creates each entry. HTTP 200 with one envelope per entry, in request order; an entry with a bad name, a document the editor could not load, a document over the size limit or over the account’s template limit fails alone.',
        body: schemas.create,
        response: { 200: Type.Array(Type.Ref(TemplateEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.create(account(request), request.body.templates),
  );

  api.patch(
    '',
    {
      bodyLimit,
      schema: {
        tags,
        summary: 'Rename templates or replace their documents',
        description: 'Applies each change. HTTP 200 with one envelope per entry, in request order.',
        body: schemas.update,
        response: { 200: Type.Array(Type.Ref(TemplateEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.update(account(request), request.body.templates),
  );

  api.delete(
    '',
    {
      schema: {
        tags,
        summary: 'Delete templates',
        description:
          'Deletes each id. HTTP 200 with one envelope per id: `{id, deleted: true}` or `TEMPLATE_NOT_FOUND`.',
        body: schemas.remove,
        response: { 200: Type.Array(Type.Ref(DeletedTemplateEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request) => service.remove(account(request), request.body.ids),
  );

  api.post(
    '/render',
    {
      bodyLimit,
      // A key with nothing left is refused before its body is even read.
      preParsing: async (request) => renderBudget.refuseIfSpent(request.apiKey!.id),
      schema: {
        tags,
        summary: 'Render stored templates with data',
        description:
          'Renders each stored template to email HTML and plain text with its merge variables (`{{name}}`, `{{name|fallback}}`) filled from `variables`. ' +
          'Values are HTML-escaped (URL-encoded inside links); a variable with no value shows its fallback, or nothing, and is listed. HTTP 200 with one envelope per entry. ' +
          `At most ${config.templates.maxRenderItems} entries (\`TEMPLATE_RENDER_MAX_ITEMS\`) and ${config.templates.maxRenderOutputBytes} bytes of output per request (later entries fail alone with \`TEMPLATE_RENDER_TOO_LARGE\`). ` +
          `Each entry costs one render unit per started 16 KiB of its document from the key’s budget of ${config.templates.renderBudget} per rate-limit window (\`RENDER_BUDGET\`): 429 \`RATE_LIMITED\` with \`Retry-After\` when spent.`,
        body: schemas.render,
        response: { 200: Type.Array(Type.Ref(RenderedTemplateEnvelopeSchema)), ...requestErrorResponses },
      },
    },
    async (request, reply) => {
      const key = request.apiKey!.id;
      const pieces = await service.render(account(request), request.body.templates, (units) =>
        renderBudget.charge(key, units),
      );
      // Already JSON, built on the render threads: streamed piece by piece, not serialised
      // again, so megabytes go out in socket-sized writes between other requests' work.
      reply
        .type('application/json; charset=utf-8')
        .header(
          'content-length',
          pieces.reduce((n, p) => n + p.length, 0),
        )
        // the bytes of the declared answer, already serialised (the type provider types objects)
        .send(Readable.from(slices(pieces)) as never);
      return reply;
    },
  );
}
