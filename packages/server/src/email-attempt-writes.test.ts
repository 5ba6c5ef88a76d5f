/**
 * What recording delivery attempts writes (issue 35's speed on PostgreSQL), through the API on a
 * development server whose mail goes to the sandbox's simulator: a message's row is written when
 * its status changes, not once per recipient, and the attempts of many recipients recorded
 * together leave each recipient, its events and the message as one by one would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { emailStatus } from './email/status.js';
import { EmailStore } from './store/email-store.js';
import type { AttemptOutcome } from './store/emails/types.js';
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

test('outcomes recorded in one group: each recipient as its outcome says, a lost lease writes nothing, a hard bounce suppresses', async () => {
  // a server that queues and never sends: this test records the outcomes itself
  const quiet = await startTestServer({ SENDING_ENABLED: 'false' });
  try {
    const { key: quietKey } = await quiet.createKey();
    const to = Array.from({ length: 6 }, (_, n) => `delivered+${n}@sandbox.test`);
    const res = await quiet.request('POST', '/api/public/emails', {
      key: quietKey,
      body: { from: 'onboarding@sandbox.test', to, subject: 'Group', html: '<p>Hello</p>' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { db, kind } = quiet.server.store;
    const store = new EmailStore(db, kind);
    const now = Date.now();
    const claims = (await store.claimDue(now, 100, 60_000)).sort((a, b) =>
      a.address.localeCompare(b.address),
    );
    assert.equal(claims.length, 6);
    // another process took the last one meanwhile (its lease expired here)
    await db
      .updateTable('email_recipients')
      .set({ claimed_until: now + 120_000 })
      .where('id', '=', claims[5]!.id)
      .execute();
    const outcomes: AttemptOutcome[] = [
      { kind: 'sent', delivered: true, code: 250, text: '250 ok', mxHost: 'mx.test' },
      { kind: 'sent', delivered: false, code: 250, text: '250 relayed', mxHost: 'relay.test' },
      { kind: 'deferred', nextAttemptAt: now + 5_000, code: 451, text: '451 later', mxHost: 'mx.test' },
      {
        kind: 'bounced',
        bounce: { type: 'hard', status: '5.1.1' },
        code: 550,
        text: '550 5.1.1 no such user',
        mxHost: 'mx.test',
      },
      { kind: 'failed', code: null, text: 'gave up', mxHost: null },
      { kind: 'sent', delivered: true, code: 250, text: '250 ok', mxHost: 'mx.test' },
    ];
    // one turn: one group commit
    await Promise.all(claims.map((claim, n) => store.recordAttempt(claim, outcomes[n]!, now + 1)));
    const rows = await db
      .selectFrom('email_recipients')
      .select(['id', 'status', 'attempts', 'next_attempt_at', 'claimed_until'])
      .where('email_id', '=', claims[0]!.emailId)
      .execute();
    const row = (n: number) => rows.find((r) => r.id === claims[n]!.id)!;
    assert.deepEqual(
      claims.map((_, n) => [row(n).status, Number(row(n).attempts)]),
      [
        ['sent', 1],
        ['sent', 1],
        ['deferred', 1],
        ['bounced', 1],
        ['failed', 1],
        ['sending', 0],
      ],
    );
    assert.equal(Number(row(2).next_attempt_at), now + 5_000);
    assert.equal(row(0).claimed_until, null);
    assert.equal(Number(row(5).claimed_until), now + 120_000);
    const events = await db
      .selectFrom('email_events')
      .select(['recipient_id', 'type', 'smtp_code', 'bounce_type'])
      .where('email_id', '=', claims[0]!.emailId)
      .execute();
    const eventsOf = (n: number) =>
      events.filter((e) => e.recipient_id === claims[n]!.id).map((e) => [e.type, e.smtp_code, e.bounce_type]);
    assert.deepEqual(
      claims.map((_, n) => eventsOf(n).sort()),
      [
        [
          ['delivered', 250, null],
          ['sent', 250, null],
        ],
        [['sent', 250, null]],
        [['deferred', 451, null]],
        [['bounced', 550, 'hard']],
        [['failed', null, null]],
        [],
      ],
    );
    const suppressed = await db.selectFrom('suppressions').select('address').execute();
    assert.deepEqual(
      suppressed.map((s) => s.address),
      [claims[3]!.address],
    );
    const message = await db
      .selectFrom('emails')
      .select('status')
      .where('id', '=', claims[0]!.emailId)
      .executeTakeFirstOrThrow();
    assert.equal(message.status, emailStatus(claims.map((_, n) => row(n).status)));
  } finally {
    await quiet.close();
  }
});
