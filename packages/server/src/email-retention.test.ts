/**
 * Retention of sent mail (issue 37) through HTTP, on a development server whose mail goes to
 * the sandbox's simulator, with retention measured in seconds: a settled message's body goes
 * first (its content route says so, its status and events stay), then the message itself; a
 * message still waiting for its time keeps everything whatever its age.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

/**
 * 4.3 s and 21.6 s, in days: the body goes within seconds of the message being sent, and the
 * message is there to be seen without its body for a while, however loaded the machine.
 */
const BODY_DAYS = '0.00005';
const MESSAGE_DAYS = '0.00025';

let t: TestServer;
let key: string;

before(async () => {
  t = await startTestServer({
    SEND_INTERVAL_MS: '50',
    EMAIL_RETENTION_DAYS: BODY_DAYS,
    EMAIL_EVENT_RETENTION_DAYS: MESSAGE_DAYS,
  });
  ({ key } = await t.createKey());
});
after(() => t?.close());

const call = async (method: string, route: string, body?: unknown) => {
  const res = await t.request(method, route, { key, ...(body !== undefined && { body }) });
  assert.deepEqual(res.contractProblems, [], JSON.stringify(res.body));
  return res;
};
const send = async (extra: Record<string, unknown> = {}) => {
  const res = await call('POST', '/api/public/emails', {
    from: 'onboarding@sandbox.test',
    to: ['delivered@sandbox.test'],
    subject: 'Kept a while',
    html: '<p>Hello</p>',
    tags: [{ name: 'kept', value: 'yes' }],
    ...extra,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id as string;
};

test('a settled message loses its body after EMAIL_RETENTION_DAYS and itself after EMAIL_EVENT_RETENTION_DAYS; a waiting one keeps both', async () => {
  const id = await send();
  const waiting = await send({ scheduledAt: new Date(Date.now() + 120_000).toISOString() });
  assert.equal((await call('GET', `/api/public/emails/${waiting}/content`)).status, 200);

  const expired = await waitUntil(
    'the body deleted',
    async () => {
      const res = await call('GET', `/api/public/emails/${id}/content`);
      return res.status === 410 ? res : undefined;
    },
    { seen: async () => (await call('GET', `/api/public/emails/${id}/content`)).status },
  );
  assert.equal(expired.body.error.code, 'EMAIL_CONTENT_EXPIRED');
  assert.match(expired.body.error.message, /its status and events remain/);
  const kept = (await call('GET', `/api/public/emails/${id}`)).body.data;
  assert.equal(kept.status, 'sent');
  assert.deepEqual(
    kept.recipients[0].events.map((e: { type: string }) => e.type),
    ['sent', 'delivered'],
  );

  await waitUntil(
    'the message deleted',
    async () => (await call('GET', `/api/public/emails/${id}`)).status === 404,
    { timeoutMs: 120_000, seen: async () => (await call('GET', `/api/public/emails/${id}`)).body },
  );
  const listed = (await call('GET', '/api/public/emails?tag=kept')).body.data.emails;
  assert.deepEqual(
    listed.map((e: { id: string }) => e.id),
    [waiting],
  );
  // older than both retentions by now, but still waiting for its time: untouched
  const stillWaiting = await call('GET', `/api/public/emails/${waiting}`);
  assert.equal(stillWaiting.body.data.status, 'scheduled');
  assert.equal((await call('GET', `/api/public/emails/${waiting}/content`)).status, 200);
});

test('retention settings are checked at start-up', async () => {
  for (const [env, message] of [
    [{ EMAIL_RETENTION_DAYS: '0' }, /EMAIL_RETENTION_DAYS must be a number of days above 0/],
    [{ EMAIL_RETENTION_DAYS: 'a month' }, /EMAIL_RETENTION_DAYS must be a number of days/],
    [
      { EMAIL_RETENTION_DAYS: '40', EMAIL_EVENT_RETENTION_DAYS: '30' },
      /must be at least EMAIL_RETENTION_DAYS/,
    ],
  ] as const) {
    await assert.rejects(startTestServer(env), message);
  }
});
