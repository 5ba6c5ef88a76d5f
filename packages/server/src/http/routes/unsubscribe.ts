/**
 * One-click unsubscribe (RFC 8058) for recipients of Marketing mail: `POST /unsubscribe/{token}`
 * with `List-Unsubscribe=One-Click` (what mailbox providers send) puts the address on the
 * sender's suppression list for that stream (Marketing); `GET` shows a page with a button doing
 * the same POST, for a person who follows the link, and one that stops all the sender's mail. The token is the credential (`email/unsubscribe.ts`); an unknown one
 * gets a 404 page. No API key, no cookies, nothing from the request echoed into the page.
 */
import type { FastifyInstance } from 'fastify';
import type { EmailService } from '../../service/email-service.js';

/** Inline style and a same-origin form: nothing else. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem"><h1>${title}</h1>${body}</body></html>`;

export async function unsubscribeRoutes(
  app: FastifyInstance,
  options: { service: EmailService },
): Promise<void> {
  // The one-click body is a form (RFC 8058), but a click is a click: any body of a few bytes,
  // of any type, is taken and ignored.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );
  const params = {
    type: 'object',
    properties: { token: { type: 'string', maxLength: 200 } },
    required: ['token'],
  };

  app.get<{ Params: { token: string } }>(
    '/unsubscribe/:token',
    { schema: { hide: true, params } },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP);
      // The form posts to this same address: the token is not written into the page.
      return page(
        'Unsubscribe',
        '<p>Stop receiving these emails at this address?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>' +
          '<p>Or receive nothing at all from this sender, account messages included:</p><form method="post" action="?scope=all"><button type="submit">Stop all email from this sender</button></form>',
      );
    },
  );

  app.post<{ Params: { token: string }; Querystring: { scope?: 'all' } }>(
    '/unsubscribe/:token',
    {
      schema: {
        hide: true,
        params,
        querystring: {
          type: 'object',
          properties: { scope: { type: 'string', enum: ['all'] } },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      // One-click (RFC 8058) leaves the message's stream; `?scope=all`, the page's second
      // button, leaves every stream of the sender.
      const done = await options.service.unsubscribe(request.params.token, request.query.scope === 'all');
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', PAGE_CSP)
        .code(done ? 200 : 404);
      return done
        ? page('Unsubscribed', '<p>This address will not receive these emails any more.</p>')
        : page('Link not recognised', '<p>This unsubscribe link is not valid.</p>');
    },
  );
}
