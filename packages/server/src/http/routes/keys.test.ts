/** `/api/public/keys` (issue 40): an account's API keys through the API, on SQLite and PostgreSQL. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t?.close());

describe('API keys', () => {
  test('a full key creates a browser key in its account, shown once; it is listed without its secret, and revoked it stops at once', async () => {
    const { key, accountId, id: ownId } = await t.createKey();
    const created = await t.request('POST', '/api/public/keys', {
      key,
      body: { name: 'editor page', scopes: ['templates', 'images'] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.contractProblems, []);
    const browserKey = created.body.data.key as string;
    assert.match(browserKey, /^sk_/);
    assert.deepEqual(created.body.data.scopes, ['templates', 'images']);
    assert.ok(browserKey.startsWith(created.body.data.prefix));

    // the new key is in the same account: it reads the templates the first key's account holds
    assert.equal((await t.request('GET', '/api/public/templates', { key: browserKey })).status, 200);
    // and cannot reach what its scopes do not hold
    const refused = await t.request('GET', '/api/public/keys', { key: browserKey });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'AUTH_SCOPE');

    const listed = await t.request('GET', '/api/public/keys', { key });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.contractProblems, []);
    assert.deepEqual(
      listed.body.data.map((k: any) => [k.id, k.revokedAt]),
      [
        [ownId, null],
        [created.body.data.id, null],
      ],
    );
    assert.doesNotMatch(JSON.stringify(listed.body), new RegExp(browserKey));

    const revoked = await t.request('DELETE', `/api/public/keys/${created.body.data.id}`, { key });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.notEqual(revoked.body.data.revokedAt, null);
    const after = await t.request('GET', '/api/public/templates', { key: browserKey });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'AUTH_INVALID');
    assert.ok((await t.server.store.findAccount(accountId)) !== undefined);
  });

  test('no scopes is a full key; "*" with others is the full key too', async () => {
    const { key } = await t.createKey();
    const plain = await t.request('POST', '/api/public/keys', { key, body: { name: 'ci' } });
    assert.deepEqual(plain.body.data.scopes, ['*']);
    const mixed = await t.request('POST', '/api/public/keys', {
      key,
      body: { name: 'mixed', scopes: ['templates', '*'] },
    });
    assert.deepEqual(mixed.body.data.scopes, ['*']);
  });

  test('refusals: its own key, another account’s key, a prefix for an id, a bad body, the 101st key', async () => {
    const { key, id } = await t.createKey();
    const own = await t.request('DELETE', `/api/public/keys/${id}`, { key });
    assert.equal(own.status, 409);
    assert.equal(own.body.error.code, 'API_KEY_IN_USE');

    const other = await t.createKey();
    const theirs = await t.request('DELETE', `/api/public/keys/${other.id}`, { key });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'API_KEY_NOT_FOUND');
    assert.equal((await t.request('GET', '/api/public/keys', { key: other.key })).status, 200, 'still works');

    const prefix = await t.request('DELETE', `/api/public/keys/${other.key.slice(0, 10)}`, { key });
    assert.equal(prefix.status, 400);

    for (const body of [
      { name: '' },
      { name: '   ' },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', extra: 1 },
    ]) {
      const res = await t.request('POST', '/api/public/keys', { key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'REQUEST_INVALID');
    }

    for (let i = 1; i < 100; i++) {
      const res = await t.request('POST', '/api/public/keys', { key, body: { name: `k${i}` } });
      assert.equal(res.status, 200, `key ${i}: ${JSON.stringify(res.body)}`);
    }
    const over = await t.request('POST', '/api/public/keys', { key, body: { name: 'one too many' } });
    assert.equal(over.status, 409);
    assert.equal(over.body.error.code, 'ACCOUNT_KEY_LIMIT');
  });
});
