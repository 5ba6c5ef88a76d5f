/**
 * The baselines: bare Fastify routes answering a JSON body of the given size, with no
 * authentication, validation, logging or database. `/bare` returns an object that Fastify
 * serialises on every request; `/bare-string` sends the same bytes ready-made. Listens on `PORT`.
 */
import Fastify from 'fastify';

const text = process.env.BARE_BODY ?? '[]';
const body = JSON.parse(text);
const app = Fastify({ logger: false });
app.post('/bare', async () => body);
app.post('/bare-string', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(text);
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
