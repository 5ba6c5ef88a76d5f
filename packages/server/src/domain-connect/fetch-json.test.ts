import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fetchJson } from './fetch-json.js';

/** A provider that answers each path its own way, over TLS on 127.0.0.1. */
let server: Server;
let base: string;
let ca: string;
before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fetch-json-'));
  execFileSync(
    'openssl',
    [
      ...'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1'.split(
        ' ',
      ),
      ...[
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'k'),
        '-out',
        path.join(dir, 'c'),
      ],
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(path.join(dir, 'c'), 'utf8');
  server = createServer({ key: readFileSync(path.join(dir, 'k')), cert: ca }, (request, response) => {
    if (request.url === '/ok') return response.end(JSON.stringify({ providerName: 'DNS Co' }));
    if (request.url === '/not-json') return response.end('<html>');
    if (request.url === '/large') return response.end(`"${'x'.repeat(70_000)}"`);
    if (request.url === '/cut') {
      // headers and part of the body, then the connection ends
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"provider');
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    // '/stall': headers only, never the body
    response.writeHead(200, { 'content-length': '10' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rmSync(dir, { recursive: true, force: true });
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const get = (route: string, timeoutMs = 2000) =>
  fetchJson(`${base}${route}`, { timeoutMs, allowPrivate: true, ca });

test('a JSON answer is parsed; an answer that is not JSON has no body', async () => {
  assert.deepEqual(await get('/ok'), { status: 200, body: { providerName: 'DNS Co' } });
  assert.deepEqual(await get('/not-json'), { status: 200, body: undefined });
});

test('nothing stays pending: a cut answer, a stalled one and an oversized one each reject', async () => {
  await assert.rejects(get('/cut'), /closed the connection/);
  const started = performance.now();
  await assert.rejects(get('/stall', 300), /did not answer within 300 ms/);
  // given up at its limit, not at a socket's default minutes (a bound far above a loaded run's, issue 41)
  assert.ok(performance.now() - started < 20_000);
  await assert.rejects(get('/large'), /more than 64 KiB/);
});

test('only public https on port 443, unless private addresses are allowed (tests)', async () => {
  await assert.rejects(
    fetchJson(`${base}/ok`, { timeoutMs: 1000, allowPrivate: false, ca }),
    /not on port 443/,
  );
  await assert.rejects(
    fetchJson('https://127.0.0.1/ok', { timeoutMs: 1000, allowPrivate: false, ca }),
    /refused: 127\.0\.0\.1 resolves to/,
  );
  await assert.rejects(
    fetchJson(`http://127.0.0.1/ok`, { timeoutMs: 1000, allowPrivate: true }),
    /not an https URL/,
  );
});
