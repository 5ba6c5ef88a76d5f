import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Readiness } from '../readiness.js';
import { ErrorEnvelopeSchema } from '../schemas.js';

const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

const ReadySchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
      description: '`degraded`: a dependency that is not required is down (Redis); the process still serves.',
    }),
    dependencies: Type.Record(
      Type.String(),
      Type.Object(
        {
          status: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
          required: Type.Boolean(),
          detail: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      {
        description:
          '`database` always; `redis` with `REDIS_URL`; `dns` (the DKIM responder thread) with `DNS_LISTEN`.',
      },
    ),
  },
  { additionalProperties: false },
);

/**
 * `/healthz`: the process is up. `/readyz`: it can serve: each dependency it needs answers, by
 * name (`http/readiness.ts`); 503 naming the required ones that do not.
 */
export async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }): Promise<void> {
  const tags = ['Operations'];
  app.get(
    '/healthz',
    { schema: { tags, summary: 'Liveness', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Readiness: every dependency this process needs, by name',
        description:
          '200 when the required dependencies answer (`status` `degraded` when Redis does not: rate limits are then counted per process). 503 `SERVICE_UNAVAILABLE` when a required one does not, each named in `details`.',
        response: { 200: ReadySchema, 503: Type.Ref(ErrorEnvelopeSchema) },
      },
    },
    async () => {
      const report = await options.readiness.report();
      if (report.status === 'unavailable') {
        const down = Object.entries(report.dependencies).filter(([, d]) => d.status === 'down' && d.required);
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          `not ready: ${down.map(([name, d]) => `${name} (${d.detail})`).join(', ')}`,
          down.map(([name, d]) => ({ path: name, message: d.detail ?? 'down' })),
        );
      }
      return { status: report.status, dependencies: report.dependencies };
    },
  );
}
