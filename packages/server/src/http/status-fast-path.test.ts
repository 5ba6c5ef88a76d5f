/**
 * The status fast path answers exactly as Fastify's pipeline does, and hands Fastify every poll
 * it cannot answer in full. "Exactly" is checked on one server: a poll with a Content-Length
 * takes the fast path, the same poll sent chunked goes through Fastify (the fast path only
 * answers bodies that came whole with their headers), and their status lines, headers, bodies
 * and log lines are compared.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { statusBody } from '../test-support/api-fuzz.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import { STATUS_PATH } from './status-fast-path.js';

let t: TestServer;
let key: string;
const REGISTERED = 'fast.path.example';

before(async () => {
  // No DNS check during a poll (its time would differ between two answers), nor the
  // scheduler's a minute after the registration's own (a loaded run can last that long).
  // One rate-limit window (a day) for the file: the first test compares the counts left after
  // two polls, which a window's end between them (a minute after the key's first use, on a
  // loaded run) would refill.
  t = await startTestServer(
    {
      STATUS_CHECK_MAX_AGE_MS: '86400000',
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_WINDOW_MS: '86400000',
      SCHEDULER_ENABLED: 'false',
    },
    { logLevel: 'info' },
  );
  ({ key } = await t.createKey());
  const registered = await t.request('POST', '/api/public/domain', {
    key,
    body: { domains: [{ domain: REGISTERED, domainType: 'Transactional' }] },
  });
  assert.equal(registered.status, 200);
  // Two polls compared byte for byte must see the same domain: its keys are made, and then
  // confirmed served, in the background within the first second, each changing its `dkim`
  // (a CI run compared a poll from before a key's time was set with one from after it).
  let dkim: unknown;
  await waitUntil(
    'the domain’s keys made and confirmed served',
    async () => {
      const polled = await t.request('POST', '/api/public/domain/status', {
        key,
        body: { domains: [REGISTERED] },
      });
      dkim = polled.body[0]?.data?.dkim;
      const selectors =
        (dkim as { selectors?: { keyCreatedAt: unknown; since: unknown }[] })?.selectors ?? [];
      return selectors.length === 3 && selectors.every((s) => s.keyCreatedAt !== null && s.since !== null);
    },
    { seen: () => dkim },
  );
});
after(() => t.close());

interface RawAnswer {
  status: number;
  /** Header names and values in the order they were sent. */
  headers: [string, string][];
  body: Buffer;
}

type Sending = 'whole' | 'chunked' | 'split';

/**
 * A status poll of `body`: whole (Content-Length, one packet), chunked, or headers then body
 * later; to the shared test server unless `server` says otherwise.
 */
function post(
  body: string,
  headers: Record<string, string>,
  sending: Sending = 'whole',
  server: TestServer = t,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.url}${STATUS_PATH}`,
      { method: 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks) });
        });
      },
    );
    request.on('error', reject);
    // A request the server never answers fails the test instead of hanging it. Far above an
    // answer's time: the server runs in this process, and after a stall of it on a loaded machine
    // this timer fires before the answer waiting on the socket is read (it was 5 s).
    request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
    if (sending === 'whole') {
      request.setHeader('content-length', Buffer.byteLength(body));
      request.end(body);
    } else if (sending === 'chunked') {
      request.write(body);
      request.end();
    } else {
      // The body only once the server has decided on the headers alone (the fast path decides
      // in the turn they arrive in). Sent 50 ms after them, a stalled process ran that timer
      // before reading the socket, and the server read headers and body together.
      const decided = () => counts(server).answered + counts(server).handedOver;
      const before = decided();
      request.setHeader('content-length', Buffer.byteLength(body));
      request.flushHeaders();
      waitUntil('the server to take the headers without the body', () => decided() > before).then(
        () => request.end(body),
        reject,
      );
    }
  });
}

const json = { 'content-type': 'application/json' };
const counts = (server: TestServer = t) => ({ ...server.server.app.statusFastPath! });
const header = (answer: RawAnswer, name: string) => answer.headers.find(([n]) => n === name)?.[1];
const code = (answer: RawAnswer) => JSON.parse(answer.body.toString()).error?.code;

/** Sends `body` and reports which path answered it. */
async function pollCounted(
  body: string,
  headers: Record<string, string>,
  sending: Sending = 'whole',
  server: TestServer = t,
) {
  const before = counts(server);
  const answer = await post(body, headers, sending, server);
  const now = counts(server);
  const path =
    now.answered === before.answered + 1 && now.handedOver === before.handedOver
      ? 'fast'
      : now.handedOver === before.handedOver + 1 && now.answered === before.answered
        ? 'fastify'
        : `unclear (${JSON.stringify({ before, now })})`;
  return { answer, path };
}

test('a poll the fast path answers is byte for byte what Fastify answers, log line included', async () => {
  const body = JSON.stringify({ domains: [REGISTERED, 'never.registered.example', 'not a name'] });
  const headers = { ...json, authorization: key, 'x-request-id': 'same-poll' };
  await post(body, headers); // the key is now in this process's cache
  const fast = await pollCounted(body, headers, 'whole');
  const slow = await pollCounted(body, headers, 'chunked');
  assert.equal(fast.path, 'fast');
  assert.equal(slow.path, 'fastify');

  assert.equal(fast.answer.status, 200);
  assert.equal(slow.answer.status, 200);
  assert.deepEqual(fast.answer.body, slow.answer.body, 'the same body bytes');
  const items = JSON.parse(fast.answer.body.toString());
  assert.deepEqual(
    items.map((item: { status: number }) => item.status),
    [200, 404, 400],
    'per-name envelopes, as the route documents',
  );

  // The same headers in the same order; only the date, the count left and (at a second's
  // edge) the window's rest may differ.
  const comparable = (answer: RawAnswer) =>
    answer.headers
      .filter(([name]) => !['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(name))
      .map(([name, value]) => `${name}: ${value}`);
  assert.deepEqual(comparable(fast.answer), comparable(slow.answer));
  assert.equal(
    Number(header(fast.answer, 'x-ratelimit-remaining')) - 1,
    Number(header(slow.answer, 'x-ratelimit-remaining')),
    'each poll is counted once against the key',
  );
  assert.ok(
    Math.abs(
      Number(header(fast.answer, 'x-ratelimit-reset')) - Number(header(slow.answer, 'x-ratelimit-reset')),
    ) <= 1,
  );

  // The lines as written, but for their time and duration.
  const logged = t
    .logLines()
    .filter((line) => line.includes('"reqId":"same-poll"') && line.includes('"request completed"'))
    .slice(-2)
    .map((line) => line.replace(/"time":\d+/, '"time":T').replace(/"ms":[\d.]+/, '"ms":M'));
  assert.equal(logged.length, 2, 'one log line per request on each path');
  assert.equal(logged[0], logged[1]);
  const line = JSON.parse(logged[0]!.replace('"time":T', '"time":0').replace('"ms":M', '"ms":0'));
  assert.deepEqual(line.req, { method: 'POST', url: STATUS_PATH });
  assert.deepEqual(line.res, { statusCode: 200 });
});

test('whatever the body, the fast path and Fastify give the same status and bytes', async () => {
  const headers = { ...json, authorization: key };
  let answeredFast = 0;
  await fc.assert(
    fc.asyncProperty(statusBody, async (body) => {
      const fast = await pollCounted(body, headers, 'whole');
      const slow = await post(body, headers, 'chunked');
      if (fast.path === 'fast') answeredFast += 1;
      assert.equal(fast.answer.status, slow.status, body);
      assert.equal(fast.answer.body.toString(), slow.body.toString(), body);
    }),
    { seed: 20261126, numRuns: 150 },
  );
  assert.ok(answeredFast > 20, `the fast path answered ${answeredFast} of 150`);
});

test('polls the fast path cannot answer in full get Fastify’s answer, body intact', async () => {
  const { key: templatesKey } = await t.createKey({ scopes: ['templates'] });
  const names = JSON.stringify({ domains: [REGISTERED] });
  const cases: {
    what: string;
    body: string;
    /** The shared key's, when not given. */
    headers?: Record<string, string>;
    sending?: Sending;
    expect: [number, string | undefined];
  }[] = [
    { what: 'no key', body: names, headers: json, expect: [401, 'AUTH_MISSING'] },
    {
      what: 'an unknown key',
      body: names,
      headers: { ...json, authorization: 'sk_unknown' },
      expect: [401, 'AUTH_INVALID'],
    },
    {
      what: 'a key without the domains scope',
      body: names,
      headers: { ...json, authorization: templatesKey },
      expect: [403, 'AUTH_SCOPE'],
    },
    {
      what: 'not JSON by its type',
      body: names,
      headers: { 'content-type': 'text/plain', authorization: key },
      expect: [415, 'REQUEST_UNSUPPORTED_MEDIA_TYPE'],
    },
    { what: 'broken JSON', body: '{"domains": [', expect: [400, 'REQUEST_BAD_JSON'] },
    { what: 'an extra property', body: '{"domains": [], "more": 1}', expect: [400, 'REQUEST_INVALID'] },
    { what: 'a name that is not a string', body: '{"domains": [1]}', expect: [400, 'REQUEST_INVALID'] },
    { what: 'a prototype key', body: '{"domains": [], "__proto__": {"x": 1}}', expect: [400, undefined] },
    { what: 'an empty body', body: '', expect: [400, 'REQUEST_BAD_JSON'] },
    { what: 'a body sent after its headers', body: names, sending: 'split', expect: [200, undefined] },
  ];
  // The templates key's first use loads it into the cache: the scope is then judged from there.
  await post(names, { ...json, authorization: templatesKey });
  for (const c of cases) {
    const headers = c.headers ?? { ...json, authorization: key };
    const { answer, path } = await pollCounted(c.body, headers, c.sending);
    assert.equal(path, 'fastify', `${c.what}: handed to Fastify`);
    assert.equal(answer.status, c.expect[0], `${c.what}: ${answer.body}`);
    if (c.expect[1] !== undefined) assert.equal(code(answer), c.expect[1], c.what);
    if (c.expect[0] === 200) assert.equal(JSON.parse(answer.body.toString())[0].data.domain, REGISTERED);
  }
});

test('a revoked key stops at once', async () => {
  const created = await t.createKey();
  const headers = { ...json, authorization: created.key };
  const names = JSON.stringify({ domains: [REGISTERED] });
  assert.equal((await pollCounted(names, headers)).path, 'fastify', 'first use: not cached yet');
  assert.equal((await pollCounted(names, headers)).path, 'fast');
  await t.server.store.revokeApiKey(created.id);
  const revoked = await pollCounted(names, headers);
  assert.equal(revoked.path, 'fastify');
  assert.equal(revoked.answer.status, 401);
});

test('a key over its limit gets Fastify’s 429, with its headers', async () => {
  const other = await startTestServer({ RATE_LIMIT_MAX: '5' });
  try {
    const names = JSON.stringify({ domains: [REGISTERED] });
    const limited = await other.createKey();
    const limitedHeaders = { ...json, authorization: limited.key };
    let last: RawAnswer | undefined;
    for (let i = 0; i < 5; i++) {
      last = await post(names, limitedHeaders, 'whole', other);
      assert.equal(last.status, 200);
    }
    assert.equal(header(last!, 'x-ratelimit-remaining'), '0');
    const { answer: refused, path } = await pollCounted(names, limitedHeaders, 'whole', other);
    assert.equal(path, 'fastify');
    assert.equal(refused.status, 429);
    assert.equal(code(refused), 'RATE_LIMITED');
    assert.equal(header(refused, 'x-ratelimit-limit'), '5');
    assert.ok(Number(header(refused, 'retry-after')) >= 1);
  } finally {
    await other.close();
  }
});

/**
 * Sends `bytes` on a fresh connection; what comes back once the server closes it, `enough`
 * holds for it, or 10 s have passed (a second was too short: the server runs in this process,
 * which a loaded machine stalls; both uses end early, on `enough` or on the close).
 */
async function rawExchange(bytes: string, enough: (text: string) => boolean = () => false): Promise<string> {
  const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
  const received: Buffer[] = [];
  let closed = false;
  socket.on('data', (chunk) => received.push(chunk));
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  socket.write(bytes);
  const deadline = Date.now() + 10_000;
  while (!closed && !enough(Buffer.concat(received).toString()) && Date.now() < deadline) await sleep(10);
  socket.destroy();
  return Buffer.concat(received).toString();
}

const rawPoll = (id: string, body = JSON.stringify({ domains: [REGISTERED] })) =>
  `POST ${STATUS_PATH} HTTP/1.1\r\nhost: x\r\nauthorization: ${key}\r\ncontent-type: application/json\r\n` +
  `x-request-id: ${id}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test('two polls in one packet on one connection get two answers, in order', async () => {
  const other = JSON.stringify({ domains: ['other.example'] });
  const text = await rawExchange(rawPoll('first') + rawPoll('second', other), (received) =>
    /"status":404}\]/.test(received),
  );
  const first = text.indexOf('x-request-id: first');
  const second = text.indexOf('x-request-id: second');
  assert.ok(first >= 0 && second > first, text.slice(0, 400));
  assert.equal(text.match(/HTTP\/1\.1 200 OK/g)?.length, 2);
});

test('while an address is refused for failed authentications, polls go to Fastify, which refuses it', async () => {
  // one window (a day) for the test: a minute's end between the failures and the poll would
  // refill the count (issue 41)
  const other = await startTestServer({ AUTH_FAILURE_MAX: '3', RATE_LIMIT_WINDOW_MS: '86400000' });
  try {
    const created = await other.createKey();
    const headers = { ...json, authorization: created.key };
    const names = JSON.stringify({ domains: [REGISTERED] });
    const send = () => pollCounted(names, headers, 'whole', other);
    await send(); // the key into the cache
    assert.equal((await send()).path, 'fast');
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await other.request('POST', STATUS_PATH, { key: 'sk_wrong', body: { domains: [] } })).status,
        401,
      );
    const refused = await send();
    assert.equal(refused.path, 'fastify');
    assert.equal(refused.answer.status, 429);
    assert.equal(code(refused.answer), 'RATE_LIMITED');
  } finally {
    await other.close();
  }
});

test('a poll whose connection a parse error tore down is neither answered nor logged as answered', async () => {
  await post(JSON.stringify({ domains: [REGISTERED] }), { ...json, authorization: key }); // the key cached
  const before = counts();
  const text = await rawExchange(`${rawPoll('torn-down')}GARBAGE\r\n\r\n`);
  assert.match(text, /^HTTP\/1\.1 400/, 'Node answers the garbage, and closes');
  // once the poll has been decided on (handed to Fastify), rather than after 50 ms, which a
  // loaded machine can pass before the decision
  await waitUntil('the torn-down poll decided on', () => {
    const now = counts();
    return now.answered + now.handedOver > before.answered + before.handedOver;
  });
  assert.equal(counts().answered, before.answered, 'the fast path did not count it as answered');
  const logged = t
    .logLines()
    .filter((line) => line.includes('"reqId":"torn-down"') && line.includes('"statusCode":200'));
  assert.deepEqual(logged, []);
});

test('a poll that arrived before the server began to close is answered, not refused with 503', async () => {
  const closingServer = await startTestServer({ STATUS_CHECK_MAX_AGE_MS: '86400000' });
  try {
    const created = await closingServer.createKey();
    const body = JSON.stringify({ domains: [] });
    const headers = { ...json, authorization: created.key };
    await post(body, headers, 'whole', closingServer); // the key cached
    const { app } = closingServer.server;
    let closing: Promise<void> | undefined;
    // Stands for a SIGTERM arriving in the same turn of the event loop as the poll.
    app.server.prependListener('request', (req) => {
      if (req.headers['x-request-id'] === 'last-poll') closing ??= app.close();
    });
    const last = await pollCounted(body, { ...headers, 'x-request-id': 'last-poll' }, 'whole', closingServer);
    assert.equal(last.answer.status, 200);
    assert.equal(last.path, 'fast');
    await closing;
  } finally {
    await closingServer.close();
  }
});
