/**
 * Start the real server on a free loopback port over a real database, for tests that
 * drive it through HTTP. Each test server has its own temporary `DATA_DIR`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../config.js';
import { generateApiKey } from '../domain/api-key.js';
import { type RunningServer, startServer } from '../server.js';
import { openStore } from '../store/open.js';
import { testDkimKeys } from './dkim-test-keys.js';
import { loadOpenApi, type OpenApiChecker } from './openapi.js';
import { type PostgresServer, startPostgres } from './postgres.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** Problems found validating the body against `/openapi.json`. */
  contractProblems: string[];
}

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  /** A new API key (new account unless `accountId` is given); returns the secret. */
  createKey(options?: {
    name?: string;
    accountId?: string;
    scopes?: string[];
  }): Promise<{ key: string; accountId: string; id: string }>;
  /** Call the API; the response is checked against the OpenAPI document. */
  request<T = any>(
    method: string,
    route: string,
    options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /**
   * The server's `/openapi.json` as a checker, fetched when first needed: a server whose tests
   * never call the API skips generating the document (~0.2 s of CPU per server, issue 41).
   */
  openapi(): Promise<OpenApiChecker>;
  /** The last 100 lines the server logged (errors only, unless `logLevel` asked for more). */
  logLines(): string[];
  close(): Promise<void>;
}

/**
 * The database backend of every test server in this process: `TEST_BACKEND=postgres` runs
 * the same tests against PostgreSQL (a private cluster started once per process, or the
 * server at `TEST_DATABASE_URL`), each test server on a fresh database.
 */
export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
let postgres: Promise<PostgresServer> | undefined;

let migrated: Promise<string> | undefined;

/**
 * A fresh database for one test server: `DATABASE_URL` to use, or none for SQLite. Empty, or with
 * `migrated` a copy of one this process migrated once: a server brought an empty PostgreSQL
 * database up to date in 0.3–1.9 s (its server's CPU about 0.12 s), for every test server of
 * every PostgreSQL test file (issue 41). Migrating an empty database stays tested: the copy's
 * original, and every test asking for an empty one.
 */
export async function testDatabaseUrl(options: { migrated?: boolean } = {}): Promise<string | undefined> {
  if (TEST_BACKEND !== 'postgres') return undefined;
  postgres ??= startPostgres();
  const cluster = await postgres;
  if (!options.migrated) return cluster.createDatabase();
  migrated ??= (async () => {
    const url = await cluster.createDatabase();
    const store = await openStore({ dataDir: tmpdir(), databaseUrl: url, poolSize: 1 });
    await store.close();
    return url;
  })();
  return cluster.createDatabase({ template: await migrated });
}

/**
 * Start a server on the test backend (SQLite by default), plus any environment overrides;
 * `logLevel` keeps lines of that level and above (`error` by default).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { logLevel?: 'info' | 'error' } = {},
): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'service-test-'));
  const databaseUrl = env.DATABASE_URL ?? (await testDatabaseUrl({ migrated: true }));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DKIM_PROVIDER_HOST: 'provider.test',
    // Nothing listens on the discard port: checks fail at once with dns_error unless a test
    // points DNS_RESOLVERS at its own BIND. The short timeout is for that port only: a test's own
    // BIND keeps the service's default (2 s), since on a loaded CI run (5 files on 2 cores) an
    // answer can come more than 500 ms late, failing a status poll that asserts `verified`. A test whose
    // resolver never answers on purpose sets DNS_TIMEOUT_MS itself.
    ...(env.DNS_RESOLVERS === undefined && { DNS_RESOLVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '500' }),
    // The development local DNS (issue 40) is off unless a test turns it on (`127.0.0.1:0`).
    LOCAL_DNS_LISTEN: 'off',
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    ...env,
  });
  // The lines the server logs (errors, unless `logLevel` asks for more) are kept, the last 100,
  // and printed when a request answers 500: a 500 seen in a test then names its cause, even on
  // a CI machine.
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk).trimEnd());
      if (lines.length > 100) lines.shift();
      done();
    },
  });
  const keys = testDkimKeys();
  const server = await startServer(config, {
    logger: { level: options.logLevel ?? 'error', stream },
    ...(keys && { generateDkimKey: keys }),
  });
  let openapi: Promise<OpenApiChecker> | undefined;
  const contract = () => (openapi ??= loadOpenApi(server.url));

  return {
    server,
    url: server.url,
    dataDir,
    openapi: contract,
    logLines: () => [...lines],
    async createKey(options = {}) {
      const generated = generateApiKey();
      const record = await server.store.createApiKey({
        name: options.name ?? 'test',
        keyHash: generated.hash,
        keyPrefix: generated.prefix,
        scopes: options.scopes ?? ['*'],
        ...(options.accountId !== undefined && { accountId: options.accountId }),
      });
      return { key: generated.secret, accountId: record.accountId, id: record.id };
    },
    async request(method, route, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key !== undefined) headers.authorization = options.key;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${server.url}${route}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      if (response.status === 500)
        process.stderr.write(
          `${method} ${route} answered 500; the server logged:\n${lines.splice(0).join('\n') || '(nothing)'}\n`,
        );
      const pathOnly = route.split('?')[0]!;
      const contractProblems = response.headers.get('content-type')?.includes('json')
        ? (await contract()).check(method, pathOnly, response.status, parsed)
        : [];
      return { status: response.status, headers: response.headers, body: parsed as any, contractProblems };
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One message from the sandbox's own domain to its inbox (no DNS, no mail server), as a test
 * that needs traffic through sending sends it; asserts it was queued and returns the answer.
 */
export async function sendToSandbox(t: TestServer, key: string): Promise<ApiResponse> {
  const sent = await t.request('POST', '/api/public/emails', {
    key,
    body: {
      from: 'onboarding@sandbox.test',
      to: ['delivered@sandbox.test'],
      subject: 'Hi',
      html: '<p>Hello</p>',
    },
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return sent;
}
