/**
 * The metrics listener (`METRICS_LISTEN`, issue 39) through its public faces: off unless asked
 * for, never on the API's port, a token asked of every scrape when `METRICS_TOKEN` is set, a
 * non-loopback address refused without one, and label values that do not grow with customers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../config.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

const TOKEN = 'listener-test-token-0123456789';

test('off by default: no listener, and the API port has no /metrics', async () => {
  const t = await startTestServer();
  try {
    assert.equal(t.server.metrics, undefined);
    const res = await fetch(`${t.url}/metrics`);
    assert.equal(res.status, 404);
    assert.doesNotMatch(await res.text(), /http_requests_total/);
  } finally {
    await t.close();
  }
});

test('a non-loopback METRICS_LISTEN needs METRICS_TOKEN; a short token is refused', () => {
  assert.throws(() => loadConfig({ METRICS_LISTEN: '0.0.0.0:9464' }), ConfigError);
  assert.throws(() => loadConfig({ METRICS_LISTEN: '127.0.0.1:9464', METRICS_TOKEN: 'short' }), ConfigError);
  assert.deepEqual(loadConfig({ METRICS_LISTEN: '0.0.0.0:9464', METRICS_TOKEN: TOKEN }).metrics, {
    listen: { host: '0.0.0.0', port: 9464 },
    token: TOKEN,
  });
  assert.deepEqual(loadConfig({ METRICS_LISTEN: '127.0.0.1:9464' }).metrics.token, undefined);
});

describe('with METRICS_LISTEN and METRICS_TOKEN', () => {
  let t: TestServer;
  let metricsUrl: string;

  before(async () => {
    t = await startTestServer({
      METRICS_LISTEN: '127.0.0.1:0',
      METRICS_TOKEN: TOKEN,
      // polls answer from the stored state at once: this test counts series, not checks
      STATUS_CHECK_WAIT_MS: '0',
      SCHEDULER_ENABLED: 'false',
    });
    metricsUrl = `http://127.0.0.1:${t.server.metrics!.address.port}/metrics`;
  });
  after(async () => {
    await t?.close();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  test('its own port, not the API’s; the API port still has no /metrics', async () => {
    assert.notEqual(t.server.metrics!.address.port, new URL(t.url).port);
    assert.equal((await fetch(`${t.url}/metrics`)).status, 404);
  });

  test('a scrape without the token, or with another, is refused', async () => {
    const none = await fetch(metricsUrl);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
    assert.doesNotMatch(await none.text(), /http_requests_total/);
    const wrong = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}x` } });
    assert.equal(wrong.status, 401);
    assert.equal((await fetch(metricsUrl.replace('/metrics', '/other'))).status, 404);
  });

  test('a thousand domains registered add no label value', async () => {
    const { key } = await t.createKey();
    const labelValues = (text: string) =>
      new Set(
        text
          .split('\n')
          .filter((line) => !line.startsWith('#') && line.includes('{'))
          .map((line) => line.slice(0, line.lastIndexOf('}') + 1)),
      );
    // one of each request first, so every series that traffic makes exists
    const register = (from: number) =>
      t.request('POST', '/api/public/domain', {
        key,
        body: {
          domains: Array.from({ length: 100 }, (_, i) => ({
            domain: `customer-${from + i}.example.com`,
            domainType: 'Transactional',
          })),
        },
      });
    const poll = (from: number) =>
      t.request('POST', '/api/public/domain/status', {
        key,
        body: { domains: Array.from({ length: 100 }, (_, i) => `customer-${from + i}.example.com`) },
      });
    assert.equal((await register(0)).status, 200);
    assert.equal((await poll(0)).status, 200);
    const before = labelValues(await scrape());
    for (let from = 100; from < 1100; from += 100) {
      assert.equal((await register(from)).status, 200);
      assert.equal((await poll(from)).status, 200);
    }
    const afterwards = await scrape();
    const added = [...labelValues(afterwards)].filter((series) => !before.has(series));
    // verification outcomes, the runtime's GC kinds and the kinds of its active resources
    // (a timer, a socket: a Timeout pending at one scrape and not the other, on a loaded
    // machine) may appear, all fixed sets; nothing names a domain, and no request series was
    // added by the 1,000 new names
    assert.deepEqual(
      added.filter((series) => !/^(verification_checks_total|nodejs_gc_|nodejs_active_)/.test(series)),
      [],
    );
    assert.doesNotMatch(afterwards, /customer-\d+/);
  });
});
