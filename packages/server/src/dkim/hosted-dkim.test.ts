/**
 * Hosted DKIM in the server process: start-up, logging without secrets, failure to bind, and a
 * responder that answers whatever the main event loop is doing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findFreeDnsPort } from '../test-support/bind.js';
import { startServerProcess } from '../test-support/processes.js';
import { startTestServer } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import { secretKeyFile } from './secret-key.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'hosted-dkim-'));

/** dig asks the responder on `port` for the zone's SOA, 5 s a try: its exit code and output. */
function digSoa(port: number, tries: number): Promise<{ code: number | null; out: string }> {
  // started at once (spawn is synchronous), so a caller may block its event loop meanwhile
  const args = ['@127.0.0.1', '-p', String(port), '+time=5', `+tries=${tries}`, 'dkim.provider.test', 'SOA'];
  const dig = spawn('dig', args);
  let out = '';
  dig.stdout.on('data', (d) => (out += d));
  return new Promise((resolve) => dig.once('exit', (code) => resolve({ code, out })));
}
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

test('the DKIM responder answers while the main event loop is blocked (issue 33)', async () => {
  // Before, the responder shared the event loop: one 10 MB send held it for 20–40 s, and every
  // receiver's key lookup waited (15.7 s measured). Here the loop is blocked for 8 s (a wait that
  // takes no CPU) while dig, with one try and 5 s to get an answer, asks for the zone's SOA.
  const t = await startTestServer({ DNS_LISTEN: '127.0.0.1:0', DKIM_PROVIDER_HOST: 'provider.test' });
  try {
    const port = t.server.dkim.responder!.address.port;
    const answer = digSoa(port, 1);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 8_000);
    // dig gives up 5 s after asking, before the block ends: an answer came from another thread
    const { code, out } = await answer;
    assert.equal(code, 0, `dig got no answer while the event loop was blocked:\n${out}`);
    assert.match(out, /status: NOERROR/);
    assert.match(out, /^dkim\.provider\.test\.\s+\d+\s+IN\s+SOA\s/m);
  } finally {
    await t.close();
  }
});

test('a responder thread that dies is started again on the same address', async () => {
  const t = await startTestServer({ DNS_LISTEN: '127.0.0.1:0', DKIM_PROVIDER_HOST: 'provider.test' });
  try {
    const responder = t.server.dkim.responder!;
    const port = responder.address.port;
    // As an uncaught error in the thread ends it: the handle's own worker, ended from outside.
    const handle = responder as unknown as { worker: { terminate(): Promise<number>; threadId: number } };
    const first = handle.worker.threadId;
    await handle.worker.terminate();
    await waitUntil('another thread', () => handle.worker && handle.worker.threadId !== first);
    assert.equal(responder.address.port, port);
    const { code, out } = await digSoa(port, 2);
    assert.equal(code, 0, out);
    assert.match(out, /status: NOERROR/);
    assert.equal(typeof (await responder.serial()), 'number');
    assert.ok(
      t.logLines().some((line) => line.includes('DKIM responder thread ended; starting it again')),
      'the death is logged',
    );
  } finally {
    await t.close();
  }
});
