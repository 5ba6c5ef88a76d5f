/**
 * Webhooks end to end (issue 20): the real server, a real receiver on loopback, BIND as the
 * customer's DNS, and every received request verified with the `standardwebhooks` package
 * (an outside implementation of the specification), never with our own signing code.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { seal } from '../../dkim/secret-box.js';
import { resolveSecretKey } from '../../dkim/secret-key.js';
import { WebhookStore } from '../../store/webhook-store.js';
import { type BindServer, startBind } from '../../test-support/bind.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { waitUntil } from '../../test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from '../../test-support/webhook-receiver.js';

let bind: BindServer;
const servers: TestServer[] = [];
const receivers: WebhookReceiver[] = [];

before(async () => {
  bind = await startBind({ zones: ['example.test'] });
});
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(receivers.map((r) => r.close()));
  await bind.close();
});

/** Fast retries, private URLs allowed (the receiver is on loopback). */
const FAST = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_INTERVAL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '200',
};

async function setup(env: Record<string, string> = FAST) {
  const t = await startTestServer({ DNS_RESOLVERS: bind.address, STATUS_CHECK_MAX_AGE_MS: '0', ...env });
  servers.push(t);
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const { key, accountId } = await t.createKey();
  const call = async (method: string, route: string, body?: unknown, expected = 200) => {
    const res = await t.request(method, route, { key, ...(body !== undefined && { body }) });
    assert.equal(res.status, expected, JSON.stringify(res.body));
    assert.deepEqual(res.contractProblems, []);
    return res.body;
  };
  return { t, key, accountId, receiver, call };
}

/** The received events, each verified with the Standard Webhooks reference package. */
function verified(receiver: WebhookReceiver, secret: string) {
  return verifiedEvents(receiver.received, secret);
}

describe('webhook endpoints', () => {
  test('a domain registered, published and verified sends created, updated and verified, each signed', async () => {
    const { receiver, call } = await setup();
    const created = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    // No `events`: all of them.
    assert.deepEqual(created.events, [
      'domain.created',
      'domain.updated',
      'domain.verified',
      'domain.deleted',
      'domain.dkim_rotated',
      'email.sent',
      'email.delivered',
      'email.deferred',
      'email.bounced',
      'email.failed',
      'email.complained',
      'email.opened',
      'email.clicked',
    ]);
    const listed = (await call('GET', '/api/public/webhooks')).data;
    assert.deepEqual(
      listed,
      [{ ...created, secret: undefined }].map(({ secret: _, ...e }) => e),
    );

    const domain = 'mail.example.test';
    const registered = (
      await call('POST', '/api/public/domain', { domains: [{ domain, domainType: 'Transactional' }] })
    )[0].data;
    await waitUntil('domain.created', () => receiver.received.length >= 1 || undefined);
    const [first] = verified(receiver, created.secret);
    assert.equal(first!.event.type, 'domain.created');
    assert.equal(first!.event.data.domain, domain);
    assert.equal(first!.event.data.previous, null);
    assert.deepEqual(first!.event.data.records, registered.records);

    // The three CNAMEs in one update: added one by one, a scheduled check in between (a loaded
    // run's nsupdate takes long enough) saw the first alone and sent an update of its own.
    await bind.update(
      'example.test',
      registered.records
        .filter((r: { type: string }) => r.type === 'CNAME')
        .map((r: { fqdn: string; value: string }) => `update add ${r.fqdn}. 60 CNAME ${r.value}.`),
    );
    // Polling runs the check whose status change writes the events. A scheduled check that
    // began before the update answers the first poll with what it saw then: poll again.
    await waitUntil('a status poll saying verified', async () => {
      const [status] = await call('POST', '/api/public/domain/status', { domains: [domain] });
      return status.data.status === 'verified' || undefined;
    });
    await waitUntil(
      'domain.updated and domain.verified',
      () => verified(receiver, created.secret).some((r) => r.event.type === 'domain.verified') || undefined,
    );
    const seen = verified(receiver, created.secret);
    const events = seen.map((r) => r.event);
    const types = events.map((e) => e.type);
    // The verification comes after its update. Other checks may have sent updates before it:
    // on a loaded machine one may see a DKIM record's lookup time out while the others pass;
    // the first update still starts from the records as registered.
    assert.deepEqual(types.slice(-2), ['domain.updated', 'domain.verified']);
    const [updated, verifiedEvent] = events.slice(-2);
    assert.equal(updated.data.status, 'verified');
    assert.equal(updated.data.previous.status, 'pending');
    const firstUpdate = events.find((e) => e.type === 'domain.updated');
    assert.deepEqual(
      firstUpdate.data.previous.records.map((r: { status: string }) => r.status),
      ['pending', 'pending', 'pending', 'pending'],
    );
    assert.deepEqual(
      updated.data.records.map((r: { status: string }) => r.status),
      ['verified', 'verified', 'verified', 'pending'],
    );
    assert.deepEqual(verifiedEvent.data, updated.data);

    // The receiver has the events before the deliverer records its answers: wait for those
    // records (issue 41: on a loaded machine one still read `pending`). One delivery per event
    // received, however many: a loaded run can send an extra domain.updated first (above), and
    // waiting for exactly three then timed out.
    const listDeliveries = async () =>
      (await call('GET', `/api/public/webhooks/${created.id}/deliveries`)).data;
    const receivedIds = () => [...new Set(verified(receiver, created.secret).map((r) => r.id))].sort();
    const deliveries = await waitUntil(
      'a delivery recorded as delivered for each event received',
      async () => {
        const all = await listDeliveries();
        const ids = all.map((d: { eventId: string }) => d.eventId).sort();
        return (
          all.every((d: { status: string }) => d.status === 'delivered') &&
          JSON.stringify(ids) === JSON.stringify(receivedIds()) &&
          all
        );
      },
      { seen: async () => ({ deliveries: await listDeliveries(), received: receivedIds() }) },
    );
    assert.ok(deliveries.length >= 3, `${deliveries.length} deliveries`);
    // among them the created, the last updated and the verified events checked above
    for (const { id, event } of [seen[0]!, ...seen.slice(-2)])
      assert.ok(
        deliveries.some((d: { eventId: string }) => d.eventId === id),
        `${event.type} delivered`,
      );
    for (const d of deliveries) {
      assert.equal(d.status, 'delivered');
      assert.equal(d.lastStatusCode, 204);
      assert.equal(d.nextAttemptAt, null);
    }

    await call('DELETE', '/api/public/domain', { domains: [domain] });
    await waitUntil(
      'domain.deleted',
      () => verified(receiver, created.secret).some((r) => r.event.type === 'domain.deleted') || undefined,
    );
  });

  test('a receiver down for several attempts gets the event once, with the same webhook-id', async () => {
    const { receiver, call } = await setup();
    const created = (
      await call('POST', '/api/public/webhooks', { url: receiver.url, events: ['domain.created'] })
    ).data;
    await receiver.down();
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'retry.example.test', domainType: 'Marketing' }],
    });
    const failures = await waitUntil('three failed attempts', async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${created.id}/deliveries`)).data;
      return d?.attempts >= 3 ? d : undefined;
    });
    assert.equal(failures.status, 'pending');
    assert.equal(failures.lastStatusCode, null);
    assert.match(failures.lastError, /ECONNREFUSED/);
    assert.notEqual(failures.nextAttemptAt, null);
    // Up, but answering 500: still a failure, with its status recorded.
    receiver.failing = true;
    await receiver.up();
    await waitUntil('a 500 recorded', async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${created.id}/deliveries`)).data;
      return d?.lastStatusCode === 500 || undefined;
    });
    receiver.failing = false;
    const [delivered] = await waitUntil('delivered', async () => {
      const list = (await call('GET', `/api/public/webhooks/${created.id}/deliveries`)).data;
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    assert.equal(receiver.received.length, 1);
    const [event] = verified(receiver, created.secret);
    assert.equal(event!.id, delivered.eventId);
    assert.equal(event!.event.data.domain, 'retry.example.test');

    // A manual retry sends it again, with the same id.
    await call('POST', `/api/public/webhooks/${created.id}/deliveries/${delivered.id}/retry`);
    await waitUntil('the retry', () => receiver.received.length === 2 || undefined);
    const ids = verified(receiver, created.secret).map((r) => r.id);
    assert.deepEqual(ids, [delivered.eventId, delivered.eventId]);
  });

  test('past the retry window a delivery has failed, and is not attempted again', async () => {
    const { receiver, call } = await setup({ ...FAST, WEBHOOK_RETRY_FOR_MS: '800' });
    const endpoint = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    await receiver.down();
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'window.example.test', domainType: 'Marketing' }],
    });
    const failed = await waitUntil('the delivery failed', async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${endpoint.id}/deliveries`)).data;
      return d?.status === 'failed' ? d : undefined;
    });
    // at least one: on a loaded machine the first attempt itself can come past the 800 ms window
    assert.ok(failed.attempts >= 1, `${failed.attempts} attempts`);
    assert.equal(failed.nextAttemptAt, null);
    assert.ok(Date.parse(failed.lastAttemptAt) - Date.parse(failed.createdAt) >= 800);
    await receiver.up();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [after] = (await call('GET', `/api/public/webhooks/${endpoint.id}/deliveries`)).data;
    assert.equal(after.attempts, failed.attempts);
    assert.equal(receiver.received.length, 0);
  });

  test('an endpoint failing long enough is disabled and gets no new events; enabling it delivers what waited', async () => {
    // Disabled after 0.4 s of failures instead of 5 days.
    const { receiver, call } = await setup({ ...FAST, WEBHOOK_DISABLE_AFTER_MS: '400' });
    const endpoint = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    await receiver.down();
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'first.example.test', domainType: 'Marketing' }],
    });
    const disabled = await waitUntil('the endpoint disabled', async () => {
      const [e] = (await call('GET', '/api/public/webhooks')).data;
      return e.disabledAt !== null ? e : undefined;
    });
    assert.ok(Date.parse(disabled.disabledAt) - Date.parse(disabled.failingSince) >= 400);
    // Disabled: the attempt count no longer moves, and an event now is not for this endpoint.
    const [waiting] = (await call('GET', `/api/public/webhooks/${endpoint.id}/deliveries`)).data;
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'second.example.test', domainType: 'Marketing' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const still = (await call('GET', `/api/public/webhooks/${endpoint.id}/deliveries`)).data;
    assert.deepEqual(
      still.map((d: any) => [d.id, d.status, d.attempts]),
      [[waiting.id, 'pending', waiting.attempts]],
    );

    await receiver.up();
    const enabled = (await call('POST', `/api/public/webhooks/${endpoint.id}/enable`)).data;
    assert.equal(enabled.disabledAt, null);
    assert.equal(enabled.failingSince, null);
    await waitUntil('the waiting one delivered', async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${endpoint.id}/deliveries`)).data;
      return d.status === 'delivered' || undefined;
    });
    const [event] = verified(receiver, endpoint.secret);
    assert.equal(event!.id, waiting.eventId);
    assert.equal(event!.event.data.domain, 'first.example.test');
    assert.equal(receiver.received.length, 1);
  });

  test('an answer that takes longer than the timeout, or a redirect, is a failed attempt', async () => {
    const { call } = await setup({ ...FAST, WEBHOOK_TIMEOUT_MS: '300' });
    const other = await startWebhookReceiver();
    receivers.push(other);
    // One server: /slow never answers in time, /moved redirects to the other receiver.
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/moved') response.writeHead(307, { location: other.url }).end();
      else setTimeout(() => response.writeHead(204).end(), 2_000);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const slow = (await call('POST', '/api/public/webhooks', { url: `${base}/slow` })).data;
    const moved = (await call('POST', '/api/public/webhooks', { url: `${base}/moved` })).data;
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'slow.example.test', domainType: 'Marketing' }],
    });
    const lastAttempt = (id: string) =>
      waitUntil(`an attempt to ${id}`, async () => {
        const [d] = (await call('GET', `/api/public/webhooks/${id}/deliveries`)).data;
        return d?.attempts >= 1 ? d : undefined;
      });
    const timedOut = await lastAttempt(slow.id);
    assert.equal(timedOut.status, 'pending');
    assert.equal(timedOut.lastStatusCode, null);
    assert.match(timedOut.lastError, /no answer within 300 ms/);
    assert.ok(
      // cut at its 300 ms, not at a socket's default (a bound far above a loaded run's, issue 41)
      timedOut.lastDurationMs >= 300 && timedOut.lastDurationMs < 20_000,
      String(timedOut.lastDurationMs),
    );
    // The redirect is answered at once, but a loaded machine can still take over 300 ms to
    // bring its answer in (the timeout, as above): wait for an attempt that had its answer.
    const redirected = await waitUntil(`an answered attempt to ${moved.id}`, async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${moved.id}/deliveries`)).data;
      return d?.attempts >= 1 && !/no answer within/.test(d.lastError ?? '') ? d : undefined;
    });
    assert.equal(redirected.status, 'pending');
    assert.equal(redirected.lastStatusCode, 307);
    assert.equal(redirected.lastError, 'answered HTTP 307');
    assert.equal(other.received.length, 0);
  });

  test('settled events are deleted after the retention period; open ones are kept', async () => {
    const { receiver, call } = await setup({ ...FAST, WEBHOOK_RETENTION_MS: '300' });
    const up = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    const other = await startWebhookReceiver();
    receivers.push(other);
    await other.down();
    const down = (await call('POST', '/api/public/webhooks', { url: other.url })).data;
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'kept.example.test', domainType: 'Marketing' }],
    });
    const deliveries = async (id: string) =>
      (await call('GET', `/api/public/webhooks/${id}/deliveries`)).data;
    // Delivered, then pruned 300 ms later: a poll of the list could miss the `delivered` state
    // altogether on a slow run (issue 41), so the receiver tells that it arrived.
    await waitUntil('delivered', () => receiver.received.length === 1 || undefined, {
      seen: () => deliveries(up.id),
    });
    await waitUntil('pruned', async () => (await deliveries(up.id)).length === 0 || undefined, {
      seen: () => deliveries(up.id),
    });
    assert.equal(receiver.received.length, 1);
    // The same event is still open for the endpoint that is down: kept, and delivered later.
    const [open] = await deliveries(down.id);
    assert.equal(open.status, 'pending');
    await other.up();
    await waitUntil('delivered late', () => other.received.length === 1 || undefined);
    assert.equal(verified(other, down.secret)[0]!.id, open.eventId);
  });

  test('an endpoint subscribed to some events receives only those', async () => {
    const { receiver, call } = await setup();
    const created = (
      await call('POST', '/api/public/webhooks', { url: receiver.url, events: ['domain.deleted'] })
    ).data;
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'only.example.test', domainType: 'Marketing' }],
    });
    await call('DELETE', '/api/public/domain', { domains: ['only.example.test'] });
    await waitUntil('domain.deleted', () => receiver.received.length >= 1 || undefined);
    const [event] = verified(receiver, created.secret);
    assert.equal(event!.event.type, 'domain.deleted');
    assert.equal(event!.event.data.domain, 'only.example.test');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.received.length, 1);
  });

  test('endpoint limits, unknown ids and deletion answer their documented errors', async () => {
    const { t, key, receiver, call } = await setup({ ...FAST, MAX_WEBHOOKS_PER_ACCOUNT: '2' });
    const a = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    await call('POST', '/api/public/webhooks', { url: `${receiver.url}/2` });
    const over = await call('POST', '/api/public/webhooks', { url: `${receiver.url}/3` }, 409);
    assert.equal(over.error.code, 'ACCOUNT_WEBHOOK_LIMIT');
    const long = await call(
      'POST',
      '/api/public/webhooks',
      { url: `https://example.com/${'a'.repeat(2100)}` },
      400,
    );
    assert.equal(long.error.code, 'WEBHOOK_URL_TOO_LONG');
    const bad = await call('POST', '/api/public/webhooks', { url: 'ftp://example.com/' }, 400);
    assert.equal(bad.error.code, 'WEBHOOK_URL_INVALID');
    const unknownEvent = await call(
      'POST',
      '/api/public/webhooks',
      { url: receiver.url, events: ['domain.exploded'] },
      400,
    );
    assert.equal(unknownEvent.error.code, 'REQUEST_INVALID');
    const huge = await t.request('POST', '/api/public/webhooks', {
      key,
      rawBody: JSON.stringify({ url: receiver.url, pad: 'x'.repeat(9000) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error.code, 'REQUEST_BODY_TOO_LARGE');
    assert.equal(
      (await call('DELETE', '/api/public/webhooks/whk_nope', undefined, 404)).error.code,
      'WEBHOOK_NOT_FOUND',
    );
    assert.equal(
      (await call('GET', '/api/public/webhooks/whk_nope/deliveries', undefined, 404)).error.code,
      'WEBHOOK_NOT_FOUND',
    );
    assert.equal(
      (await call('POST', `/api/public/webhooks/${a.id}/deliveries/dlv_nope/retry`, undefined, 404)).error
        .code,
      'WEBHOOK_DELIVERY_NOT_FOUND',
    );
    assert.deepEqual((await call('DELETE', `/api/public/webhooks/${a.id}`)).data, {
      id: a.id,
      deleted: true,
    });
    assert.equal((await call('GET', '/api/public/webhooks')).data.length, 1);
  });

  test('another account sees none of the endpoints', async () => {
    const { t, receiver, call } = await setup();
    const a = (await call('POST', '/api/public/webhooks', { url: receiver.url })).data;
    const other = await t.createKey();
    const list = await t.request('GET', '/api/public/webhooks', { key: other.key });
    assert.deepEqual(list.body.data, []);
    const gone = await t.request('DELETE', `/api/public/webhooks/${a.id}`, { key: other.key });
    assert.equal(gone.status, 404);
  });

  test('browser keys cannot manage webhooks', async () => {
    const { t, receiver } = await setup();
    const browser = await t.createKey({ scopes: ['templates', 'images'] });
    for (const [method, route] of [
      ['GET', '/api/public/webhooks'],
      ['POST', '/api/public/webhooks'],
    ] as const) {
      const res = await t.request(method, route, {
        key: browser.key,
        ...(method === 'POST' && { body: { url: receiver.url } }),
      });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'AUTH_SCOPE');
    }
  });
});

describe('no SSRF', () => {
  test('creation refuses non-public addresses and plain http unless private URLs are allowed', async () => {
    const { call } = await setup({});
    for (const url of [
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'https://localhost/hook',
    ]) {
      const res = await call('POST', '/api/public/webhooks', { url }, 400);
      assert.equal(res.error.code, 'WEBHOOK_URL_FORBIDDEN', url);
    }
    const http = await call('POST', '/api/public/webhooks', { url: 'http://93.184.215.14/hook' }, 400);
    assert.equal(http.error.code, 'WEBHOOK_URL_INVALID');
    const nowhere = await call(
      'POST',
      '/api/public/webhooks',
      { url: 'https://no-such-host.invalid/hook' },
      400,
    );
    assert.equal(nowhere.error.code, 'WEBHOOK_URL_UNRESOLVABLE');
  });

  test('delivery checks the address again: an endpoint whose host now resolves to loopback is refused', async () => {
    // The endpoint is written straight to the store, as if its host had resolved to a public
    // address at creation and to loopback since (DNS rebinding): delivery must refuse it.
    const { t, accountId, receiver, call } = await setup({
      WEBHOOK_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '100',
    });
    const store = new WebhookStore(t.server.store.db, t.server.store.kind);
    const id = 'whk_rebound';
    const url = receiver.url.replace('127.0.0.1', 'localhost').replace('http:', 'https:');
    const secretKey = resolveSecretKey(undefined, t.dataDir).key;
    await store.createEndpoint(
      {
        id,
        accountId,
        url,
        events: ['domain.created'],
        secretEnc: seal(secretKey, randomBytes(24), id),
        createdAt: Date.now(),
      },
      10,
    );
    await call('POST', '/api/public/domain', {
      domains: [{ domain: 'ssrf.example.test', domainType: 'Marketing' }],
    });
    const delivery = await waitUntil('a refused attempt', async () => {
      const [d] = (await call('GET', `/api/public/webhooks/${id}/deliveries`)).data;
      return d?.attempts >= 1 ? d : undefined;
    });
    assert.match(delivery.lastError, /^refused: localhost resolves to the loopback address /);
    assert.equal(delivery.lastStatusCode, null);
    assert.equal(receiver.received.length, 0);
  });
});
