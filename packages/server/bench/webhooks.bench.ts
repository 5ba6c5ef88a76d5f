/**
 * Issue 20 figures: webhook events delivered per second on 2 cores, and the time from a status
 * change to its delivery.
 *
 * Throughput: 5,000 registrations are made while no process delivers (each writes a
 * `domain.created` event and its delivery in the outbox), then a server with the worker on is
 * timed until a real HTTP receiver on loopback has them all, on SQLite and on PostgreSQL.
 * Latency: half of 400 registered domains are published in BIND; status polls then find each
 * change, and the figure is the receiver's clock minus the event's `createdAt` (both this
 * machine's), with the default `WEBHOOK_INTERVAL_MS` of 1 s (the check nudges the worker).
 * Server and receiver share this process, so the figures include the receiver's work.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { startWebhookReceiver, type WebhookReceiver } from '../src/test-support/webhook-receiver.js';
import { apiKey, benchBackends, callOf, fmt } from './support.js';

const EVENTS = 5_000;
const LATENCY_DOMAINS = 400;

export async function runWebhooksBench(): Promise<void> {
  console.log('\n## Webhooks: events delivered per second, and status change → delivery');
  const bind = await startBind({ zones: ['hooks.test'] });
  const receiver = await startWebhookReceiver();
  const postgres = await startPostgres();
  try {
    for (const [label, databaseUrl] of await benchBackends(postgres)) {
      const env = {
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-webhooks-')),
        ...(databaseUrl && { DATABASE_URL: databaseUrl }),
        PORT: '0',
        LOG_LEVEL: 'silent',
        DNS_RESOLVERS: bind.address,
        DKIM_PROVIDER_HOST: 'provider.test',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        RATE_LIMIT_MAX: '1000000',
        SCHEDULER_ENABLED: 'false',
      };
      await throughput(label, env, receiver);
      await latency(label, env, receiver, bind);
    }
  } finally {
    await postgres.stop();
    await receiver.close();
    await bind.close();
  }
}

/** A server of `env`, its API key, and an endpoint of that key's account at the receiver. */
async function serverWithEndpoint(env: Record<string, string>, receiver: WebhookReceiver, events?: string[]) {
  const server = await startServer(loadConfig(env), { logger: false });
  const call = callOf(server, await apiKey(server));
  await call('POST', '/api/public/webhooks', { url: receiver.url, ...(events && { events }) });
  return { server, call };
}

async function throughput(label: string, env: Record<string, string>, receiver: WebhookReceiver) {
  const setup = await serverWithEndpoint({ ...env, WEBHOOKS_ENABLED: 'false' }, receiver, ['domain.created']);
  for (let i = 0; i < EVENTS; i += 100) {
    const domains = Array.from({ length: 100 }, (_, j) => ({
      domain: `t${i + j}.${label.toLowerCase()}.example`,
      domainType: 'Transactional',
    }));
    await setup.call('POST', '/api/public/domain', { domains });
  }
  await setup.server.close();
  for (const batch of ['50', '200']) {
    receiver.received.length = 0;
    // The same outbox each time: deliveries made due again, so both runs send all of them.
    const server = await startServer(loadConfig({ ...env, WEBHOOKS_ENABLED: 'false' }), { logger: false });
    await server.store.db
      .updateTable('webhook_deliveries')
      .set({ delivered_at: null, failed_at: null, attempts: 0, next_attempt_at: Date.now() })
      .execute();
    await server.close();
    const started = performance.now();
    const worker = await startServer(
      loadConfig({ ...env, WEBHOOK_INTERVAL_MS: '20', WEBHOOK_BATCH: batch }),
      { logger: false },
    );
    while (receiver.received.length < EVENTS) await new Promise((resolve) => setTimeout(resolve, 10));
    const seconds = (performance.now() - started) / 1000;
    await worker.close();
    console.log(
      `${label}, WEBHOOK_BATCH=${batch}: ${fmt(EVENTS)} events delivered in ${fmt(seconds, 2)} s (start-up included): ${fmt(EVENTS / seconds)} events/s`,
    );
  }
}

async function latency(
  label: string,
  env: Record<string, string>,
  receiver: WebhookReceiver,
  bind: BindServer,
) {
  const { server, call } = await serverWithEndpoint({ ...env, STATUS_CHECK_MAX_AGE_MS: '0' }, receiver, [
    'domain.updated',
  ]);
  try {
    const names = Array.from(
      { length: LATENCY_DOMAINS },
      (_, i) => `l${i}.${label.toLowerCase()}.hooks.test`,
    );
    const updates: string[] = [];
    for (let i = 0; i < names.length; i += 100) {
      const results = await call('POST', '/api/public/domain', {
        domains: names.slice(i, i + 100).map((domain) => ({ domain, domainType: 'Marketing' })),
      });
      results.forEach((result: any, j: number) => {
        if ((i + j) % 2 === 1) return;
        for (const record of result.data.records.filter((r: any) => r.type === 'CNAME'))
          updates.push(`update add ${record.fqdn}. 300 CNAME ${record.value}.`);
      });
    }
    for (let i = 0; i < updates.length; i += 300) await bind.update('hooks.test', updates.slice(i, i + 300));
    receiver.received.length = 0;
    // Ten domains per poll, one poll after another: each published domain's check changes a status.
    for (let i = 0; i < names.length; i += 10)
      await call('POST', '/api/public/domain/status', { domains: names.slice(i, i + 10) });
    // Every change is delivered once the count stops growing for 2 s (the worker ticks every 1 s).
    for (let seen = -1; seen !== receiver.received.length; ) {
      seen = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    const delays = receiver.received
      .map((r) => r.at - Date.parse(JSON.parse(r.body).createdAt))
      .sort((a, b) => a - b);
    const at = (q: number) =>
      delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? Number.NaN;
    console.log(
      `${label}: ${delays.length} status changes of ${LATENCY_DOMAINS} domains (half published) delivered; change → delivery p50 ${fmt(at(0.5))} ms, p99 ${fmt(at(0.99))} ms, max ${fmt(delays.at(-1) ?? Number.NaN)} ms`,
    );
  } finally {
    await server.close();
  }
}
