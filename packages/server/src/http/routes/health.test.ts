// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
import assert from 'node:assert/strict';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('/healthz and /readyz answer ok without a key; /readyz names each dependency', async () => {
  const live = await t.request('GET', '/healthz');
  assert.equal(live.status, 200);
  assert.deepEqual(live.body, { status: 'ok' });
  const ready = await t.request('GET', '/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body, {
    status: 'ok',
    dependencies: { database: { status: 'ok', required: true } },
  });
  for (const res of [live, ready]) assert.deepEqual(res.contractProblems, []);
});

test('/readyz: Redis away is degraded but ready; the DNS responder or the database away is 503, named (issue 39)', async () => {
  // a port nothing listens on
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const server = await startTestServer({
    REDIS_URL: `redis://127.0.0.1:${closed}`,
    DNS_LISTEN: '127.0.0.1:0',
  });
  let closedStore = false;
  try {
    const degraded = await server.request('GET', '/readyz');
    assert.equal(degraded.status, 200);
    assert.deepEqual(degraded.contractProblems, []);
    assert.equal(degraded.body.status, 'degraded');
    assert.deepEqual(degraded.body.dependencies.database, { status: 'ok', required: true });
    assert.deepEqual(degraded.body.dependencies.dns, { status: 'ok', required: true });
    assert.equal(degraded.body.dependencies.redis.status, 'down');
    assert.equal(degraded.body.dependencies.redis.required, false);
    assert.match(degraded.body.dependencies.redis.detail, /each process counts rate limits on its own/);

    await server.server.dkim.responder!.close();
    const noDns = await server.request('GET', '/readyz');
    assert.equal(noDns.status, 503);
    assert.deepEqual(noDns.contractProblems, []);
    assert.equal(noDns.body.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(noDns.body.error.message, /^not ready: dns \(the DKIM responder thread is not running\)$/);
    assert.deepEqual(
      noDns.body.error.details.map((d: { path: string }) => d.path),
      ['dns'],
    );

    await server.server.store.close();
    closedStore = true;
    const noDatabase = await server.request('GET', '/readyz');
    assert.equal(noDatabase.status, 503);
    assert.deepEqual(
      noDatabase.body.error.details.map((d: { path: string }) => d.path),
      ['database', 'dns'],
    );
    assert.match(noDatabase.body.error.message, /database \(the (sqlite|postgres) database does not answer/);
  } finally {
    await server.close().catch((error) => {
      // the store closed above cannot close twice
      if (!closedStore) throw error;
    });
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

test('every schema in /openapi.json is valid JSON Schema 2020-12 (as OpenAPI 3.1 requires)', async () => {
  const doc = (await t.request('GET', '/openapi.json')).body;
  // the document's own keywords (`example`, `discriminator`) are OpenAPI's: strict mode off
  const ajv = new Ajv2020({ strict: false });
  const schemas: [string, unknown][] = Object.entries(doc.components.schemas).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ]);
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, any>>))
    for (const [method, operation] of Object.entries(operations))
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>))
        for (const [type, content] of Object.entries((response.content ?? {}) as Record<string, any>))
          schemas.push([`${method.toUpperCase()} ${path} ${status} ${type}`, content.schema]);
  assert.ok(schemas.length > 50, `only ${schemas.length} schemas found`);
  const invalid = schemas.flatMap(([where, schema]) =>
    ajv.validateSchema(schema as object) ? [] : [`${where}: ${ajv.errorsText(ajv.errors)}`],
  );
  assert.deepEqual(invalid, []);
  // and the check can fail: a type that does not exist is refused
  assert.equal(ajv.validateSchema({ type: 'integr' }), false);
});
