/**
 * Issue 39's metrics read the way operators read them: a real Prometheus (Debian's) scrapes a
 * running server through its bearer token and answers PromQL over its HTTP API after traffic of
 * every kind (API requests, a verification check, a webhook, a send, DNS queries over UDP and
 * TCP); `promtool check metrics` lints the exposition.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { query, tcpQuery, udpQuery } from '../test-support/dns-client.js';
import { type PrometheusServer, startPrometheus } from '../test-support/prometheus.js';
import { type RedisServer, startRedis } from '../test-support/redis.js';
import {
  sendToSandbox,
  startTestServer,
  TEST_BACKEND,
  type TestServer,
} from '../test-support/test-server.js';
import { waitUntil } from '../test-support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';

const TOKEN = 'scrape-token-0123456789abcdef';

describe('Prometheus scraping the service', () => {
  let t: TestServer;
  let prometheus: PrometheusServer;
  let receiver: WebhookReceiver;
  let target: string;
  let redis: RedisServer;

  before(async () => {
    redis = await startRedis();
    t = await startTestServer({
      REDIS_URL: redis.url,
      METRICS_LISTEN: '127.0.0.1:0',
      METRICS_TOKEN: TOKEN,
      DNS_LISTEN: '127.0.0.1:0',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SEND_INTERVAL_MS: '50',
    });
    target = `127.0.0.1:${t.server.metrics!.address.port}`;
    receiver = await startWebhookReceiver();
    prometheus = await startPrometheus({ target, token: TOKEN });

    // traffic of every kind
    const { key } = await t.createKey();
    const hook = await t.request('POST', '/api/public/webhooks', { key, body: { url: receiver.url } });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    const registered = await t.request('POST', '/api/public/domain', {
      key,
      body: { domains: [{ domain: 'metrics-example.com', domainType: 'Transactional' }] },
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    for (let i = 0; i < 3; i++)
      await t.request('POST', '/api/public/domain/status', {
        key,
        body: { domains: ['metrics-example.com'] },
      });
    await t.request('GET', '/api/public/emails/em_unknown', { key });
    await sendToSandbox(t, key);
    const dns = t.server.dkim.responder!.address;
    await udpQuery(dns, query('dkim.provider.test', 'SOA'));
    await udpQuery(dns, query('nothing-here.dkim.provider.test', 'TXT'));
    await tcpQuery(dns, query('dkim.provider.test', 'NS'));
    await waitUntil('the webhook delivered', () => receiver.received.length > 0);
  });
  after(async () => {
    await prometheus?.stop();
    await receiver?.close();
    await t?.close();
    await redis?.stop();
  });

  /** The value of a PromQL query once Prometheus has scraped what it asks for. */
  const scraped = (promql: string, ok: (value: number) => boolean = (v) => v > 0) =>
    waitUntil(
      promql,
      async () => {
        const result = await prometheus.query(promql);
        return result.length > 0 && ok(result[0]!.value) ? result : undefined;
      },
      { timeoutMs: 30_000, seen: () => prometheus.query(promql) },
    );

  test('the target is up, scraped with the token', async () => {
    await scraped(`up{instance="${target}"}`, (v) => v === 1);
  });

  test('API requests by route pattern, method and code, with latency', async () => {
    await scraped(
      'http_requests_total{route="/api/public/domain/status",method="POST",code="200"}',
      (v) => v >= 3,
    );
    await scraped('http_requests_total{route="/api/public/domain",method="POST",code="200"}');
    // the id stays out of the label: the route's pattern is counted
    await scraped('http_requests_total{route="/api/public/emails/:id",method="GET",code=~"4.."}');
    await scraped(
      'http_request_duration_seconds_count{route="/api/public/domain/status",status_class="2xx"}',
    );
    assert.deepEqual(await prometheus.query('http_requests_total{route=~".*em_unknown.*"}'), []);
  });

  test('a verification check, a webhook delivery and a send', async () => {
    await scraped('sum(verification_checks_total)');
    await scraped('verification_check_duration_seconds_count');
    await scraped('webhook_delivery_attempts_total{outcome="delivered"}');
    await scraped('webhook_delivery_latency_seconds_count');
    await scraped('email_delivery_attempts_total{outcome="sent"}');
  });

  test('the queues and the SMTP sessions, read at scrape time', async () => {
    for (const gauge of [
      'verification_due_checks',
      'verification_oldest_due_age_seconds',
      'webhook_deliveries_pending',
      'webhook_oldest_due_age_seconds',
      'email_queue_recipients{state="queued"}',
      'email_queue_oldest_due_age_seconds',
      'dkim_keys_queued',
      'dkim_key_queue_oldest_age_seconds',
      'smtp_sessions{state="busy"}',
      'smtp_destinations{state="paused"}',
      'smtp_sessions_per_destination_max',
    ])
      await scraped(gauge, (v) => v >= 0);
  });

  test('DNS responder queries by transport, type and rcode, and its TCP connections', async () => {
    await scraped('dns_queries_total{transport="udp",qtype="SOA",rcode="NOERROR"}', (v) => v === 1);
    await scraped('dns_queries_total{transport="udp",qtype="TXT",rcode="NXDOMAIN"}', (v) => v === 1);
    await scraped('dns_queries_total{transport="tcp",qtype="NS",rcode="NOERROR"}', (v) => v === 1);
    await scraped('dns_tcp_connections_total{result="accepted"}', (v) => v >= 1);
    await scraped('dns_rate_limited_total{action="drop"}', (v) => v === 0);
  });

  test('Redis availability, and the database pool on PostgreSQL', async () => {
    await scraped('redis_up', (v) => v === 1);
    if (TEST_BACKEND === 'postgres') {
      await scraped('db_pool_connections{state="in_use"}', (v) => v >= 0);
      await scraped('db_pool_waiting_requests', (v) => v >= 0);
    } else assert.deepEqual(await prometheus.query('db_pool_connections'), []);
  });

  test('event-loop delay and process figures', async () => {
    await scraped('nodejs_eventloop_lag_p99_seconds', (v) => v >= 0);
    await scraped('process_resident_memory_bytes');
  });

  test('promtool check metrics passes on the exposition', async () => {
    const res = await fetch(`http://${target}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const exposition = await res.text();
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    assert.equal(lint.status, 0, `promtool check metrics:\n${lint.stdout}${lint.stderr}`);
  });
});
