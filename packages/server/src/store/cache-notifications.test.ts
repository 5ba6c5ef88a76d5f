import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { generateApiKey } from '../domain/api-key.js';
import { type PostgresServer, startPostgres } from '../test-support/postgres.js';
import { waitUntil } from '../test-support/wait.js';
import {
  CACHE_CHANNEL,
  type CacheChange,
  notificationPayloads,
  notifyChange,
  parseCacheChange,
} from './cache-notifications.js';
import { openStore } from './open.js';

test('a payload round-trips to the change it announces', () => {
  const changes: CacheChange[] = [{ apiKey: 'key_abc' }, { account: 'acc_1', domains: ['a.example.com'] }];
  for (const change of changes)
    assert.deepEqual(notificationPayloads(change).map(parseCacheChange), [change]);
});

test('many deleted domains are split into payloads under PostgreSQL’s 8000 bytes', () => {
  const domains = Array.from({ length: 500 }, (_, i) => `${'x'.repeat(60)}.${i}.example.com`);
  const payloads = notificationPayloads({ account: 'acc_1', domains });
  assert.ok(payloads.length > 1);
  for (const payload of payloads) assert.ok(Buffer.byteLength(payload) < 8000, `${payload.length} bytes`);
  assert.deepEqual(
    payloads.flatMap((payload) => (parseCacheChange(payload) as { domains: string[] }).domains),
    domains,
  );
});

test('a payload this version does not understand parses to undefined', () => {
  for (const payload of [
    '',
    'not json',
    'null',
    '{"apiKey": 1}',
    '{"account": "a", "domains": [1]}',
    '{"future": true}',
  ]) {
    assert.equal(parseCacheChange(payload), undefined, payload);
  }
});

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres.stop());

test('PostgreSQL delivers a change when its transaction commits, and never when it rolls back', async (t) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'notify-'));
  const databaseUrl = await postgres.createDatabase();
  const store = await openStore({ dataDir, databaseUrl });
  const listener = new pg.Client({ connectionString: databaseUrl });
  t.after(async () => {
    await listener.end();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await listener.connect();
  const received: string[] = [];
  listener.on('notification', (message) => received.push(message.payload ?? ''));
  await listener.query(`LISTEN ${CACHE_CHANNEL}`);

  await assert.rejects(
    store.db.transaction().execute(async (trx) => {
      await notifyChange(trx, 'postgres', { apiKey: 'key_rolled_back' });
      throw new Error('rolled back');
    }),
    /rolled back/,
  );
  const key = generateApiKey();
  const created = await store.createApiKey({
    name: 'n',
    keyHash: key.hash,
    keyPrefix: key.prefix,
    scopes: ['*'],
  });
  await store.revokeApiKey(created.id);
  // Notifications arrive in commit order: once the revocation's is here, the other would be too.
  await waitUntil('the revocation is announced', () => received.length > 0);
  assert.deepEqual(received.map(parseCacheChange), [{ apiKey: created.id }]);
});
