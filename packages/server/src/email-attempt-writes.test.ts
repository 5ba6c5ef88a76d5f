/**
 * What recording delivery attempts writes (issue 35's speed on PostgreSQL), through the API on a
 * development server whose mail goes to the sandbox's simulator: a message's row is written when
 * its status changes, not once per recipient, and the attempts of many recipients recorded
 * together leave each recipient, its events and the message as one by one would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

let t: TestServer;
let key: string;

before(async () => {
  t = await startTestServer({ SEND_INTERVAL_MS: '20', SEND_BATCH: '100' });
  ({ key } = await t.createKey());
  const { db, kind } = t.server.store;
  // every write of a message's status, counted by the database itself
  await sql`create table status_writes (email_id text not null, status text not null)`.execute(db);
  if (kind === 'postgres') {
    await sql`create function count_status_write() returns trigger language plpgsql as $$
      begin insert into status_writes values (new.id, new.status); return new; end $$`.execute(db);
    await sql`create trigger status_writes after update of status on emails
      for each row execute function count_status_write()`.execute(db);
  } else {
    await sql`create trigger status_writes after update of status on emails
      begin insert into status_writes values (new.id, new.status); end`.execute(db);
  }
});
after(() => t?.close());

test('40 recipients sent: the message’s row is written when its status changes, and each recipient has its events', async () => {
  const to = Array.from({ length: 40 }, (_, n) => `delivered+${n}@sandbox.test`);
  const res = await t.request('POST', '/api/public/emails', {
    key,
    body: { from: 'onboarding@sandbox.test', to, subject: 'Many', html: '<p>Hello</p>' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.id as string;
  const email = await waitUntil('every recipient sent', async () => {
    const got = await t.request('GET', `/api/public/emails/${id}`, { key });
    return got.body.data.status === 'sent' ? got.body.data : undefined;
  });
  assert.equal(email.recipients.length, 40);
  for (const recipient of email.recipients) {
    assert.equal(recipient.status, 'sent');
    assert.equal(recipient.attempts, 1);
    assert.deepEqual(
      recipient.events.map((e: { type: string }) => e.type),
      ['sent', 'delivered'],
    );
  }
  const writes = await sql<{
    status: string;
  }>`select status from status_writes where email_id = ${id}`.execute(t.server.store.db);
  const statuses = writes.rows.map((r) => r.status);
  // at most: sending (some recipients done), then sent; never the same status twice in a row
  assert.ok(
    statuses.length <= 2,
    `the message's row written ${statuses.length} times: ${statuses.join(', ')}`,
  );
  assert.equal(statuses.at(-1), 'sent');
});
