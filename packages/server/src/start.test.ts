/**
 * `npm start` as a person at a terminal runs it (a pseudo-terminal, through `script`), after
 * `npm test` has built everything: nothing is rebuilt, the service answers, the banner names
 * its pages and the key command, and Ctrl-C says it stopped. Regression: every `npm start`
 * rebuilt all three packages (154 s on two busy cores) and printed nothing meanwhile.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';

test('npm start with nothing changed: no rebuild, a banner with the pages, Ctrl-C stops it', async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'start-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn('script', ['-qefc', 'npm start', '/dev/null'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.after(() => child.kill('SIGKILL'));

  await waitUntil('the banner', () => /Ctrl-C stops it/.test(output), 120_000);
  for (const name of ['@service/email-builder', '@service/client', '@service/server'])
    assert.match(output, new RegExp(`${name}: up to date`), `${name} is not rebuilt`);
  const base = /Playground +(http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
  assert.ok(base, `the playground's address in:\n${output}`);
  assert.match(output, new RegExp(`Domains +${base}/domains`));
  assert.match(output, new RegExp(`API reference +${base}/docs`));
  assert.match(output, /An API key +npm run --silent cli -- keys create --name me/);
  // development: the local DNS for .test domains (issue 40), at its default port or a free one
  assert.match(output, /Local DNS +127\.0\.0\.1:\d+ \(for \.test domains/);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);

  child.stdin.write('\x03');
  await exited;
  assert.match(output, /\nstopped\r?\n/);
});
