/**
 * Tracking-host certificates against a real ACME server: pebble validates every tls-alpn-01
 * challenge by connecting to the listener these tests run (through a TCP forwarder on pebble's
 * `tlsPort`, so each test picks which process answers) and resolving the host with a private BIND.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import https from 'node:https';
import net from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { type BindServer, startBind } from '../test-support/bind.js';
import { type PebbleServer, startPebble } from '../test-support/pebble.js';
import { waitUntil } from '../test-support/wait.js';
import { TrackingCertificateError } from './certificate-errors.js';
import { type CertificateStore, memoryCertificateStore } from './certificate-storage.js';
import { TrackingCertificates, type TrackingCertificatesOptions } from './certificates.js';

const ZONE = 'customer.test';
/** Hosts with an A record to 127.0.0.1, where pebble finds our listener. */
const HOSTS = ['track', 'shared', 'many'].map((label) => `${label}.${ZONE}`);
/** Allowed, but with no A record: pebble's validation fails. */
const UNREACHABLE = `nowhere.${ZONE}`;
const DAY_MS = 86_400_000;

let dns: BindServer;
let pebble: PebbleServer;
let front: Forwarder;
let root: string;
const listeners: Listener[] = [];
/** What reached `onError` where a test expects nothing to. */
const unexpected: string[] = [];

afterEach(() => {
  const errors = unexpected.splice(0);
  assert.deepEqual(errors, [], 'errors reported to onError');
});

before(async () => {
  front = await startForwarder();
  dns = await startBind({ zones: [ZONE] });
  for (const host of HOSTS) await dns.addRecord(host, 'A', '127.0.0.1');
  pebble = await startPebble({ tlsPort: front.port, dnsServer: dns.address });
  root = await pebble.issuingRoot();
});

after(async () => {
  for (const listener of listeners) await listener.close();
  await front?.close();
  await pebble?.close();
  await dns?.close();
});

/** A TrackingCertificates for pebble; every option can be overridden. */
function certificates(options: Partial<TrackingCertificatesOptions> = {}): TrackingCertificates {
  return new TrackingCertificates({
    directoryUrl: pebble.directoryUrl,
    acmeServerCa: pebble.serverCa,
    store: memoryCertificateStore(),
    allowHost: async () => true,
    pollIntervalMs: 50,
    onError: (error, host) => unexpected.push(`${host}: ${(error as Error).stack}`),
    ...options,
  });
}

const newOrders = () => pebble.requests('POST', '/order-plz');

describe('issuing over tls-alpn-01', () => {
  const store = memoryCertificateStore();
  let first: TrackingCertificates;
  let firstListener: Listener;

  before(async () => {
    first = certificates({ store });
    firstListener = await listen(first);
    front.target = firstListener.port;
  });

  test('the first HTTPS request to a new host waits for its certificate, which chains to the CA', async () => {
    const orders = newOrders();
    const response = await get(firstListener.port, 'track.customer.test');
    assert.equal(response.body, 'tracked track.customer.test');
    assert.equal(response.authorized, true, 'verified against pebble root only');
    assert.equal(response.certificate.subjectAltName, 'DNS:track.customer.test');
    assert.equal(response.chainRoot, new X509Certificate(root).fingerprint256);
    assert.equal(newOrders(), orders + 1);
    // pebble's validation came in on our listener, over TLS 1.3, negotiating acme-tls/1
    assert.ok(firstListener.seen.some((s) => s.alpn === 'acme-tls/1' && s.protocol === 'TLSv1.3'));
    const stored = await store.getCertificate('track.customer.test');
    assert.equal(
      new X509Certificate(stored!.certificatePem).fingerprint256,
      response.certificate.fingerprint256,
    );
    assert.ok(stored!.expiresAt > Date.now() + 89 * DAY_MS, 'a 90-day certificate');
  });

  test('a second process sharing the store serves the same certificate without an order', async () => {
    const orders = newOrders();
    const other = await listen(certificates({ store }));
    const served = await handshake(other.port, 'track.customer.test');
    const stored = await store.getCertificate('track.customer.test');
    assert.equal(served.fingerprint256, new X509Certificate(stored!.certificatePem).fingerprint256);
    assert.equal(newOrders(), orders);
  });

  test('names are lowercased', async () => {
    const served = await handshake(firstListener.port, 'TRACK.Customer.TEST');
    assert.equal(served.subjectAltName, 'DNS:track.customer.test');
  });

  test('ensure() returns a stored certificate that is not due without ordering', async () => {
    const orders = newOrders();
    const again = await first.ensure('track.customer.test');
    assert.deepEqual(again, await store.getCertificate('track.customer.test'));
    assert.equal(newOrders(), orders);
  });

  test('an acme-tls/1 handshake for a host with no pending challenge fails, and orders nothing', async () => {
    const orders = newOrders();
    await assert.rejects(
      handshake(firstListener.port, 'track.customer.test', { ALPNProtocols: ['acme-tls/1'] }),
    );
    assert.equal(newOrders(), orders);
  });

  test('a challenge one process created is answered by another, from the store', async () => {
    const other = await listen(certificates({ store }));
    front.target = other.port;
    try {
      const certificate = await first.ensure('shared.customer.test');
      assert.match(new X509Certificate(certificate.certificatePem).subjectAltName!, /shared\.customer\.test/);
      assert.ok(other.seen.some((s) => s.alpn === 'acme-tls/1' && s.servername === 'shared.customer.test'));
      assert.equal(await store.getChallenge('shared.customer.test'), undefined, 'removed once done');
    } finally {
      front.target = firstListener.port;
    }
  });

  test('under TLS 1.2, where the certificate is chosen before ALPN, acme-tls/1 is refused and others are served', async () => {
    const old = await listen(first, { maxVersion: 'TLSv1.2' });
    await assert.rejects(
      handshake(old.port, 'track.customer.test', { ALPNProtocols: ['acme-tls/1'] }),
      /no application protocol/,
    );
    const served = await handshake(old.port, 'track.customer.test', { ALPNProtocols: ['http/1.1'] });
    assert.equal(served.subjectAltName, 'DNS:track.customer.test');
    assert.deepEqual(old.seen, [
      { servername: 'track.customer.test', alpn: 'http/1.1', protocol: 'TLSv1.2' },
    ]);
  });

  test('concurrent handshakes for a new host start one order, and all get its certificate', async () => {
    const orders = newOrders();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => get(firstListener.port, 'many.customer.test')),
    );
    assert.equal(newOrders(), orders + 1);
    assert.equal(new Set(responses.map((r) => r.certificate.fingerprint256)).size, 1);
  });

  test('a certificate with less than 30 days left keeps being served while it is renewed in the background', async () => {
    const before = await store.getCertificate('track.customer.test');
    const oldPrint = new X509Certificate(before!.certificatePem).fingerprint256;
    // this process lives 70 days later: 20 days are left
    let skew = 70 * DAY_MS;
    const later = certificates({ store, now: () => Date.now() + skew });
    const laterListener = await listen(later);
    front.target = laterListener.port;
    try {
      const orders = newOrders();
      assert.equal((await handshake(laterListener.port, 'track.customer.test')).fingerprint256, oldPrint);
      const renewed = await waitUntil('the renewed certificate in the store', async () => {
        assert.deepEqual(unexpected, []);
        const now = await store.getCertificate('track.customer.test');
        return now!.certificatePem !== before!.certificatePem && now;
      });
      assert.equal(newOrders(), orders + 1);
      skew = 0; // or the new certificate, 20 days from its end too by that clock, would be renewed as well
      const newPrint = new X509Certificate(renewed.certificatePem).fingerprint256;
      assert.equal((await handshake(laterListener.port, 'track.customer.test')).fingerprint256, newPrint);
    } finally {
      front.target = firstListener.port;
    }
  });

  test('the LRU keeps as many hosts as it is sized for and reads the others from the store', async () => {
    const reads: string[] = [];
    const counting: CertificateStore = {
      ...store,
      getCertificate: (host) => {
        reads.push(host);
        return store.getCertificate(host);
      },
    };
    const small = await listen(certificates({ store: counting, cacheSize: 1 }));
    await handshake(small.port, 'track.customer.test');
    await handshake(small.port, 'track.customer.test');
    assert.deepEqual(reads, ['track.customer.test']);
    await handshake(small.port, 'shared.customer.test');
    await handshake(small.port, 'track.customer.test');
    assert.deepEqual(reads.filter((h) => h === 'track.customer.test').length, 2, 'evicted, read again');
  });
});

describe('hosts that get no certificate', () => {
  let asked: string[];
  let errors: { error: unknown; host: string }[];
  let clock: number;
  let refusing: TrackingCertificates;
  let listener: Listener;

  before(async () => {
    asked = [];
    errors = [];
    clock = 0;
    refusing = certificates({
      allowHost: async (host) => {
        asked.push(host);
        return host !== 'refused.customer.test';
      },
      now: () => Date.now() + clock,
      onError: (error, host) => errors.push({ error, host }),
    });
    listener = await listen(refusing);
    front.target = listener.port;
  });

  test('a host allowHost refuses never reaches the CA, and the refusal is remembered', async () => {
    const requests = pebble.requests();
    await assert.rejects(handshake(listener.port, 'refused.customer.test'));
    await assert.rejects(handshake(listener.port, 'refused.customer.test'));
    assert.deepEqual(asked, ['refused.customer.test'], 'asked once, then remembered');
    // ensure() asks again: a warm-up comes right after the host's record was verified
    await assert.rejects(refusing.ensure('refused.customer.test'), code('TRACKING_HOST_REFUSED'));
    assert.equal(asked.length, 2);
    assert.equal(pebble.requests(), requests, 'no request at all to the CA');
    assert.deepEqual(errors, [], 'a refusal is no error');
  });

  test('names that are not DNS host names are refused without asking anyone', async () => {
    const requests = pebble.requests();
    asked.length = 0;
    for (const name of [
      'under_score.customer.test',
      'single',
      'a..b.test',
      '-lead.test',
      '10.0.0.1',
      `${'a'.repeat(64)}.test`,
    ]) {
      await assert.rejects(refusing.ensure(name), code('TRACKING_HOST_INVALID'), name);
    }
    await assert.rejects(handshake(listener.port, 'under_score.customer.test'));
    assert.deepEqual(asked, []);
    assert.equal(pebble.requests(), requests);
  });

  test('a failed order is reported and not retried for an hour, however many handshakes come', async () => {
    const orders = newOrders();
    await assert.rejects(handshake(listener.port, UNREACHABLE));
    assert.equal(newOrders(), orders + 1);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.host, UNREACHABLE);
    assert.equal((errors[0]!.error as TrackingCertificateError).code, 'TRACKING_ORDER_FAILED');

    await Promise.all(
      Array.from({ length: 20 }, () => assert.rejects(handshake(listener.port, UNREACHABLE))),
    );
    await assert.rejects(refusing.ensure(UNREACHABLE), code('TRACKING_ORDER_BACKOFF'));
    assert.equal(newOrders(), orders + 1, 'no new order within the hour');
    assert.equal(errors.length, 1, 'reported once');

    clock = 61 * 60_000;
    await assert.rejects(refusing.ensure(UNREACHABLE), code('TRACKING_ORDER_FAILED'));
    assert.equal(newOrders(), orders + 2, 'tried again after the hour');
  });

  test('a failing store or allowHost reaches onError with the host and fails only the handshake', async () => {
    const broken: string[] = [];
    const failing = await listen(
      certificates({
        store: {
          ...memoryCertificateStore(),
          getCertificate: async () => Promise.reject(new Error('database down')),
        },
        allowHost: async () => {
          throw new Error('allowHost down');
        },
        onError: (error, host) => broken.push(`${host}: ${(error as Error).message}`),
      }),
    );
    await assert.rejects(handshake(failing.port, 'track.customer.test'));
    const throwingAllow = await listen(
      certificates({
        allowHost: async () => {
          throw new Error('allowHost down');
        },
        onError: (error, host) => broken.push(`${host}: ${(error as Error).message}`),
      }),
    );
    await assert.rejects(handshake(throwingAllow.port, 'second.customer.test'));
    assert.deepEqual(broken, ['track.customer.test: database down', 'second.customer.test: allowHost down']);
  });
});

const code = (expected: string) => (error: unknown) => {
  assert.ok(error instanceof TrackingCertificateError, String(error));
  assert.equal(error.code, expected, error.message);
  return true;
};

/** An HTTPS listener with the module's options, as the service runs it; remembers each handshake. */
interface Listener {
  port: number;
  seen: { servername: string; alpn: string | false | null; protocol: string | null }[];
  close(): Promise<void>;
}

async function listen(
  certificates: TrackingCertificates,
  extra: https.ServerOptions = {},
): Promise<Listener> {
  const server = https.createServer({ ...certificates.serverOptions(), ...extra }, (request, response) => {
    response.end(`tracked ${(request.socket as tls.TLSSocket).servername}`);
  });
  const seen: Listener['seen'] = [];
  server.on('secureConnection', (socket: tls.TLSSocket) => {
    seen.push({
      servername: String(socket.servername),
      alpn: socket.alpnProtocol,
      protocol: socket.getProtocol(),
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const listener: Listener = {
    port: (server.address() as net.AddressInfo).port,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  listeners.push(listener);
  return listener;
}

/** A TLS handshake trusting only pebble's root; resolves with the certificate served. */
function handshake(
  port: number,
  servername: string,
  options: tls.ConnectionOptions = {},
): Promise<tls.DetailedPeerCertificate & { subjectAltName: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: root, ...options }, () => {
      const certificate = socket.getPeerCertificate(true);
      socket.destroy();
      resolve({ ...certificate, subjectAltName: certificate.subjectaltname ?? '' });
    });
    socket.setTimeout(30_000, () => socket.destroy(new Error('handshake timed out')));
    socket.on('error', reject);
  });
}

/** An HTTPS GET through the served certificate, verified against pebble's root only. */
function get(port: number, host: string) {
  return new Promise<{
    body: string;
    authorized: boolean;
    certificate: tls.DetailedPeerCertificate & { subjectAltName: string };
    chainRoot: string;
  }>((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, servername: host, headers: { host }, ca: root, agent: false },
      (response) => {
        const socket = response.socket as tls.TLSSocket;
        const certificate = socket.getPeerCertificate(true);
        let top: tls.DetailedPeerCertificate = certificate;
        while (top.issuerCertificate && top.issuerCertificate !== top) top = top.issuerCertificate;
        const chainRoot = new X509Certificate(top.raw).fingerprint256;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          resolve({
            body,
            authorized: socket.authorized,
            certificate: { ...certificate, subjectAltName: certificate.subjectaltname ?? '' },
            chainRoot,
          }),
        );
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('request timed out')));
    request.on('error', reject);
  });
}

/** pebble's `tlsPort`: a TCP forwarder to whichever listener `target` names, standing for a load balancer. */
interface Forwarder {
  port: number;
  target: number;
  close(): Promise<void>;
}

async function startForwarder(): Promise<Forwarder> {
  const sockets = new Set<net.Socket>();
  const forwarder: Forwarder = { port: 0, target: 0, close: async () => {} };
  const server = net.createServer((client) => {
    const upstream = net.connect(forwarder.target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  forwarder.port = (server.address() as net.AddressInfo).port;
  forwarder.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return forwarder;
}
