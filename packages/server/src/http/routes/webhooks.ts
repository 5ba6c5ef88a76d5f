/**
 * The webhook routes (issue 20): endpoints (create, list, delete, enable) and their
 * deliveries (list, retry). Full keys only: the group requires the `webhooks` scope, which
 * no browser key can hold (`API_SCOPES`), so only `*` keys reach it. Handlers only translate
 * HTTP to the `WebhookService` and back.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { WebhookService } from '../../service/webhook-service.js';
import type { Store } from '../../store/store.js';
import { WEBHOOK_EVENT_TYPES } from '../../webhook/events.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBodySchema,
  dataEnvelope,
  EmailWebhookEventSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEventBodySchema,
} from '../../webhook/schemas.js';
import { protectedApi } from '../protected-api.js';
import { ErrorEnvelopeSchema, requestErrorResponses } from '../schemas.js';

export interface WebhookRoutesOptions {
  store: Store;
  service: WebhookService;
}

/** A webhook body is a URL and a few event names: 8 KiB is ample, and refuses junk early. */
export const WEBHOOK_BODY_LIMIT = 8 * 1024;

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const DeliveryParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), deliveryId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
const errors = {
  ...requestErrorResponses,
  404: Type.Ref(ErrorEnvelopeSchema),
  409: Type.Ref(ErrorEnvelopeSchema),
};
const ok = <T>(data: T) => ({ data, error: null, status: 200 as const });

export async function webhookRoutes(app: FastifyInstance, options: WebhookRoutesOptions): Promise<void> {
  await protectedApi(app, { store: options.store, scope: 'webhooks' });
  const { service } = options;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Webhooks'];

  api.post(
    '',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'Domain events are POSTed to `url`, signed as Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature`). ' +
          'The answer holds the signing secret, shown only this once. The URL must be `https://` and resolve only to public addresses ' +
          '(checked again at every delivery). Full API keys only.',
        body: CreateWebhookBodySchema,
        response: { 200: dataEnvelope(Type.Ref(CreatedWebhookSchema)), ...errors },
      },
    },
    async (request) => ok(await service.create(request.apiKey!.accountId, request.body)),
  );

  api.get(
    '',
    {
      schema: {
        tags,
        summary: 'List webhook endpoints',
        description:
          'The account’s endpoints, oldest first, without their secrets; disabled ones show `disabledAt`.',
        response: { 200: dataEnvelope(Type.Array(Type.Ref(WebhookEndpointSchema))), ...errors },
      },
    },
    async (request) => ok(await service.list(request.apiKey!.accountId)),
  );

  api.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Remove a webhook endpoint',
        description: 'Removes the endpoint and its deliveries; nothing more is sent to it.',
        params: IdParams,
        response: {
          200: dataEnvelope(
            Type.Object({ id: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: false }),
          ),
          ...errors,
        },
      },
    },
    async (request) => ok(await service.remove(request.apiKey!.accountId, request.params.id)),
  );

  api.post(
    '/:id/enable',
    {
      schema: {
        tags,
        summary: 'Enable a disabled webhook endpoint',
        description:
          'An endpoint whose every attempt failed for 5 days is disabled; this resumes its deliveries (the waiting ones included) and forgets the failures.',
        params: IdParams,
        response: { 200: dataEnvelope(Type.Ref(WebhookEndpointSchema)), ...errors },
      },
    },
    async (request) => ok(await service.enable(request.apiKey!.accountId, request.params.id)),
  );

  api.get(
    '/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Recent deliveries of a webhook endpoint',
        description:
          'The 100 most recent deliveries, newest first: event, HTTP status, duration and error of the last attempt, and the next retry.',
        params: IdParams,
        response: { 200: dataEnvelope(Type.Array(Type.Ref(WebhookDeliverySchema))), ...errors },
      },
    },
    async (request) => ok(await service.deliveries(request.apiKey!.accountId, request.params.id)),
  );

  api.post(
    '/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        summary: 'Send a delivery again',
        description:
          'Makes the delivery due now, whatever became of it, with the same `webhook-id` and body. ' +
          'Past the retry window it gets this one attempt.',
        params: DeliveryParams,
        response: { 200: dataEnvelope(Type.Ref(WebhookDeliverySchema)), ...errors },
      },
    },
    async (request) =>
      ok(await service.retry(request.apiKey!.accountId, request.params.id, request.params.deliveryId)),
  );
}

/**
 * The event bodies for the OpenAPI document's `webhooks` section (OpenAPI 3.1 §4.8.1): one
 * POST per event type, each body the `WebhookEvent` component.
 */
type OpenApiWebhooks = NonNullable<
  Extract<NonNullable<FastifyDynamicSwaggerOptions['openapi']>, { webhooks?: unknown }>['webhooks']
>;

export function webhookEventsOpenApi(): OpenApiWebhooks {
  const operation = (type: string): OpenApiWebhooks[string] => ({
    post: {
      summary: `${type} event`,
      description:
        'Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). ' +
        'Answer 2xx within 10 s; anything else is retried with back-off for 3 days.',
      requestBody: {
        content: {
          'application/json': {
            schema: {
              $ref: `#/components/schemas/${type.startsWith('email.') ? EmailWebhookEventSchema.$id : WebhookEventBodySchema.$id}`,
            },
          },
        },
      },
      responses: { '200': { description: 'Received.' } },
    },
  });
  return Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, operation(t)]));
}
