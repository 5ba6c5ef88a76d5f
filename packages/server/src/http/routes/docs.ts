/**
 * `/docs`, the API reference (issue 40): rendered once from the OpenAPI document on the first
 * request (the document is complete only once every route is registered), then served from
 * memory, gzipped for the browsers that take it. Under the pages' CSP: the page has no script.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from '../reference/openapi-types.js';
import { renderReferencePage } from '../reference/reference-page.js';
import { PAGE_CSP } from './pages.js';

export interface DocsRoutesOptions {
  /** The OpenAPI document, asked for once, at the first request. */
  document: () => unknown;
}

interface Rendered {
  html: Buffer;
  gzip: Buffer;
  etag: string;
}

export async function docsRoutes(app: FastifyInstance, options: DocsRoutesOptions): Promise<void> {
  let rendered: Rendered | undefined;
  const page = (): Rendered => {
    if (!rendered) {
      const html = Buffer.from(renderReferencePage(options.document() as OpenApiDocument));
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
      rendered = { html, gzip: gzipSync(html), etag };
    }
    return rendered;
  };

  app.get('/docs', { schema: { hide: true } }, async (request, reply) => {
    const { html, gzip, etag } = page();
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
      return reply.header('content-encoding', 'gzip').send(gzip);
    }
    return reply.send(html);
  });
  // Swagger UI lived at /docs/ (and /docs/static/…): links to it still land on the reference.
  app.get('/docs/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs', 301));
}
