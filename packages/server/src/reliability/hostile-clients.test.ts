/**
 * Slow and hostile clients are cut off with the right status, and the clients beside them
 * are served as usual: slowloris headers, a body that never finishes, a body that never
 * ends, huge headers, and a body over the limit.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let t: TestServer;
let key: string;
let port: number;

before(async () => {
  t = await startTestServer({ HEADERS_TIMEOUT_MS: '800', REQUEST_TIMEOUT_MS: '1500' });
  ({ key } = await t.createKey());
  port = Number(new URL(t.url).port);
});
after(() => t.close());

/** A raw connection, with everything the server sends, and when it closed. */
function rawClient(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const started = Date.now();
    socket.on('data', (d) => (data += d));
    socket.on('error', () => {});
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** A well-behaved client's request; `at` is when it completed. */
async function normalRequest(url = t.url): Promise<{ status: number; at: number }> {
  const res = await fetch(`${url}/api/public/domain`, { headers: { authorization: key } });
  await res.text();
  return { status: res.status, at: Date.now() };
}

/** When a connection closed, as a time stamp. */
const closedAt = (client: { closed: Promise<number> }) => client.closed.then(() => Date.now());

test('slowloris: headers trickled byte by byte are cut off after HEADERS_TIMEOUT_MS with 408', async () => {
  const client = await rawClient();
  client.socket.write('GET /api/public/domain HTTP/1.1\r\nHost: x\r\n');
  const trickle = setInterval(() => client.socket.write('X'), 100);
  const cutOff = closedAt(client);
  const during = await normalRequest();
  const closed = await cutOff;
  clearInterval(trickle);
  assert.match(client.received(), /^HTTP\/1\.1 408/);
  assert.equal(during.status, 200);
  assert.ok(during.at <= closed, 'the normal client was served while the slow one was still connected');
});

test('a body that never finishes is cut off after REQUEST_TIMEOUT_MS with 408', async () => {
  const client = await rawClient();
  client.socket.write(
    `POST /api/public/domain HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"domains": [`,
  );
  const cutOff = closedAt(client);
  const during = await normalRequest();
  const closed = await cutOff;
  assert.match(client.received(), /^HTTP\/1\.1 408/);
  assert.equal(during.status, 200);
  assert.ok(during.at <= closed, 'the normal client was served while the slow one was still connected');
});

test('a chunked body that never ends is refused with 413 once it passes the limit', async () => {
  const client = await rawClient();
  client.socket.write(
    `POST /api/public/domain HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const chunk = `400\r\n${' '.repeat(0x400)}\r\n`;
  let sent = 0;
  const flood = setInterval(() => {
    if (client.socket.writable) {
      client.socket.write(chunk.repeat(8));
      sent += 8 * 0x400;
    }
  }, 5);
  await client.closed;
  clearInterval(flood);
  assert.match(client.received(), /^HTTP\/1\.1 413/);
  assert.match(client.received(), /"code":"REQUEST_BODY_TOO_LARGE"/);
  assert.ok(sent < 4 * 1024 * 1024, `stopped reading after about ${sent} bytes`);
  assert.equal((await normalRequest()).status, 200);
});

test('headers over 16 KiB get 431 before any route runs', async () => {
  const res = await fetch(`${t.url}/api/public/domain`, {
    headers: { authorization: key, 'x-padding': 'p'.repeat(20_000) },
  });
  assert.equal(res.status, 431);
  assert.equal((await normalRequest()).status, 200);
});

test('many slow clients at once do not starve a normal one', async (ctx) => {
  const patient = await startTestServer({ HEADERS_TIMEOUT_MS: '10000' });
  ctx.after(() => patient.close());
  const patientPort = Number(new URL(patient.url).port);
  const sockets = Array.from({ length: 50 }, () => {
    const socket = connect(patientPort, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /api/public/domain HTTP/1.1\r\nHost: x\r\n');
    return socket;
  });
  const firstClosed = Promise.race(
    sockets.map((s) => new Promise<number>((done) => s.on('close', () => done(Date.now())))),
  );
  const served = [];
  for (let i = 0; i < 10; i++) served.push(await normalRequest(patient.url));
  const stillOpen = sockets.filter((s) => !s.destroyed).length;
  assert.deepEqual(
    served.map((r) => r.status),
    Array(10).fill(401),
    'answered (401: this server has no key of ours) while 50 slow clients hold connections',
  );
  assert.equal(stillOpen, 50, 'the slow clients were all still connected');
  for (const s of sockets) s.destroy();
  await firstClosed;
});
