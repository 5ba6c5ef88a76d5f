// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/** The server as `npm start` runs it: a child process with JSON logs and graceful shutdown. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli, startServerProcess } from './test-support/processes.js';
import { testDatabaseUrl } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'main-test-'));
const databaseUrl = await testDatabaseUrl();
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
};
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('SIGTERM lets an in-flight request finish, then exits 0; logs are JSON with request ids and no key', async () => {
  const created = await runCli(['keys', 'create', '--name', 'main-test'], env);
  const key = created.stdout.trim().split('\n').at(-1)!;
  const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });

  const quick = await fetch(`${server.url}/api/public/domain`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json', 'x-request-id': 'quick-1' },
    body: JSON.stringify({ domains: [{ domain: 'logs.example', domainType: 'Marketing' }] }),
  });
  assert.equal(quick.status, 200);

  // Start a request whose body arrives in two parts, and stop the server between them. Each step
  // waits for the server to show it took the one before, not for a timer: SIGTERM 300 ms after
  // the first part reached, on a loaded machine, a server that had not read the request yet,
  // and its close then took the connection for an idle one. `Expect: 100-continue` makes the
  // server say it has the request (Node sends "100 Continue" as it hands the request on), and its
  // "shutting down" line says it has the signal.
  const body = JSON.stringify({ domains: [{ domain: 'inflight.example', domainType: 'Transactional' }] });
  const half = Math.floor(body.length / 2);
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(`${server.url}/api/public/domain`, {
      method: 'POST',
      headers: {
        authorization: key,
        'content-type': 'application/json',
        'content-length': String(body.length),
        expect: '100-continue',
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.once('continue', () => {
      req.write(body.slice(0, half));
      server.child.kill('SIGTERM');
      waitUntil('the server to log that it is shutting down', () =>
        server.output().includes('"shutting down"'),
      ).then(() => req.end(body.slice(half)), reject);
    });
    req.flushHeaders();
  });
  const finished = await response;
  assert.equal(finished.status, 200, finished.text);
  assert.equal(JSON.parse(finished.text)[0].data.domain, 'inflight.example');
  assert.equal(await server.exited, 0);

  const lines = server
    .output()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.ok(
    lines.some((l) => l.reqId === 'quick-1' && l.res?.statusCode === 200),
    'request logs carry the request id',
  );
  assert.ok(lines.some((l) => l.msg === 'shutting down'));
  assert.equal(server.output().includes(key), false, 'the API key never reaches the logs');
  assert.equal(server.output().includes(key.slice(3)), false);
});

test('a configuration error stops start-up with exit code 2 and names the variable', async () => {
  await assert.rejects(
    startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_MAX: '-1' }),
    /exited with 2: configuration error: RATE_LIMIT_MAX must be an integer/,
  );
});
