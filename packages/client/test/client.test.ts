/** The typed client against the real server (and a real BIND for waitForVerification). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type BindServer, startBind } from '../../server/src/test-support/bind.js';
import { findFreeTcpPort } from '../../server/src/test-support/child-process.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/test-server.js';
import { waitUntil } from '../../server/src/test-support/wait.js';
import { startWebhookReceiver } from '../../server/src/test-support/webhook-receiver.js';
import { ItemFailedError, ServiceApiError, ServiceClient, VerificationTimeoutError } from '../src/index.js';
import { retryAfterMs } from '../src/retrying-fetch.js';

let bind: BindServer;
let t: TestServer;
let client: ServiceClient;

before(async () => {
  bind = await startBind({ zones: ['client.test'] });
  t = await startTestServer({
    DNS_RESOLVERS: bind.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    // a DKIM rotation waits DNS_TTL + 2 s after the next key is served
    DNS_TTL: '1',
  });
  client = new ServiceClient({ baseUrl: t.url, apiKey: (await t.createKey()).key });
});
after(async () => {
  await t.close();
  await bind.close();
});

describe('ServiceClient', () => {
  test('splits lists longer than the server takes into several requests, envelopes in order', async () => {
    const small = await startTestServer({ MAX_ITEMS_PER_REQUEST: '3' });
    try {
      const batching = new ServiceClient({
        baseUrl: small.url,
        apiKey: (await small.createKey()).key,
        batchSize: 3,
      });
      const names = Array.from({ length: 7 }, (_, i) => `b${i}.client.test`);
      const registered = await batching.registerDomains(
        names.map((domain) => ({ domain, domainType: 'Marketing' })),
      );
      assert.deepEqual(
        registered.map((e) => e.data?.domain),
        names,
      );
      const statuses = await batching.domainStatus([...names, 'nope.client.test']);
      assert.deepEqual(
        statuses.map((e) => e.data?.domain ?? e.error?.code),
        [...names, 'DOMAIN_NOT_REGISTERED'],
      );
      assert.equal((await batching.domainHistory(names)).length, 7);
      assert.equal((await batching.deleteDomains(names)).filter((e) => e.data?.deleted).length, 7);
    } finally {
      await small.close();
    }
  });

  test('registers, reads, lists, pages, and deletes', async () => {
    const [registered] = await client.registerDomains([
      { domain: 'one.client.test', domainType: 'Marketing' },
    ]);
    assert.equal(registered?.status, 200);
    assert.equal(registered?.data?.records.length, 4);
    const [bad] = await client.registerDomains([{ domain: 'co.uk', domainType: 'Marketing' }]);
    assert.equal(bad?.error?.code, 'DOMAIN_PUBLIC_SUFFIX', 'item-level errors come back as envelopes');

    await client.registerDomains(
      ['two', 'three'].map((n) => ({ domain: `${n}.client.test`, domainType: 'Transactional' })),
    );
    const [status] = await client.domainStatus(['one.client.test']);
    assert.deepEqual(
      status?.data?.records.map((r) => r.record),
      registered?.data?.records.map((r) => r.record),
    );

    const names: string[] = [];
    for await (const domain of client.allDomains(2)) names.push(domain.domain);
    assert.deepEqual(names, ['one.client.test', 'three.client.test', 'two.client.test']);

    const [deleted] = await client.deleteDomains(['three.client.test']);
    assert.deepEqual(deleted?.data, { domain: 'three.client.test', deleted: true });
    const page = await client.listDomains({ limit: 10 });
    assert.equal(page.domains.length, 2);
    assert.equal(page.nextCursor, null);
  });

  test('request-level errors throw ServiceApiError with the code and request id', async () => {
    const wrong = new ServiceClient({ baseUrl: t.url, apiKey: 'sk_wrong' });
    const error = await wrong.listDomains().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceApiError);
    assert.equal(error.status, 401);
    assert.equal(error.code, 'AUTH_INVALID');
    assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
    // a client told the server takes more than it does sends too many at once
    const overBatching = new ServiceClient({
      baseUrl: t.url,
      apiKey: (await t.createKey()).key,
      batchSize: 1000,
    });
    const tooMany = await overBatching
      .domainStatus(Array.from({ length: 101 }, (_, i) => `d${i}.client.test`))
      .catch((e: unknown) => e);
    assert.equal((tooMany as ServiceApiError).code, 'REQUEST_TOO_MANY_ITEMS');
  });

  test('a 429 is retried after Retry-After', async (ctx) => {
    // A short window, so that the patient client's retry waits about a second, not a minute.
    const limited = await startTestServer({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '1000' });
    ctx.after(() => limited.close());
    const { key } = await limited.createKey();
    const patient = new ServiceClient({ baseUrl: limited.url, apiKey: key, retries: 3 });
    const started = Date.now();
    for (let i = 0; i < 4; i++) await patient.listDomains();
    assert.ok(Date.now() - started >= 500, 'the third call waited for the window to pass');
    // The client that does not retry gets the 429 itself, from a server whose window is a
    // minute: with the 1 s one, a loaded machine (five files on two cores) let a window end
    // between its calls, and the third found a fresh count.
    const strict = await startTestServer({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_MS: '60000' });
    ctx.after(() => strict.close());
    const impatient = new ServiceClient({
      baseUrl: strict.url,
      apiKey: (await strict.createKey()).key,
      retries: 0,
    });
    await impatient.listDomains();
    await impatient.listDomains();
    const error = await impatient.listDomains().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceApiError, String(error));
    assert.equal(error.status, 429);
    assert.equal(error.code, 'RATE_LIMITED');
  });

  test('a server that does not answer times out; one that is down is a network error', async (ctx) => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    ctx.after(() => {
      hanging.closeAllConnections();
      hanging.close();
    });
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const slow = new ServiceClient({ baseUrl: url, apiKey: 'k', timeoutMs: 200, retries: 1 });
    assert.equal(((await slow.listDomains().catch((e: unknown) => e)) as ServiceApiError).code, 'TIMEOUT');
    // the reason is in the message, not just "fetch failed", and the network error is its cause
    const badPort = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', retries: 1 });
    const refusedPort = new ServiceClient({
      baseUrl: `http://127.0.0.1:${await findFreeTcpPort()}`,
      apiKey: 'k',
      retries: 0,
    });
    const cases: [ServiceClient, RegExp][] = [
      [badPort, /^cannot reach http:\/\/127\.0\.0\.1:9\/api\/public\/domain: fetch failed: bad port$/],
      [
        refusedPort,
        /^cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/public\/domain: fetch failed: connect ECONNREFUSED/,
      ],
    ];
    for (const [down, message] of cases) {
      const error = (await down.listDomains().catch((e: unknown) => e)) as ServiceApiError;
      assert.equal(error.code, 'NETWORK_ERROR');
      assert.match(error.message, message);
      assert.ok(error.cause instanceof Error, 'the network error is kept as the cause');
    }
  });

  test('waitForVerification resolves when DNS catches up, reporting progress', async () => {
    const [registered] = await client.registerDomains([
      { domain: 'wait.client.test', domainType: 'Transactional' },
    ]);
    const records = registered!.data!.records.filter((r) => r.type === 'CNAME');
    const progress: string[] = [];
    // Published once the first status is in, so that it is a pending one: started at once, a
    // loaded machine could publish every record before the first check looked.
    let firstStatus = () => {};
    const reported = new Promise<void>((resolve) => {
      firstStatus = resolve;
    });
    const publishing = (async () => {
      await reported;
      for (const record of records) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
      }
    })();
    const done = await client.waitForVerification(['wait.client.test'], {
      intervalMs: 100,
      // a bound only a domain that never verifies reaches, far above a loaded run's (2 cores)
      timeoutMs: 60_000,
      onProgress: (envelopes) => {
        progress.push(envelopes[0]!.data!.status);
        firstStatus();
      },
    });
    await publishing;
    assert.equal(done[0]?.data?.status, 'verified');
    assert.equal(progress.at(-1), 'verified');
    assert.ok(progress.includes('pending'));
  });

  test('rotateDkim asks for a rotation of a verified domain; an unverified or unknown one throws the code', async () => {
    // wait.client.test was verified by the test above; its keys exist once the generator is done
    await t.server.dkim.generator.idle();
    const unknown = await client.rotateDkim('nobody.client.test').catch((e: unknown) => e);
    assert.equal((unknown as ServiceApiError).code, 'DKIM_ROTATION_DOMAIN_UNKNOWN');
    await client.registerDomains([{ domain: 'unpublished.client.test', domainType: 'Marketing' }]);
    const refused = await client.rotateDkim('unpublished.client.test').catch((e: unknown) => e);
    assert.ok(refused instanceof ServiceApiError);
    assert.equal(refused.status, 409);
    assert.equal(refused.code, 'DKIM_ROTATION_UNAVAILABLE');
    const rotation = await waitUntil('the next keys confirmed', async () => {
      const [status] = await client.domainStatus(['wait.client.test']);
      return status!.data!.dkim.selectors.every((s) => s.since !== null) || undefined;
    }).then(() => client.rotateDkim('wait.client.test'));
    assert.equal(rotation.domain, 'wait.client.test');
    assert.notEqual(rotation.dkim.rotationRequestedAt, null);
    assert.notEqual(rotation.dkim.nextRotationAt, null);
    const rotated = await waitUntil('the switch', async () => {
      const [status] = await client.domainStatus(['wait.client.test']);
      return status!.data!.dkim.rotatedAt ?? undefined;
    });
    assert.ok(Date.parse(rotated) >= Date.parse(rotation.dkim.rotationRequestedAt!));
  });

  test('waitForVerification gives up with the last statuses', async () => {
    await client.registerDomains([{ domain: 'never.client.test', domainType: 'Transactional' }]);
    const error = await client
      .waitForVerification(['never.client.test'], { intervalMs: 100, timeoutMs: 400 })
      .catch((e: unknown) => e);
    assert.ok(error instanceof VerificationTimeoutError);
    assert.equal((error.last[0] as { data: { status: string } }).data.status, 'pending');
    const unknown = await client
      .waitForVerification(['ghost.client.test'], { timeoutMs: 400 })
      .catch((e: unknown) => e);
    assert.ok(unknown instanceof ItemFailedError, String(unknown));
    assert.ok(!(unknown instanceof ServiceApiError), 'the request itself succeeded');
    assert.equal(unknown.code, 'DOMAIN_NOT_REGISTERED');
    assert.equal(unknown.domain, 'ghost.client.test');
    assert.equal(unknown.last.length, 1);
  });

  test('waitForVerification rejects a refused key as a request failure (ServiceApiError), not an item one', async () => {
    const { key } = await t.createKey({ name: 'playground', scopes: ['templates', 'images'] });
    const scoped = new ServiceClient({ baseUrl: t.url, apiKey: key });
    const error = await scoped
      .waitForVerification(['never.client.test'], { timeoutMs: 400 })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceApiError, String(error));
    assert.equal(error.status, 403);
    assert.equal(error.code, 'AUTH_SCOPE');
  });
});

describe('ServiceClient webhooks', () => {
  test('creates, lists, reads and retries deliveries, enables a disabled endpoint, deletes; unknown ids are WEBHOOK_NOT_FOUND', async (ctx) => {
    // A loopback receiver is allowed, deliveries run every 20 ms, retries come within 0.2 s, and
    // an endpoint failing for 0.3 s is disabled (5 days in production).
    const hooked = await startTestServer({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_DELAY_MS: '200',
      WEBHOOK_DISABLE_AFTER_MS: '300',
    });
    const receiver = await startWebhookReceiver();
    ctx.after(async () => {
      await hooked.close();
      await receiver.close();
    });
    const hooks = new ServiceClient({ baseUrl: hooked.url, apiKey: (await hooked.createKey()).key });

    const created = await hooks.createWebhook({ url: receiver.url, events: ['domain.created'] });
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.deepEqual(created.events, ['domain.created']);
    const { secret: _, ...endpoint } = created;
    assert.deepEqual(await hooks.listWebhooks(), [endpoint], 'listed without the secret');

    // registering a domain is the event
    await hooks.registerDomains([{ domain: 'hook.client.test', domainType: 'Transactional' }]);
    const delivered = await waitUntil('domain.created delivered', async () => {
      const [d] = await hooks.webhookDeliveries(created.id);
      return d?.status === 'delivered' ? d : undefined;
    });
    assert.equal(delivered.event, 'domain.created');
    assert.equal(delivered.attempts, 1);
    assert.equal(delivered.lastStatusCode, 204);
    assert.equal(delivered.lastError, null);
    assert.equal(receiver.received.length, 1);

    // a retry sends it again now, with the same webhook-id
    const retried = await hooks.retryWebhookDelivery(created.id, delivered.id);
    assert.equal(retried.id, delivered.id);
    assert.equal(retried.status, 'pending');
    await waitUntil('the retry received', () => receiver.received.length === 2);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['webhook-id']),
      [delivered.eventId, delivered.eventId],
    );
    const wrongDelivery = await hooks.retryWebhookDelivery(created.id, 'dlv_nope').catch((e: unknown) => e);
    assert.ok(wrongDelivery instanceof ServiceApiError, String(wrongDelivery));
    assert.equal(wrongDelivery.status, 404);
    assert.equal(wrongDelivery.code, 'WEBHOOK_DELIVERY_NOT_FOUND');

    // an endpoint down long enough is disabled; enabling it delivers what waited
    await receiver.down();
    await hooks.registerDomains([{ domain: 'down.client.test', domainType: 'Transactional' }]);
    const disabled = await waitUntil('the endpoint disabled', async () => {
      const [e] = await hooks.listWebhooks();
      return e?.disabledAt ? e : undefined;
    });
    assert.ok(disabled.failingSince !== null);
    await receiver.up();
    const enabled = await hooks.enableWebhook(created.id);
    assert.deepEqual(enabled, endpoint, 'enabled: no longer disabled nor failing');
    await waitUntil('the waiting one delivered', async () => {
      const [d] = await hooks.webhookDeliveries(created.id);
      return d?.status === 'delivered' && d.id !== delivered.id;
    });
    assert.equal(receiver.received.length, 3);

    assert.deepEqual(await hooks.deleteWebhook(created.id), { id: created.id, deleted: true });
    assert.deepEqual(await hooks.listWebhooks(), []);
    for (const call of [
      () => hooks.deleteWebhook(created.id),
      () => hooks.enableWebhook(created.id),
      () => hooks.webhookDeliveries(created.id),
      () => hooks.retryWebhookDelivery(created.id, delivered.id),
    ]) {
      const error = await call().catch((e: unknown) => e);
      assert.ok(error instanceof ServiceApiError, String(error));
      assert.equal(error.status, 404);
      assert.equal(error.code, 'WEBHOOK_NOT_FOUND');
      assert.match(error.message, new RegExp(`no webhook ${created.id}`));
    }
  });

  test('a key limited to templates,images is refused (AUTH_SCOPE, 403)', async () => {
    const { key } = await t.createKey({ name: 'playground', scopes: ['templates', 'images'] });
    const scoped = new ServiceClient({ baseUrl: t.url, apiKey: key });
    const error = await scoped.listWebhooks().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceApiError, String(error));
    assert.equal(error.status, 403);
    assert.equal(error.code, 'AUTH_SCOPE');
  });
});

test('sendEmail queues from a verified domain (once per idempotency key), getEmail reads it, suppressions list and refuse', async () => {
  const domain = 'send.client.test';
  const [registered] = await client.registerDomains([{ domain, domainType: 'Transactional' }]);
  for (const record of registered!.data!.records.filter((r) => r.type === 'CNAME'))
    await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
  // a bound only a domain that never verifies reaches, far above a loaded run's (2 cores)
  await client.waitForVerification([domain], { intervalMs: 50, timeoutMs: 60_000 });
  const message = { from: `Shop <hi@${domain}>`, to: ['ann@example.org'], subject: 'Hi', html: '<p>Hi</p>' };
  const first = await client.sendEmail(message, { idempotencyKey: 'client-test-1' });
  assert.equal(first.status, 'queued');
  assert.deepEqual(await client.sendEmail(message, { idempotencyKey: 'client-test-1' }), first);
  const email = await client.getEmail(first.id);
  assert.equal(email.id, first.id);
  assert.equal(email.from, `hi@${domain}`);
  assert.deepEqual(
    email.recipients.map((r) => [r.address, r.kind]),
    [['ann@example.org', 'to']],
  );
  await assert.rejects(
    client.sendEmail({ ...message, from: 'hi@unverified.client.test' }),
    (error: unknown) =>
      error instanceof ServiceApiError && error.status === 403 && error.code === 'EMAIL_FROM_NOT_VERIFIED',
  );
  await assert.rejects(
    client.sendEmail({ ...message, subject: 'Other' }, { idempotencyKey: 'client-test-1' }),
    (error: unknown) => error instanceof ServiceApiError && error.code === 'IDEMPOTENCY_KEY_REUSED',
  );
  assert.deepEqual(await client.listSuppressions(), []);
  await assert.rejects(
    client.removeSuppression('nobody@example.org'),
    (error: unknown) =>
      error instanceof ServiceApiError && error.status === 404 && error.code === 'SUPPRESSION_NOT_FOUND',
  );
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
  assert.equal(retryAfterMs('soon'), undefined);
  assert.equal(retryAfterMs(null), undefined);
});

test('the generated types come from the live server’s /openapi.json', async () => {
  const built = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
  const live = await (await fetch(`${t.url}/openapi.json`)).json();
  assert.deepEqual(built, live);
  const generated = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
  for (const path of Object.keys(live.paths)) assert.ok(generated.includes(`"${path}"`), path);
});
