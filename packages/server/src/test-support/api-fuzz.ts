/**
 * Generated API requests for property-based fuzzing (fast-check): hostile values inside
 * well-formed envelopes, and anything at all around them. Shared by the fixed-seed test
 * (`http/fuzz.test.ts`) and the 100,000-request bench (`bench/fuzz.bench.ts`).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { OpenApiChecker } from './openapi.js';

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

/** Raw bodies for the status route: well-formed, wrongly shaped, not JSON at all. */
export const statusBody = fc.oneof(
  namesBody.map((b) => JSON.stringify(b)),
  anyBody.map((b) => JSON.stringify(b)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"domains":["a.com"],"__proto__":{"x":1}}', '\ufeff{"domains":[]}', ' {"domains":[]} '),
);

/** One request: method, path, raw body, content type, and which credentials to send. */
export const apiRequest = fc.oneof(anyRequest, plausibleRequest);
export type ApiRequest = typeof apiRequest extends fc.Arbitrary<infer R> ? R : never;

/** Send a generated request; `key` is the valid API key. */
export async function send(
  baseUrl: string,
  key: string,
  r: ApiRequest,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  if (r.auth === 'valid') headers.authorization = key;
  if (r.auth === 'bearer') headers.authorization = `Bearer ${key}`;
  if (r.auth === 'garbage') headers.authorization = 'sk_garbage';
  const res = await fetch(`${baseUrl}${r.path}`, {
    method: r.method,
    headers,
    body: r.method === 'GET' ? undefined : r.body,
  });
  return { status: res.status, text: await res.text() };
}

/**
 * Problems with an answer: a 5xx, a body that is not JSON, a documented route answering
 * outside its OpenAPI description, or an undocumented one answering anything but an error
 * envelope. Empty when the answer is right.
 */
export function answerProblems(
  openapi: OpenApiChecker,
  r: ApiRequest,
  answer: { status: number; text: string },
): string[] {
  const where = `${r.method} ${r.path} → ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) return [`5xx: ${where}`];
  const path = r.path.split('?')[0]!;
  // Pages, assets and the docs answer HTML and files; only the API must answer envelopes.
  if (!path.startsWith('/api/') && !['/healthz', '/readyz', '/openapi.json'].includes(path)) return [];
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`not JSON: ${where}`];
  }
  const documented = openapi.document.paths[path]?.[r.method.toLowerCase()] !== undefined;
  if (documented) return openapi.check(r.method, path, answer.status, body).map((p) => `${p}: ${where}`);
  try {
    // Undocumented method or path: an error envelope, never a success.
    assert.equal(body.data, null);
    assert.equal(body.status, answer.status);
    assert.ok(answer.status >= 400);
  } catch {
    return [`not an error envelope: ${where}`];
  }
  return [];
}
