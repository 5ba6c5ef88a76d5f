/** The hosted-DKIM settings of `loadConfig` (issue 4): defaults and precise errors. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

test('defaults: responder off, NS and SOA contact under the provider host, keygen on all cores but one', () => {
  const config = loadConfig({ DKIM_PROVIDER_HOST: 'mail.example.com' });
  assert.equal(config.dns.listen, undefined);
  assert.deepEqual(config.dns.secondaries, []);
  assert.deepEqual(config.dns.nameServers, ['ns.mail.example.com']);
  assert.equal(config.dns.soaContact, 'hostmaster.mail.example.com');
  assert.equal(config.dns.ttl, 300);
  assert.equal(config.dns.rateLimit, 20);
  assert.equal(config.dns.rateLimitSlip, 2);
  assert.equal(config.dns.tcpMaxConnections, 256);
  assert.equal(config.dns.tcpMaxPerClient, 16);
  assert.equal(config.dkim.secretKey, undefined);
  assert.equal(config.dkim.keygenConcurrency, Math.max(1, availableParallelism() - 1));
});

test('DNS_LISTEN, DNS_SECONDARIES and DNS_NS parse IPv4, IPv6 and default ports', () => {
  const config = loadConfig({
    DNS_LISTEN: '127.0.0.1:5300',
    DNS_SECONDARIES: '127.0.0.1:5301, 192.0.2.53,[2001:db8::53]:5353',
    DNS_NS: 'ns1.example.net,NS2.example.net.',
    DNS_SOA_CONTACT: 'dns-admin.example.net',
  });
  assert.deepEqual(config.dns.listen, { host: '127.0.0.1', port: 5300 });
  assert.deepEqual(config.dns.secondaries, [
    { host: '127.0.0.1', port: 5301 },
    { host: '192.0.2.53', port: 53 },
    { host: '2001:db8::53', port: 5353 },
  ]);
  assert.deepEqual(config.dns.nameServers, ['ns1.example.net', 'ns2.example.net']);
  assert.equal(config.dns.soaContact, 'dns-admin.example.net');
  assert.deepEqual(loadConfig({ DNS_LISTEN: '[::1]:53' }).dns.listen, { host: '::1', port: 53 });
});

test("the responder's abuse limits are read from DNS_RATE_LIMIT, DNS_RATE_LIMIT_SLIP and DNS_TCP_*", () => {
  const config = loadConfig({
    DNS_RATE_LIMIT: '0',
    DNS_RATE_LIMIT_SLIP: '3',
    DNS_TCP_MAX_CONNECTIONS: '1000',
    DNS_TCP_MAX_PER_CLIENT: '4',
  });
  assert.equal(config.dns.rateLimit, 0);
  assert.equal(config.dns.rateLimitSlip, 3);
  assert.equal(config.dns.tcpMaxConnections, 1000);
  assert.equal(config.dns.tcpMaxPerClient, 4);
  assert.throws(
    () => loadConfig({ DNS_RATE_LIMIT_SLIP: '11' }),
    /DNS_RATE_LIMIT_SLIP must be an integer from 0/,
  );
});

test('SECRET_KEY takes 32 bytes as hex or base64, and errors never echo it', () => {
  const key = randomBytes(32);
  assert.deepEqual(loadConfig({ SECRET_KEY: key.toString('hex') }).dkim.secretKey, key);
  assert.deepEqual(loadConfig({ SECRET_KEY: key.toString('base64') }).dkim.secretKey, key);
  const short = randomBytes(16).toString('hex');
  assert.throws(
    () => loadConfig({ SECRET_KEY: short }),
    (error: Error) =>
      error instanceof ConfigError &&
      /SECRET_KEY must be 32 bytes/.test(error.message) &&
      !error.message.includes(short),
  );
});

test('bad values name the variable', () => {
  for (const [name, value, pattern] of [
    ['DNS_LISTEN', '127.0.0.1', /DNS_LISTEN must be ip:port/],
    ['DNS_LISTEN', 'localhost:53', /DNS_LISTEN must be ip:port/],
    ['DNS_LISTEN', '127.0.0.1:70000', /DNS_LISTEN/],
    ['DNS_SECONDARIES', '127.0.0.1:53,nope', /DNS_SECONDARIES must be ip\[:port\]/],
    ['DNS_NS', 'ns1.example.net,,x', /DNS_NS must be comma-separated host names/],
    ['DNS_NS', 'bad_name', /DNS_NS must be a host name/],
    ['DNS_TTL', '0', /DNS_TTL must be an integer from 1/],
    ['DKIM_KEYGEN_CONCURRENCY', '0', /DKIM_KEYGEN_CONCURRENCY must be an integer from 1 to 64/],
    ['DKIM_KEYGEN_NICE', '20', /DKIM_KEYGEN_NICE must be an integer from 0 to 19/],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), pattern, `${name}=${value}`);
  }
});

test('DNS_UDP_BATCH: UDP in batches by default, dgram when false, anything else refused', () => {
  assert.equal(loadConfig({}).dns.udpBatch, true);
  assert.equal(loadConfig({ DNS_UDP_BATCH: 'false' }).dns.udpBatch, false);
  assert.throws(() => loadConfig({ DNS_UDP_BATCH: 'off' }), /DNS_UDP_BATCH must be true or false/);
});
