import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { ErrorEnvelopeSchema } from '../schemas.js';

const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

/** `/healthz`: the process is up. `/readyz`: it can serve, its database answering. */
export async function healthRoutes(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const schema = (summary: string) => ({
    tags: ['Operations'],
    summary,
    response: { 200: HealthSchema, 503: Type.Ref(ErrorEnvelopeSchema) },
  });
  app.get('/healthz', { schema: schema('Liveness') }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { schema: schema('Readiness: the database answers') }, async () => {
    try {
      await options.store.ping();
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'the database does not answer');
    }
    return { status: 'ok' as const };
  });
}
