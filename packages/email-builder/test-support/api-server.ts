import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_DIR } from './server.js';

/** What these tests use of the service's own test server (packages/server/src/test-support). */
export interface ApiServer {
  url: string;
  createKey(options?: { name?: string; scopes?: string[] }): Promise<{ key: string; accountId: string }>;
  request(
    method: string,
    route: string,
    options?: { key?: string; body?: unknown },
  ): Promise<{ status: number; body: any; contractProblems: string[] }>;
  close(): Promise<void>;
}

/**
 * Starts the real service (SQLite in a temporary DATA_DIR, every response checked against its
 * /openapi.json). Loaded by URL so this package's type check stays inside this package.
 */
export async function startApiServer(env: Record<string, string> = {}): Promise<ApiServer> {
  // `.js`: the compiled file in the tests' tree, the source under tsx
  const file = path.join(PACKAGE_DIR, '../server/src/test-support/test-server.js');
  const mod = (await import(pathToFileURL(file).href)) as {
    startTestServer(env: Record<string, string>): Promise<ApiServer>;
  };
  return mod.startTestServer(env);
}
