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

/** A token and the longest link followed (4,000 characters), base64url, with room to spare. */
const MAX_CLICK_PATH = 5_600;

const seen = (request: FastifyRequest) => ({
  method: request.method,
  userAgent: request.headers['user-agent'],
  host: request.hostname,
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

  // A wildcard, not `:token/:link`: the router refuses a parameter over 100 characters (414),
  // and a link's base64url is most often longer.
  app.route<{ Params: { '*': string } }>({
    method: ['GET', 'HEAD'],
    url: '/t/c/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const path = request.params['*'];
      const slash = path.indexOf('/');
      const url =
        slash === -1 || path.length > MAX_CLICK_PATH
          ? undefined
          : await options.service.recordClick(path.slice(0, slash), path.slice(slash + 1), seen(request));
      if (url === undefined) return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
      return reply.redirect(url, 302);
    },
  });
}
