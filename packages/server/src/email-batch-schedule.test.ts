/**
 * Batch sending and scheduled sending (issue 37) through HTTP, on a development server whose
 * mail goes to the sandbox's simulator: each batch entry fails alone, carries its own template
 * variables and is idempotent with the batch; a scheduled message waits for its time, is dated
 * then, and can be canceled or moved until it goes. Scheduled mail across processes and a
 * restart: `sending-across-processes.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';

const FROM = 'Acme <onboarding@sandbox.test>';
const TO = 'delivered@sandbox.test';

describe('batch and scheduled sending', () => {
  let t: TestServer;
  let key: string;

  before(async () => {
    t = await startTestServer({ SEND_INTERVAL_MS: '50' });
    ({ key } = await t.createKey());
  });
  after(() => t?.close());

  const call = async (
    method: string,
    route: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await t.request(method, route, { key, headers, ...(body !== undefined && { body }) });
    assert.deepEqual(res.contractProblems, [], JSON.stringify(res.body));
    return res;
  };
  const message = (extra: Record<string, unknown> = {}) => ({
    from: FROM,
    to: [TO],
    subject: 'Hello',
    html: '<p>Hello</p>',
    ...extra,
  });
  const email = async (id: string) => (await call('GET', `/api/public/emails/${id}`)).body.data;
  const emailWhen = (id: string, what: string, done: (e: any) => boolean) =>
    waitUntil(
      `${id} ${what}`,
      async () => {
        const e = await email(id);
        return done(e) ? e : undefined;
      },
      { seen: () => email(id) },
    );
  const header = async (id: string, name: string) =>
    (await call('GET', `/api/public/emails/${id}/content`)).body.data.headers.find(
      (h: { name: string }) => h.name.toLowerCase() === name.toLowerCase(),
    )?.value;
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
  /** The `Date` header of a message dated `iso` (whole seconds). */
  const dateHeader = (iso: string) =>
    new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toUTCString().replace('GMT', '+0000');
  /**
   * Moves scheduled message `id` to a second from now and waits for it to go. The time held is
   * the one the API answers: the one asked for, or its own "now" if a loaded machine brought the
   * PATCH in after that (never earlier); the message goes no earlier, dated then.
   */
  const goesSoon = async (id: string) => {
    const asked = inFuture(1_000);
    const moved = await call('PATCH', `/api/public/emails/${id}`, { scheduledAt: asked });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const due = moved.body.data.scheduledAt;
    assert.ok(Date.parse(due) >= Date.parse(asked), `${due} before ${asked}`);
    const sent = await emailWhen(id, 'sent', (e) => e.status === 'sent');
    assert.equal(sent.scheduledAt, due);
    const events = sent.recipients[0].events;
    assert.ok(Date.parse(events[0].at) >= Date.parse(due), `${events[0].at} before ${due}`);
    assert.equal(await header(id, 'Date'), dateHeader(due));
  };

  test('a batch: one envelope per entry in order; a malformed or refused entry fails alone', async () => {
    const res = await call('POST', '/api/public/emails/batch', {
      emails: [
        message({ subject: 'First' }),
        { from: FROM, subject: 'No recipients', html: '<p>x</p>' },
        message({ to: ['someone@elsewhere.test'] }),
        message({ subject: 'Last', tags: [{ name: 'kind', value: 'batch' }] }),
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [first, malformed, refused, last] = res.body;
    assert.equal(res.body.length, 4);
    assert.deepEqual(
      [first.status, first.data.status, last.status, last.data.status],
      [200, 'queued', 200, 'queued'],
    );
    assert.equal(malformed.status, 400);
    assert.equal(malformed.error.code, 'REQUEST_INVALID');
    assert.match(malformed.error.message, /^emails\[1\]: missing required property "to"/);
    assert.equal(refused.status, 400);
    assert.equal(refused.error.code, 'EMAIL_SANDBOX_RECIPIENT');
    assert.match(refused.error.message, /someone@elsewhere\.test/);
    for (const sent of [first, last]) await emailWhen(sent.data.id, 'sent', (e) => e.status === 'sent');
    assert.equal((await email(first.data.id)).subject, 'First');
    assert.deepEqual((await email(last.data.id)).tags, [{ name: 'kind', value: 'batch' }]);
  });

  test('a batch of templated messages: each entry is rendered with its own variables', async () => {
    const [template] = (
      await call('POST', '/api/public/templates', {
        templates: [
          {
            name: 'Digest',
            document: {
              type: 'doc',
              content: [
                {
                  type: 'paragraph',
                  content: [
                    { type: 'text', text: 'Hello ' },
                    { type: 'variable', attrs: { name: 'first_name', fallback: 'friend' } },
                  ],
                },
              ],
            },
          },
        ],
      })
    ).body;
    const names = ['Ann', 'Bob', 'Zoë'];
    const res = await call('POST', '/api/public/emails/batch', {
      emails: names.map((name, i) => ({
        from: FROM,
        to: [`delivered+${i}@sandbox.test`],
        subject: 'Your digest',
        templateId: template.data.id,
        variables: { first_name: name },
      })),
    });
    assert.deepEqual(
      res.body.map((e: { status: number }) => e.status),
      [200, 200, 200],
    );
    for (const [i, entry] of res.body.entries()) {
      const content = (await call('GET', `/api/public/emails/${entry.data.id}/content`)).body.data;
      assert.match(content.html, new RegExp(`Hello ${names[i]}`));
      assert.match(content.text, new RegExp(`Hello ${names[i]}`));
    }
  });

  test('a batch with an Idempotency-Key: a retry answers the same messages; another body is refused', async () => {
    const body = { emails: [message({ subject: 'Once A' }), message({ to: ['nobody@elsewhere.test'] })] };
    const headers = { 'idempotency-key': `batch-${Date.now()}` };
    const first = await call('POST', '/api/public/emails/batch', body, headers);
    const again = await call('POST', '/api/public/emails/batch', body, headers);
    assert.equal(again.status, 200);
    assert.equal(again.body[0].data.id, first.body[0].data.id);
    // the refused entry is refused again, not remembered as a message
    assert.equal(again.body[1].error.code, 'EMAIL_SANDBOX_RECIPIENT');
    const listed = await call('GET', '/api/public/emails?limit=100');
    assert.equal(
      listed.body.data.emails.filter((e: { subject: string }) => e.subject === 'Once A').length,
      1,
    );
    const other = await call(
      'POST',
      '/api/public/emails/batch',
      { emails: [message({ subject: 'Once B' })] },
      headers,
    );
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    // a malformed entry is part of the body the key was used with
    const withBad = `batch-bad-${Date.now()}`;
    const bad = await call(
      'POST',
      '/api/public/emails/batch',
      { emails: [message({ subject: 'Once C' }), { subject: 'one' }] },
      { 'idempotency-key': withBad },
    );
    assert.equal(bad.body[1].error.code, 'REQUEST_INVALID');
    const otherBad = await call(
      'POST',
      '/api/public/emails/batch',
      { emails: [message({ subject: 'Once C' }), { subject: 'two' }] },
      { 'idempotency-key': withBad },
    );
    assert.equal(otherBad.status, 409);
    assert.equal(otherBad.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    // one key, one request: a single send under a batch's key is refused, and the reverse
    const single = await call('POST', '/api/public/emails', message({ subject: 'Single' }), headers);
    assert.equal(single.status, 409);
    assert.equal(single.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    const singleKey = { 'idempotency-key': `single-${Date.now()}` };
    assert.equal((await call('POST', '/api/public/emails', message(), singleKey)).status, 200);
    const asBatch = await call('POST', '/api/public/emails/batch', { emails: [message()] }, singleKey);
    assert.equal(asBatch.status, 409);
    assert.equal(asBatch.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  });

  test('an entry that is not a message at all fails alone too', async () => {
    const res = await call('POST', '/api/public/emails/batch', { emails: [42, message(), null] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.map((e: any) => e.error?.message ?? e.data.status),
      ['emails[0]: must be object', 'queued', 'emails[2]: must be object'],
    );
  });

  test('a batch that is not {emails: [1 to 100 entries]} fails as a whole', async () => {
    const tooMany = await call('POST', '/api/public/emails/batch', {
      emails: Array.from({ length: 101 }, () => message()),
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.code, 'REQUEST_TOO_MANY_ITEMS');
    for (const body of [{ emails: [] }, { messages: [message()] }, [message()], { emails: 'x' }]) {
      const res = await call('POST', '/api/public/emails/batch', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'REQUEST_INVALID', JSON.stringify(res.body));
    }
  });

  test('a scheduled message waits for its time, is listed as scheduled, and goes dated then', async () => {
    // An hour ahead, not a few seconds: on a loaded machine (five test files on two cores) the
    // requests below took longer than a near time, and the sender (50 ms poll) rightly took the
    // message before they could see it scheduled. It is moved close afterwards to see it go.
    const at = inFuture(3_600_000);
    const res = await call('POST', '/api/public/emails', message({ subject: 'Later', scheduledAt: at }));
    assert.equal(res.status, 200);
    assert.equal(res.body.data.status, 'scheduled');
    const { id } = res.body.data;
    const waiting = await email(id);
    assert.equal(waiting.status, 'scheduled');
    assert.equal(waiting.scheduledAt, at);
    assert.deepEqual(
      waiting.recipients.map((r: any) => [r.status, r.nextAttemptAt]),
      [['scheduled', at]],
    );
    const listed = await call('GET', '/api/public/emails?status=scheduled');
    assert.ok(listed.body.data.emails.some((e: any) => e.id === id && e.scheduledAt === at));
    // dated with its time from the start, not with the time it was accepted
    assert.equal(await header(id, 'Date'), dateHeader(at));
    // then due in a second, it goes then, dated then
    await goesSoon(id);
  });

  test('a scheduled message can be canceled until it goes; then it is too late', async () => {
    const { id } = (await call('POST', '/api/public/emails', message({ scheduledAt: inFuture(60_000) }))).body
      .data;
    const canceled = await call('POST', `/api/public/emails/${id}/cancel`);
    assert.equal(canceled.status, 200);
    assert.deepEqual(canceled.body.data, { id, status: 'canceled' });
    const after = await email(id);
    assert.equal(after.status, 'canceled');
    assert.deepEqual(
      after.recipients.map((r: any) => [r.status, r.nextAttemptAt, r.events.map((e: any) => e.type)]),
      [['canceled', null, ['canceled']]],
    );
    const twice = await call('POST', `/api/public/emails/${id}/cancel`);
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error.code, 'EMAIL_NOT_SCHEDULED');
    const moved = await call('PATCH', `/api/public/emails/${id}`, { scheduledAt: inFuture(1_000) });
    assert.equal(moved.body.error.code, 'EMAIL_NOT_SCHEDULED');

    const now = (await call('POST', '/api/public/emails', message())).body.data;
    await emailWhen(now.id, 'sent', (e) => e.status === 'sent');
    const late = await call('POST', `/api/public/emails/${now.id}/cancel`);
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'EMAIL_NOT_SCHEDULED');
    const unknown = await call('POST', '/api/public/emails/eml_nothere/cancel');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'EMAIL_NOT_FOUND');
  });

  test('a scheduled message moved by PATCH goes at the new time, dated with it', async () => {
    const { id } = (
      await call(
        'POST',
        '/api/public/emails',
        message({ subject: 'Moved', scheduledAt: inFuture(3_600_000) }),
      )
    ).body.data;
    // 30 s ahead, not 1.5 s: on a loaded machine the PATCH can come in past a near time, and the
    // message is then rightly moved to the server's "now" instead of the time asked for.
    const at = inFuture(30_000);
    const moved = await call('PATCH', `/api/public/emails/${id}`, { scheduledAt: at });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(moved.body.data, { id, status: 'scheduled', scheduledAt: at });
    const waiting = await email(id);
    assert.equal(waiting.scheduledAt, at);
    assert.deepEqual(
      waiting.recipients.map((r: any) => [r.status, r.nextAttemptAt]),
      [['scheduled', at]],
    );
    // re-dated with the move, before it goes
    assert.equal(await header(id, 'Date'), dateHeader(at));
    // moved again, due in a second, so as not to wait 30 s: it goes then, dated then
    await goesSoon(id);
  });

  test('scheduledAt: more than 30 days ahead or not a time is refused; a past time sends at once', async () => {
    const far = await call('POST', '/api/public/emails', message({ scheduledAt: inFuture(31 * 86_400_000) }));
    assert.equal(far.status, 400);
    assert.equal(far.body.error.code, 'EMAIL_SCHEDULE_INVALID');
    for (const scheduledAt of ['tomorrow', '2026-12-01 09:00', '2026-12-01T09:00:00']) {
      const bad = await call('POST', '/api/public/emails', message({ scheduledAt }));
      assert.equal(bad.status, 400, scheduledAt);
      assert.equal(bad.body.error.code, 'REQUEST_INVALID', scheduledAt);
      assert.equal(
        bad.body.error.message,
        'body.scheduledAt: must be an RFC 3339 time with a zone, such as 2026-12-01T09:00:00Z',
      );
    }
    const past = await call('POST', '/api/public/emails', message({ scheduledAt: '2020-01-01T00:00:00Z' }));
    assert.equal(past.body.data.status, 'queued');
    assert.equal((await email(past.body.data.id)).scheduledAt, null);

    const { id } = (await call('POST', '/api/public/emails', message({ scheduledAt: inFuture(60_000) }))).body
      .data;
    const farMove = await call('PATCH', `/api/public/emails/${id}`, {
      scheduledAt: inFuture(40 * 86_400_000),
    });
    assert.equal(farMove.body.error.code, 'EMAIL_SCHEDULE_INVALID');
    assert.equal((await email(id)).status, 'scheduled');
  });
});
