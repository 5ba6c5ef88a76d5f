/**
 * `GET /api/public/emails` (issue 37): the account's messages newest first, a page at a time,
 * filtered by status, recipient, sending domain, tag and time, with the status kept in step as
 * recipients' change. Sent through the sandbox (no DNS needed), on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { waitUntil } from '../../test-support/wait.js';

let t: TestServer;
let key: string;
const ids: Record<string, string> = {};
let between: string;

before(async () => {
  t = await startTestServer({ SEND_INTERVAL_MS: '50' });
  ({ key } = await t.createKey());
  const send = async (name: string, to: string[]) => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: {
        from: 'onboarding@sandbox.test',
        to,
        subject: name,
        html: '<p>x</p>',
        tags: [
          { name: 'case', value: name },
          ...(name === 'bounced' ? [] : [{ name: 'wave', value: 'one' }]),
        ],
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ids[name] = res.body.data.id;
  };
  await send('delivered', ['delivered@sandbox.test']);
  await new Promise((resolve) => setTimeout(resolve, 5));
  between = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));
  await send('bounced', ['bounced+list@sandbox.test']);
  await send(
    'many',
    Array.from({ length: 12 }, (_, i) => `delivered+${i}@sandbox.test`),
  );
  await waitUntil(
    'every message settled',
    async () => {
      const res = await t.request('GET', '/api/public/emails', { key });
      return res.body.data.emails.every((e: any) => e.status === 'sent' || e.status === 'bounced')
        ? true
        : undefined;
    },
    { seen: async () => (await t.request('GET', '/api/public/emails', { key })).body },
  );
});
after(() => t?.close());

const list = async (query = '') => {
  const res = await t.request('GET', `/api/public/emails${query}`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.contractProblems, []);
  return res.body.data as { emails: any[]; nextCursor: string | null };
};

test('newest first, each with its status, its first 10 recipients and its tags', async () => {
  const page = await list();
  assert.deepEqual(
    page.emails.map((e) => [e.id, e.status]),
    [
      [ids.many, 'sent'],
      [ids.bounced, 'bounced'],
      [ids.delivered, 'sent'],
    ],
  );
  assert.equal(page.emails[0].to.length, 10);
  assert.equal(page.emails[0].to[0], 'delivered+0@sandbox.test');
  assert.deepEqual(page.emails[1].tags, [{ name: 'case', value: 'bounced' }]);
  assert.deepEqual(page.emails[0].tags, [
    { name: 'case', value: 'many' },
    { name: 'wave', value: 'one' },
  ]);
  assert.equal(page.nextCursor, null);
});

test('filters: status, recipient, domain, time', async () => {
  assert.deepEqual(
    (await list('?status=bounced')).emails.map((e) => e.id),
    [ids.bounced],
  );
  assert.deepEqual((await list('?status=queued')).emails, []);
  assert.deepEqual(
    (await list(`?recipient=${encodeURIComponent('delivered+3@Sandbox.TEST')}`)).emails.map((e) => e.id),
    [ids.many],
  );
  assert.equal((await list('?domain=sandbox.test')).emails.length, 3);
  assert.deepEqual((await list('?domain=not-ours.example.com')).emails, []);
  assert.deepEqual(
    (await list(`?until=${encodeURIComponent(between)}`)).emails.map((e) => e.id),
    [ids.delivered],
  );
  assert.deepEqual(
    (await list(`?since=${encodeURIComponent(between)}&status=sent`)).emails.map((e) => e.id),
    [ids.many],
  );
});

test('tags: by name, by name and value, with other filters, a page at a time', async () => {
  const ofTag = async (query: string) => (await list(query)).emails.map((e) => e.id);
  assert.deepEqual(await ofTag('?tag=wave'), [ids.many, ids.delivered]);
  assert.deepEqual(await ofTag('?tag=wave&tagValue=one'), [ids.many, ids.delivered]);
  assert.deepEqual(await ofTag('?tag=case&tagValue=bounced'), [ids.bounced]);
  assert.deepEqual(await ofTag('?tag=case'), [ids.many, ids.bounced, ids.delivered]);
  assert.deepEqual(await ofTag('?tag=wave&tagValue=two'), []);
  assert.deepEqual(await ofTag('?tag=Wave'), [], 'names are matched exactly');
  assert.deepEqual(await ofTag(`?tag=wave&until=${encodeURIComponent(between)}`), [ids.delivered]);
  assert.deepEqual(await ofTag('?tag=case&status=bounced'), [ids.bounced]);
  const first = await list('?tag=case&limit=2');
  assert.deepEqual(
    first.emails.map((e) => e.id),
    [ids.many, ids.bounced],
  );
  const second = await list(`?tag=case&limit=2&cursor=${first.nextCursor}`);
  assert.deepEqual(
    second.emails.map((e) => e.id),
    [ids.delivered],
  );
  assert.equal(second.nextCursor, null);
  // `tag=name:value` is the same filter as `tag=name&tagValue=value`
  assert.deepEqual(await ofTag('?tag=case:bounced'), [ids.bounced]);
  assert.deepEqual(await ofTag('?tag=wave:two'), []);
  const alone = await t.request('GET', '/api/public/emails?tagValue=one', { key });
  assert.equal(alone.status, 400);
  assert.equal(alone.body.error.code, 'REQUEST_INVALID');
  assert.match(alone.body.error.message, /give tag/);
});

test('a status outside the list is refused once, with the statuses it may be', async () => {
  const res = await t.request('GET', '/api/public/emails?status=lost', { key });
  assert.equal(res.status, 400);
  assert.equal(
    res.body.error.message,
    'querystring.status: must be one of "scheduled", "queued", "sending", "sent", "deferred", "bounced", "failed", "canceled"',
  );
  assert.equal(res.body.error.details.length, 1);
});

test('the filters’ names: to, after and before (recipient, since and until say the same; not both)', async () => {
  assert.deepEqual(
    (await list(`?to=${encodeURIComponent('delivered+3@sandbox.test')}`)).emails.map((e) => e.id),
    [ids.many],
  );
  assert.deepEqual(
    (await list(`?before=${encodeURIComponent(between)}`)).emails.map((e) => e.id),
    [ids.delivered],
  );
  assert.deepEqual(
    (await list(`?after=${encodeURIComponent(between)}&status=bounced`)).emails.map((e) => e.id),
    [ids.bounced],
  );
  for (const query of [
    `?to=a%40b.test&recipient=a%40b.test`,
    `?after=${encodeURIComponent(between)}&since=${encodeURIComponent(between)}`,
    `?before=${encodeURIComponent(between)}&until=${encodeURIComponent(between)}`,
  ]) {
    const res = await t.request('GET', `/api/public/emails${query}`, { key });
    assert.equal(res.status, 400, query);
    assert.match(res.body.error.message, /is another name for/);
  }
});

test('pages follow nextCursor to the end; nonsense is refused; other accounts see none', async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.emails.map((e) => e.id));
    cursor = page.nextCursor;
  } while (cursor !== null);
  assert.deepEqual(seen, [ids.many, ids.bounced, ids.delivered]);

  for (const query of [
    '?cursor=nonsense',
    '?status=lost',
    '?since=yesterday',
    '?limit=0',
    '?recipient=not%20an%20address',
  ]) {
    const res = await t.request('GET', `/api/public/emails${query}`, { key });
    assert.equal(res.status, 400, query);
  }
  const other = await t.createKey();
  const theirs = await t.request('GET', '/api/public/emails', { key: other.key });
  assert.deepEqual(theirs.body.data.emails, []);
  const theirTags = await t.request('GET', '/api/public/emails?tag=case', { key: other.key });
  assert.deepEqual(theirTags.body.data.emails, []);
});
