// test-backends: sqlite (what this file tests does not depend on the database; see scripts/test.mjs)
/** Security headers on every kind of response, and CORS closed on the full API. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { PAGE_CSP } from './routes/pages.js';

let t: TestServer;
let key: string;
before(async () => {
  t = await startTestServer();
  ({ key } = await t.createKey());
});
after(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers });

test('API answers carry a CSP that allows nothing, nosniff, no framing and no referrer', async () => {
  for (const res of [
    await get('/api/public/domain', { authorization: key }),
    await get('/api/public/domain'),
    await get('/healthz'),
    await get('/nowhere'),
  ]) {
    assert.equal(
      res.headers.get('content-security-policy'),
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('cross-origin-opener-policy'), 'same-origin');
  }
});

test('pages load scripts from this origin only: no inline or eval script sources', async () => {
  // The pages are built into dist/web (`npm run build`); the test server serves them from there.
  const res = await get('/domains');
  assert.equal(res.status, 200, 'the dashboard page is served (is dist/web built?)');
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.equal(csp, PAGE_CSP);
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1];
  assert.equal(scriptSrc?.trim(), "'self'");
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /object-src 'none'/);
  // The API reference is one of these pages (issue 40: it was Swagger UI, under a CSP of its own).
  const docs = await get('/docs');
  assert.equal(docs.headers.get('content-security-policy'), PAGE_CSP);
});

test('the domain API answers no CORS preflight: browsers cannot call it cross-origin', async () => {
  const preflight = await fetch(`${t.url}/api/public/domain`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
  assert.equal(preflight.headers.get('access-control-allow-origin'), null);
  const simple = await get('/api/public/domain', { authorization: key, origin: 'https://evil.example' });
  assert.equal(simple.headers.get('access-control-allow-origin'), null);
});

test('the browser API (templates, images) answers preflights, allowing Authorization', async () => {
  const preflight = await fetch(`${t.url}/api/public/templates`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  assert.ok(preflight.status < 300);
  assert.ok(preflight.headers.get('access-control-allow-origin'));
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
});
