// test-backends: sqlite
/**
 * `cli openapi`, which the client's build runs for its types, needs no database and writes no
 * file: the build runs it before better-sqlite3 is compiled when `npm ci` skipped install scripts
 * (issue 41). Its document is the one a running server serves.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../test-support/processes.js';
import { startTestServer } from '../test-support/test-server.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'openapi-document-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('cli openapi prints the served document without opening a database or writing a file', async () => {
  // Nothing can be created under a regular file: any database or temporary file would fail.
  const notADirectory = path.join(scratch, 'file');
  writeFileSync(notADirectory, '');
  const result = await runCli(['openapi'], {
    DATA_DIR: path.join(notADirectory, 'data'),
    TMPDIR: path.join(notADirectory, 'tmp'),
    LOG_LEVEL: 'silent',
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(readdirSync(scratch), ['file']);

  const server = await startTestServer();
  try {
    const served = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: unknown;
    };
    const printed = JSON.parse(result.stdout);
    assert.equal(printed.openapi, served.openapi);
    assert.deepEqual(Object.keys(printed.paths).sort(), Object.keys(served.paths).sort());
    assert.deepEqual(printed.components, served.components);
  } finally {
    await server.close();
  }
});
