/**
 * Webhooks from several server processes on one PostgreSQL database (issue 20): each event
 * reaches an endpoint once however many processes deliver, a domain's events arrive in
 * order, and an event committed by a process killed before delivering it is delivered after
 * a restart (the outbox). Every request is verified with the `standardwebhooks` package.
 *
 * Always on PostgreSQL (a private cluster): SQLite is one process.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type PostgresServer, startPostgres } from './test-support/postgres.js';
import { callApi, runCli, serverFleet } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';
import {
  startWebhookReceiver,
  verifiedEvents,
  type WebhookReceiver,
} from './test-support/webhook-receiver.js';

let postgres: PostgresServer;
let receiver: WebhookReceiver;
const fleet = serverFleet('webhooks-multi-', () => ({
  // No DNS answers: checks fail with dns_error, which changes no status and sends nothing.
  DNS_RESOLVERS: '127.0.0.1:9',
  DNS_TIMEOUT_MS: '200',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_INTERVAL_MS: '20',
  WEBHOOK_BATCH: '5',
}));
const start = fleet.start;

before(async () => {
  [postgres, receiver] = await Promise.all([startPostgres(), startWebhookReceiver()]);
});
after(async () => {
  await fleet.stop();
  await Promise.all([postgres.stop(), receiver.close()]);
});

/** Received events, verified, since `from`. */
function received(secret: string, from = 0) {
  return verifiedEvents(receiver.received.slice(from), secret);
}

test('three processes deliver each event once, in order per domain; a killed process’s events are delivered after restart', async () => {
  const databaseUrl = await postgres.createDatabase();
  const env = { DATABASE_URL: databaseUrl };
  const servers = await Promise.all([start(env), start(env), start(env)]);
  const key = (await runCli(['keys', 'create', '--name', 'hooks'], env)).stdout.trim().split('\n').at(-1)!;
  const secret = (await callApi(servers[0]!.url, key, 'POST', '/api/public/webhooks', { url: receiver.url }))
    .data.secret;

  // 20 domains registered then deleted, spread over the processes: 40 events.
  const names = Array.from({ length: 20 }, (_, i) => `d${i}.hooks.example.com`);
  await Promise.all(
    names.map((domain, i) =>
      callApi(servers[i % 3]!.url, key, 'POST', '/api/public/domain', {
        domains: [{ domain, domainType: 'Marketing' }],
      }),
    ),
  );
  await Promise.all(
    names.map((domain, i) =>
      callApi(servers[(i + 1) % 3]!.url, key, 'DELETE', '/api/public/domain', { domains: [domain] }),
    ),
  );
  await waitUntil('40 events', () => receiver.received.length >= 40 || undefined);
  // Time for any duplicate to arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const events = received(secret);
  assert.equal(events.length, 40);
  assert.equal(new Set(events.map((e) => e.id)).size, 40, 'each event once');
  for (const name of names) {
    assert.deepEqual(
      events.filter((e) => e.event.data.domain === name).map((e) => e.event.type),
      ['domain.created', 'domain.deleted'],
      name,
    );
  }

  // A process that commits a registration and dies before delivering it: the event waits in
  // the outbox and the next process delivers it.
  for (const p of servers) p.child.kill('SIGKILL');
  await Promise.all(servers.map((p) => p.exited));
  const before = receiver.received.length;
  const silent = await start({ ...env, WEBHOOKS_ENABLED: 'false' });
  await callApi(silent.url, key, 'POST', '/api/public/domain', {
    domains: [{ domain: 'crash.hooks.example.com', domainType: 'Marketing' }],
  });
  silent.child.kill('SIGKILL');
  await silent.exited;
  assert.equal(receiver.received.length, before);
  await start(env);
  await waitUntil('the event after restart', () => receiver.received.length > before || undefined);
  const [late] = received(secret, before);
  assert.equal(late!.event.type, 'domain.created');
  assert.equal(late!.event.data.domain, 'crash.hooks.example.com');
});

test('a process killed while its receiver is still answering: the next one delivers the event again, with the same webhook-id', async () => {
  const databaseUrl = await postgres.createDatabase();
  const env = { DATABASE_URL: databaseUrl, WEBHOOK_LEASE_MS: '1000' };
  const first = await start(env);
  const key = (await runCli(['keys', 'create', '--name', 'hooks'], env)).stdout.trim().split('\n').at(-1)!;
  const secret = (await callApi(first.url, key, 'POST', '/api/public/webhooks', { url: receiver.url })).data
    .secret;
  const before = receiver.received.length;
  receiver.holdMs = 60_000;
  await callApi(first.url, key, 'POST', '/api/public/domain', {
    domains: [{ domain: 'mid-flight.hooks.example.com', domainType: 'Marketing' }],
  });
  // The request has arrived; its answer is held: the process dies not knowing it was delivered.
  await waitUntil('the first attempt', () => receiver.received.length > before || undefined);
  first.child.kill('SIGKILL');
  await first.exited;
  receiver.holdMs = 0;
  await start(env);
  await waitUntil('the attempt after the lease', () => receiver.received.length > before + 1 || undefined);
  const [attempt, again] = received(secret, before);
  assert.equal(again!.id, attempt!.id);
  assert.equal(again!.event.data.domain, 'mid-flight.hooks.example.com');
  assert.equal(again!.event.type, 'domain.created');
});
