// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/**
 * Request-level errors: the HTTP status says it and the body is one envelope. Each code of
 * the catalogue that a request can trigger is produced here through real HTTP.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let t: TestServer;
let key: string;

before(async () => {
  t = await startTestServer({ MAX_ITEMS_PER_REQUEST: '3' });
  ({ key } = await t.createKey());
});
after(() => t.close());

function assertEnvelope(
  res: { status: number; body: any; contractProblems: string[] },
  status: number,
  code: string,
) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'error', 'status']);
  assert.equal(res.body.data, null);
  assert.equal(res.body.status, status);
  assert.equal(res.body.error.code, code);
  assert.ok(res.body.error.message.length > 5);
  assert.deepEqual(res.contractProblems, []);
}

describe('authentication', () => {
  test('no Authorization header: 401 AUTH_MISSING', async () => {
    assertEnvelope(
      await t.request('POST', '/api/public/domain/status', { body: { domains: [] } }),
      401,
      'AUTH_MISSING',
    );
    assertEnvelope(await t.request('GET', '/api/public/domain'), 401, 'AUTH_MISSING');
  });

  test('an unknown key: 401 AUTH_INVALID', async () => {
    for (const bad of ['sk_nope', 'x'.repeat(5000), key.slice(0, -1), `${key} `.repeat(2)]) {
      assertEnvelope(
        await t.request('POST', '/api/public/domain/status', { key: bad, body: { domains: [] } }),
        401,
        'AUTH_INVALID',
      );
    }
  });

  test('the key alone and a tolerated Bearer prefix both work', async () => {
    const { key: own } = await t.createKey();
    assert.equal((await t.request('GET', '/api/public/domain', { key: own })).status, 200);
    assert.equal((await t.request('GET', '/api/public/domain', { key: `Bearer ${own}` })).status, 200);
  });

  test('a revoked key: 401 AUTH_INVALID', async () => {
    const { key: own, id } = await t.createKey();
    assert.equal((await t.request('GET', '/api/public/domain', { key: own })).status, 200);
    await t.server.store.revokeApiKey(id);
    assertEnvelope(await t.request('GET', '/api/public/domain', { key: own }), 401, 'AUTH_INVALID');
  });

  test('a key scoped to templates and images cannot use the domain API: 403 AUTH_SCOPE', async () => {
    const { key: scoped } = await t.createKey({ scopes: ['templates', 'images'] });
    assertEnvelope(await t.request('GET', '/api/public/domain', { key: scoped }), 403, 'AUTH_SCOPE');
  });

  test('authentication comes before the body is read', async () => {
    const res = await t.request('POST', '/api/public/domain', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    assertEnvelope(res, 401, 'AUTH_MISSING');
  });
});

describe('bodies', () => {
  const post = (rawBody: string, contentType = 'application/json', k = key) =>
    t.request('POST', '/api/public/domain', { key: k, rawBody, headers: { 'content-type': contentType } });

  test('malformed JSON: 400 REQUEST_BAD_JSON', async () => {
    for (const body of ['{', '{"domains": [}', 'nul', '"\\u12"', '{"a":1}{"b":2}']) {
      assertEnvelope(await post(body), 400, 'REQUEST_BAD_JSON');
    }
  });

  test('an empty body: 400 REQUEST_BAD_JSON', async () => {
    assertEnvelope(await post(''), 400, 'REQUEST_BAD_JSON');
  });

  test('prototype poisoning is refused as bad JSON', async () => {
    assertEnvelope(await post('{"__proto__": {"admin": true}, "domains": []}'), 400, 'REQUEST_BAD_JSON');
    assertEnvelope(
      await post('{"constructor": {"prototype": {"admin": true}}, "domains": []}'),
      400,
      'REQUEST_BAD_JSON',
    );
  });

  test('wrong shapes: 400 REQUEST_INVALID with details', async () => {
    const cases: unknown[] = [
      null,
      [],
      {},
      { domains: 'example.com' },
      { domains: [{ domain: 'a.example' }] },
      { domains: [{ domain: 5, domainType: 'Marketing' }] },
      { domains: [{ domain: 'a.example', domainType: 'Marketing', extra: 1 }] },
      { domains: [], unknown: true },
    ];
    for (const body of cases) {
      const res = await post(JSON.stringify(body));
      assertEnvelope(res, 400, 'REQUEST_INVALID');
      assert.ok(
        Array.isArray(res.body.error.details) && res.body.error.details.length > 0,
        JSON.stringify(body),
      );
    }
  });

  test('too many entries: 400 REQUEST_TOO_MANY_ITEMS', async () => {
    const domains = ['a', 'b', 'c', 'd'].map((l) => ({ domain: `${l}.example`, domainType: 'Marketing' }));
    assertEnvelope(await post(JSON.stringify({ domains })), 400, 'REQUEST_TOO_MANY_ITEMS');
    const status = await t.request('POST', '/api/public/domain/status', {
      key,
      body: { domains: ['a', 'b', 'c', 'd'] },
    });
    assertEnvelope(status, 400, 'REQUEST_TOO_MANY_ITEMS');
  });

  test('a body over 64 KiB: 413 REQUEST_BODY_TOO_LARGE', async () => {
    const body = JSON.stringify({ domains: [{ domain: 'a.example', domainType: 'x'.repeat(70_000) }] });
    assertEnvelope(await post(body), 413, 'REQUEST_BODY_TOO_LARGE');
  });

  test('a declared length over the limit is refused before the body arrives', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${t.url}/api/public/domain`, {
        method: 'POST',
        headers: {
          authorization: key,
          'content-type': 'application/json',
          'content-length': String(10 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('{"domains": [');
    });
    assert.equal(status, 413);
  });

  test('a content type other than JSON: 415 REQUEST_UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      assertEnvelope(await post('{"domains": []}', type), 415, 'REQUEST_UNSUPPORTED_MEDIA_TYPE');
    }
  });
});

describe('routes', () => {
  test('an unknown route: 404 ROUTE_NOT_FOUND', async () => {
    const res = await t.request('GET', '/api/public/nothing', { key });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'ROUTE_NOT_FOUND');
    const wrongMethod = await t.request('PUT', '/api/public/domain', { key, body: { domains: [] } });
    assert.equal(wrongMethod.body.error.code, 'ROUTE_NOT_FOUND');
  });
});

describe('rate limit', () => {
  test('past the per-key limit: 429 RATE_LIMITED with Retry-After; other keys unaffected', async (ctx) => {
    const limitedServer = await startTestServer({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    ctx.after(() => limitedServer.close());
    const { key: busy } = await limitedServer.createKey({ name: 'busy' });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<TestServer['request']>> | undefined;
    for (let i = 0; i < 7; i++) {
      const res = await limitedServer.request('GET', '/api/public/domain', { key: busy });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    assertEnvelope(limited!, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited!.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const { key: calm } = await limitedServer.createKey({ name: 'calm' });
    assert.equal((await limitedServer.request('GET', '/api/public/domain', { key: calm })).status, 200);
  });

  test('regression: one budget per key across the domain and templates routes, not one per route group', async (ctx) => {
    // Each route group registered the limiter with its own store, so a key could make
    // RATE_LIMIT_MAX requests on the domain routes and as many again on templates.
    const limitedServer = await startTestServer({ RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_MS: '60000' });
    ctx.after(() => limitedServer.close());
    const { key: busy } = await limitedServer.createKey({ name: 'busy' });
    const answers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res =
        i % 2 === 0
          ? await limitedServer.request('POST', '/api/public/domain/status', {
              key: busy,
              body: { domains: [] },
            })
          : await limitedServer.request('GET', '/api/public/templates', { key: busy });
      answers.push(`${i % 2 === 0 ? 'status' : 'templates'} ${res.status}`);
      if (res.status === 429) assertEnvelope(res, 429, 'RATE_LIMITED');
    }
    assert.deepEqual(answers, [
      'status 200',
      'templates 200',
      'status 200',
      'templates 200',
      'status 200',
      'templates 200',
      'status 429',
      'templates 429',
      'status 429',
      'templates 429',
    ]);
  });
});

describe('failed authentication', () => {
  test('an address guessing keys gets 429 with Retry-After; right keys from elsewhere still work', async (ctx) => {
    // 4,000 bad keys in 2 s all got 401: guessing cost nothing but the database's time.
    // One window (a day) for the whole test: the failures are counted per clock-aligned window,
    // and a minute's end inside the eight tries refilled the count (issue 41: 401 where 429 was due).
    const guarded = await startTestServer({
      AUTH_FAILURE_MAX: '5',
      TRUST_PROXY: 'true',
      RATE_LIMIT_WINDOW_MS: '86400000',
    });
    ctx.after(() => guarded.close());
    const { key: good } = await guarded.createKey({ name: 'good' });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await guarded.request('GET', '/api/public/domain', {
        key: `sk_guess_${i}`,
        headers: from('203.0.113.7'),
      });
      statuses.push(res.status);
      if (res.status === 429) {
        assertEnvelope(res, 429, 'RATE_LIMITED');
        assert.match(res.body.error.message, /this address has spent 5 of its 5 failed authentications/);
        const retryAfter = Number(res.headers.get('retry-after'));
        const windowLeft = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
        assert.ok(
          Math.abs(retryAfter - windowLeft) <= 2,
          `Retry-After ${retryAfter}, window ends in ${windowLeft} s`,
        );
      }
    }
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
    // Even a right key waits out the window from that address: the guesser cannot tell which try was right.
    const right = await guarded.request('GET', '/api/public/domain', {
      key: good,
      headers: from('203.0.113.7'),
    });
    assert.equal(right.status, 429);
    const elsewhere = await guarded.request('GET', '/api/public/domain', {
      key: good,
      headers: from('198.51.100.1'),
    });
    assert.equal(elsewhere.status, 200);
    // The browser routes share the same count.
    const images = await guarded.request('GET', '/api/public/templates', {
      key: 'sk_x',
      headers: from('203.0.113.7'),
    });
    assert.equal(images.status, 429);
  });
});
