/**
 * Property: whatever a client sends, the API answers with a documented status below 500,
 * a body that matches /openapi.json, and the store holds only well-formed registrations.
 * Fixed seed so a failure reproduces; the bench/soak suite runs far more cases.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { normaliseDomainName } from '../domain/domain-name.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let t: TestServer;
let key: string;
let accountId: string;

before(async () => {
  t = await startTestServer({ RATE_LIMIT_MAX: '1000000' });
  ({ key, accountId } = await t.createKey({ name: 'fuzz' }));
});
after(() => t.close());

const DOCUMENTED_PATHS = ['/api/public/domain', '/api/public/domain/status'];

/** Names that look like domains, with the corner cases that break parsers. */
const domainish = fc.oneof(
  fc.domain(),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    'co.uk',
    '*.x.com',
    '192.0.2.1',
    '::1',
    'a..b',
    'xn--zz.com',
    'localhost',
    '',
    ' ',
    '.',
    'a_b.com',
    'ÉCOLE.fr',
    'пример.рф',
    '\u0000.com',
    'a'.repeat(300),
    '<script>alert(1)</script>.com',
    '../../etc/passwd',
  ),
  fc.tuple(fc.domain(), fc.constantFrom('.', '..', ' ', '\t', '\u3002')).map(([d, s]) => d + s),
);
const domainType = fc.oneof(
  fc.constantFrom('Transactional', 'Marketing', 'marketing', 'TRANSACTIONAL'),
  fc.string({ maxLength: 20 }),
);

const registerBody = fc.record({
  domains: fc.array(fc.record({ domain: domainish, domainType }), { maxLength: 8 }),
});
const namesBody = fc.record({ domains: fc.array(domainish, { maxLength: 8 }) });
const anyBody = fc.oneof(
  registerBody,
  namesBody,
  fc.jsonValue({ maxDepth: 4 }),
  fc.record({ domains: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) }),
);

const anyRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
  path: fc.oneof(
    fc.constantFrom(...DOCUMENTED_PATHS, '/api/public/domain?limit=2', '/api/public/domain?cursor=zz'),
    fc.webPath(),
  ),
  body: fc.oneof(
    anyBody.map((b) => JSON.stringify(b)),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constant(undefined),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'text/plain',
    'application/octet-stream',
    undefined,
  ),
  auth: fc.constantFrom('valid', 'bearer', 'missing', 'garbage'),
});

/** Well-formed envelopes around hostile values, so the item-level paths are exercised too. */
const plausibleRequest = fc
  .oneof(
    registerBody.map((b) => ({ method: 'POST', path: '/api/public/domain', body: JSON.stringify(b) })),
    namesBody.map((b) => ({ method: 'POST', path: '/api/public/domain/status', body: JSON.stringify(b) })),
    namesBody.map((b) => ({ method: 'DELETE', path: '/api/public/domain', body: JSON.stringify(b) })),
  )
  .map((r) => ({ ...r, contentType: 'application/json', auth: 'valid' }));

const request = fc.oneof(anyRequest, plausibleRequest);

test('no input produces a 5xx, an undocumented response or stored garbage', async () => {
  let requests = 0;
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const headers: Record<string, string> = {};
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      if (r.auth === 'valid') headers.authorization = key;
      if (r.auth === 'bearer') headers.authorization = `Bearer ${key}`;
      if (r.auth === 'garbage') headers.authorization = 'sk_garbage';
      const method = r.method;
      const res = await fetch(`${t.url}${r.path}`, {
        method,
        headers,
        body: method === 'GET' ? undefined : r.body,
      });
      requests += 1;
      const text = await res.text();
      assert.ok(res.status < 500, `${method} ${r.path} → ${res.status} ${text}`);
      const body = JSON.parse(text);
      const path = r.path.split('?')[0]!;
      const documented = t.openapi.document.paths[path]?.[method.toLowerCase()] !== undefined;
      if (documented) {
        const problems = t.openapi.check(method, path, res.status, body);
        assert.deepEqual(problems, [], `${method} ${r.path} → ${res.status} ${text}`);
      } else {
        // Undocumented method or path: an error envelope, never a success.
        assert.equal(body.data, null);
        assert.equal(body.status, res.status);
        assert.ok(res.status >= 400, `${method} ${r.path} → ${res.status}`);
      }
    }),
    { seed: 20261122, numRuns: 400 },
  );
  assert.equal(requests, 400);

  // Only well-formed registrations were stored, each with its four records.
  let cursor: string | null = null;
  let stored = 0;
  do {
    const page = await t.server.store.listDomains(accountId, {
      limit: 100,
      ...(cursor && { after: cursor }),
    });
    for (const domain of page.domains) {
      stored += 1;
      assert.deepEqual(normaliseDomainName(domain.name), { ok: true, name: domain.name });
      assert.ok(['Transactional', 'Marketing'].includes(domain.type));
      assert.deepEqual(
        domain.records.map((r) => r.kind),
        ['dkim', 'dkim', 'dkim', 'dmarc'],
      );
    }
    cursor = page.next;
  } while (cursor);
  assert.ok(stored > 0, 'the fuzzer registered at least one valid domain');
});
