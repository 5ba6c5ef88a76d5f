/**
 * The pages a newcomer meets after `npm start`: the editor playground at `/` and the domains
 * dashboard at `/domains`, built into `dist/web` by `scripts/build-web.mjs`, with their assets
 * under `/assets/`. They load scripts only from this origin (see `PAGE_CSP`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** `packages/server/dist/web`, from the sources (tests) and from the build alike. */
export const WEB_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

/**
 * Scripts and styles from this origin only; images from anywhere over https (emails show
 * remote images); the preview's sandboxed iframe renders email HTML, whose inline styles
 * need 'unsafe-inline' for styles only. No framing of these pages.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' about: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGES: Record<string, string> = { '/': 'playground.html', '/domains': 'domains.html' };

export async function pageRoutes(app: FastifyInstance): Promise<void> {
  const built = existsSync(WEB_DIR);
  if (built) {
    await app.register(fastifyStatic, {
      root: WEB_DIR,
      prefix: '/assets/',
      index: false,
      // Bundles are rebuilt in place: revalidate, but let browsers keep them meanwhile.
      cacheControl: true,
      maxAge: '1h',
    });
  }
  for (const [route, file] of Object.entries(PAGES)) {
    app.get(route, { schema: { hide: true } }, async (_request, reply) => {
      const page = path.join(WEB_DIR, file);
      if (!built || !existsSync(page)) {
        return reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .send(`This page is not built yet: run "npm run build" (npm start does it for you), then reload.`);
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', PAGE_CSP)
        .header('cache-control', 'no-cache')
        .send(readFileSync(page, 'utf8'));
    });
  }
}
