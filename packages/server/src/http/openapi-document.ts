/**
 * The OpenAPI document without a running server: the app is built over a throwaway SQLite
 * file and asked for its document. The client package generates its types from this.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import { createServices, routeServices } from '../services.js';
import { openStore } from '../store/open.js';
import { buildApp } from './app.js';

export async function buildOpenApiDocument(config: Config): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  const store = await openStore({ dataDir });
  // The server's own wiring; nothing runs (the scheduler is never started, no request comes).
  // Development mode, so the document is the same wherever it is built: it holds the sandbox's
  // routes too, each marked development only (issue 40).
  const services = createServices({ ...config, production: false }, store);
  try {
    const app = await buildApp({
      config: { ...config, production: false },
      store,
      ...routeServices(services),
      logger: false,
    });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await services.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
