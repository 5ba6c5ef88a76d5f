// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * Slow and hostile clients are cut off with the right status, and the clients beside them
 * are served as usual: slowloris headers, a body that never finishes, a body that never
 * ends, huge headers, and a body over the limit.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let t: TestServer;
let key: string;
let port: number;

// The slow clients below must still be connected when a normal request beside them completes:
// on a loaded machine the file's first request (a new connection, first use of the route) took
// longer than 800 ms, and a stall of the process (the server runs in it) lets the cut-off's timer
// fire before the normal answer is read. Seconds of margin, at the cost of waiting them out.
const HEADERS_TIMEOUT_MS = 5000;
const REQUEST_TIMEOUT_MS = 8000;

before(async () => {
  t = await startTestServer({
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  ({ key } = await t.createKey());
  port = Number(new URL(t.url).port);
});
after(() => t.close());

/** A raw connection, with everything the server sends, and how long after connecting it closed (ms). */
function rawClient(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    // the monotonic clock, as Node's timeouts use: compared with them below
    const started = performance.now();
    socket.on('data', (d) => (data += d));
    socket.on('error', () => {});
    const closed = new Promise<number>((done) => socket.on('close', () => done(performance.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** The response a raw client received: status line, headers and the parsed JSON body. */
function parseResponse(raw: string): { status: number; headers: Map<string, string>; body: any } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  assert.equal(Buffer.byteLength(body), Number(headers.get('content-length')), 'the whole body arrived');
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]), headers, body: JSON.parse(body) };
}

/** The answer is one error envelope with this status and code, and the connection closes. */
function assertEnvelope(raw: string, status: number, code: string) {
  const res = parseResponse(raw);
  assert.equal(res.status, status, raw);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'error', 'status']);
  assert.equal(res.body.data, null);
  assert.equal(res.body.status, status);
  assert.equal(res.body.error.code, code);
  assert.ok(res.body.error.message.length > 10, res.body.error.message);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(res.headers.get('connection'), 'close');
}

/** Send `request` on a raw connection; everything received until the server closes it. */
async function rawExchange(request: string): Promise<string> {
  const client = await rawClient();
  client.socket.write(request);
  await client.closed;
  return client.received();
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
  assertEnvelope(client.received(), 408, 'REQUEST_TIMEOUT');
  assert.equal(during.status, 200);
  assert.ok(during.at <= closed, 'the normal client was served while the slow one was still connected');
  // cut off by the headers' timeout, not before it (a lower bound: a loaded machine only delays it)
  const connectedFor = await client.closed;
  assert.ok(connectedFor >= HEADERS_TIMEOUT_MS, `cut off after ${connectedFor} ms`);
});

test('a body that never finishes is cut off after REQUEST_TIMEOUT_MS with 408', async () => {
  const client = await rawClient();
  client.socket.write(
    `POST /api/public/domain HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"domains": [`,
  );
  const cutOff = closedAt(client);
  const during = await normalRequest();
  const closed = await cutOff;
  assertEnvelope(client.received(), 408, 'REQUEST_TIMEOUT');
  assert.equal(during.status, 200);
  assert.ok(during.at <= closed, 'the normal client was served while the slow one was still connected');
  // its headers were complete: the whole request's timeout, the longer one, cut it off
  const connectedFor = await client.closed;
  assert.ok(connectedFor >= REQUEST_TIMEOUT_MS, `cut off after ${connectedFor} ms`);
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

// Node's parser refuses these before Fastify sees them, and Fastify's default client error
// handler answered with its own {"error", "message", "statusCode"} body instead of ours.
describe('regression: errors of the HTTP parser were not envelopes', () => {
  test('huge headers: 431 REQUEST_HEADERS_TOO_LARGE', async () => {
    const raw = await rawExchange(
      `GET /api/public/domain HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`,
    );
    assertEnvelope(raw, 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  test('a 20 KB query string: 431 REQUEST_HEADERS_TOO_LARGE', async () => {
    const raw = await rawExchange(
      `GET /api/public/domain?cursor=${'c'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`,
    );
    assertEnvelope(raw, 431, 'REQUEST_HEADERS_TOO_LARGE');
  });

  test('a malformed chunked body: 400 REQUEST_MALFORMED', async () => {
    const raw = await rawExchange(
      `POST /api/public/domain/status HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    assertEnvelope(raw, 400, 'REQUEST_MALFORMED');
  });

  test('a request line that is not HTTP: 400 REQUEST_MALFORMED', async () => {
    assertEnvelope(await rawExchange('HELLO THERE\r\n\r\n'), 400, 'REQUEST_MALFORMED');
  });

  test('after any of them, the server serves the next client as usual', async () => {
    assert.equal((await normalRequest()).status, 200);
  });
});

test('many slow clients at once do not starve a normal one', async (ctx) => {
  // far above the time the ten requests take even on a loaded machine (it was 10 s): none of the
  // slow clients may be cut off before they are counted, and the test ends them itself, so the
  // limit costs nothing (the request's own timeout, 30 s by default, is its ceiling)
  const patient = await startTestServer({ HEADERS_TIMEOUT_MS: '30000' });
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
