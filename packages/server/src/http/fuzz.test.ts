/**
 * Property: whatever a client sends, the API answers with a documented status below 500,
 * a body that matches /openapi.json, and the store holds only well-formed registrations.
 * Fixed seed so a failure reproduces; the bench/soak suite runs far more cases.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { normalizeDomainName } from '../domain/domain-name.js';
import { answerProblems, apiRequest, send } from '../test-support/api-fuzz.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let t: TestServer;
let key: string;
let accountId: string;

before(async () => {
  t = await startTestServer({ RATE_LIMIT_MAX: '1000000' });
  ({ key, accountId } = await t.createKey({ name: 'fuzz' }));
});
after(() => t.close());

test('no input produces a 5xx, an undocumented response or stored garbage', async () => {
  let requests = 0;
  await fc.assert(
    fc.asyncProperty(apiRequest, async (r) => {
      const answer = await send(t.url, key, r);
      requests += 1;
      assert.deepEqual(answerProblems(await t.openapi(), r, answer), []);
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
      assert.deepEqual(normalizeDomainName(domain.name), { ok: true, name: domain.name });
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
