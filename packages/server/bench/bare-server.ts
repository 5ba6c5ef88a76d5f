/**
 * The baseline: a bare Fastify route answering a JSON body of the given size, with no
 * authentication, validation or database. Listens on `PORT`.
 */
import Fastify from 'fastify';

const body = JSON.parse(process.env.BARE_BODY ?? '[]');
const app = Fastify({ logger: false });
app.post('/bare', async () => body);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
