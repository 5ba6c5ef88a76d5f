/**
 * The tracking host's two addresses (issue 37), served on the API's port and on the tracking
 * listener (`TRACKING_LISTEN`, HTTPS on customers' tracking hosts):
 * - `GET /t/o/{token}`: the open pixel, a 1×1 transparent GIF never cached, so each open asks;
 * - `GET|HEAD /t/c/{token}/{link}`: a tracked link, answered with a redirect to the link.
 * Tokens are signed (`email/tracking.ts`): an altered one, or a link that is not the one signed,
 * gets a 404 and goes nowhere. The request's address is never stored; its user agent is read
 * only to tell a machine from a person.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmailService } from '../../service/email-service.js';

/** The smallest transparent GIF (43 bytes). */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not recognised</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem"><h1>Link not recognised</h1><p>This link is not valid: it may have been cut or changed on its way. Ask the sender for the address it leads to.</p></body></html>';

const seen = (request: FastifyRequest) => ({
  method: request.method,
  userAgent: request.headers['user-agent'],
});

export async function trackingRoutes(
  app: FastifyInstance,
  options: { service: EmailService },
): Promise<void> {
  const token = { type: 'string', maxLength: 100 };

  app.get<{ Params: { token: string } }>(
    '/t/o/:token',
    { schema: { hide: true, params: { type: 'object', properties: { token }, required: ['token'] } } },
    async (request, reply) => {
      const known = await options.service.recordOpen(request.params.token, seen(request));
      reply
        .code(known ? 200 : 404)
        .type('image/gif')
        .header('cache-control', 'no-store, no-cache, must-revalidate, private')
        .header('referrer-policy', 'no-referrer');
      return PIXEL;
    },
  );

  app.route<{ Params: { token: string; link: string } }>({
    method: ['GET', 'HEAD'],
    url: '/t/c/:token/:link',
    // the link itself, base64url: at most what tracking.ts follows
    schema: {
      hide: true,
      params: {
        type: 'object',
        properties: { token, link: { type: 'string', maxLength: 5400 } },
        required: ['token', 'link'],
      },
    },
    handler: async (request, reply) => {
      const url = await options.service.recordClick(request.params.token, request.params.link, seen(request));
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (url === undefined) return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
      return reply.redirect(url, 302);
    },
  });
}
