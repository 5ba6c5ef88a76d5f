// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('/healthz and /readyz answer ok without a key', async () => {
  for (const route of ['/healthz', '/readyz']) {
    const res = await t.request('GET', route);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
    assert.deepEqual(res.contractProblems, []);
  }
});

test('/openapi.json is OpenAPI 3.1 and documents every API route with its errors', async () => {
  const doc = (await t.request('GET', '/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  );
  for (const op of [
    'POST /api/public/domain',
    'POST /api/public/domain/status',
    'GET /api/public/domain',
    'DELETE /api/public/domain',
  ]) {
    assert.ok(operations.includes(op), op);
    const [method, path] = op.split(' ') as [string, string];
    const responses = doc.paths[path][method.toLowerCase()].responses;
    for (const status of ['200', '400', '401', '413', '415', '429'])
      assert.ok(responses[status], `${op} documents ${status}`);
    assert.deepEqual(doc.paths[path][method.toLowerCase()].security, [{ ApiKey: [] }]);
  }
  assert.deepEqual(doc.components.securitySchemes.ApiKey, {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The API key alone, no scheme.',
  });
});

test('/docs serves a readable API reference', async () => {
  const res = await fetch(`${t.url}/docs`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/html/);
  const html = await res.text();
  assert.match(html, /<h1>Sending-domain service/);
  assert.match(html, /id="post-api-public-domain"/);
  // Swagger UI's old address still lands on it.
  const old = await fetch(`${t.url}/docs/`, { redirect: 'manual' });
  assert.equal(old.status, 301);
  assert.equal(old.headers.get('location'), '/docs');
});

test('every response carries a request id; a plain client-given one is kept', async () => {
  const generated = await fetch(`${t.url}/healthz`);
  assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  const kept = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
  assert.equal(kept.headers.get('x-request-id'), 'trace-123');
  const replaced = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'bad id\twith<tabs>' } });
  assert.match(replaced.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
});
