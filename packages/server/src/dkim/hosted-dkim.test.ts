/** Hosted DKIM in the server process: start-up, logging without secrets, and failure to bind. */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findFreeDnsPort } from '../test-support/bind.js';
import { startServerProcess } from '../test-support/processes.js';
import { startTestServer } from '../test-support/test-server.js';
import { secretKeyFile } from './secret-key.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'hosted-dkim-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('npm start logs the development-key warning and the responder, never the key; SIGTERM stops both', async () => {
  const port = await findFreeDnsPort();
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DNS_LISTEN: `127.0.0.1:${port}`,
    DKIM_PROVIDER_HOST: 'provider.test',
  });
  const logs = server.output();
  assert.match(logs, /SECRET_KEY is unset: DKIM private keys are sealed with a development key/);
  assert.match(
    logs,
    new RegExp(
      `"msg":"DKIM DNS responder listening".*"port":${port}|"port":${port}.*DKIM DNS responder listening`,
    ),
  );
  const key = readFileSync(secretKeyFile(dataDir), 'utf8').trim();
  assert.ok(!logs.includes(key), 'the development key is never logged');
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
  // The port is free again: the responder closed with the server.
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve());
  });
  socket.close();
});

test('a DNS_LISTEN port in use fails start-up with the reason, and leaves nothing open', async () => {
  const holder = dgram.createSocket('udp4');
  const port = await new Promise<number>((resolve) =>
    holder.bind(0, '127.0.0.1', () => resolve(holder.address().port)),
  );
  try {
    await assert.rejects(startTestServer({ DNS_LISTEN: `127.0.0.1:${port}` }), /EADDRINUSE/);
  } finally {
    holder.close();
  }
});
