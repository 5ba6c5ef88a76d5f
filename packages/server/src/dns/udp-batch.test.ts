/**
 * The responder's UDP in batches (native/udp-batch.c, built by `npm run build`) beside the same
 * responder on `dgram`: the same bytes for every kind of query, bursts longer than a batch each
 * answered to its own sender, IPv6, hostile datagrams, and closing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import dnsPacket from 'dns-packet';
import { decodeReply, query, udpExchange } from '../test-support/dns-client.js';
import { type DnsResponder, type DnsResponderOptions, startDnsResponder } from './responder.js';
import { nativeUdpBatch } from './udp-batch.js';
import { DkimZone } from './zone.js';

const ORIGIN = 'dkim.provider.test';
const TOKENS = Array.from({ length: 300 }, (_, i) => i.toString(16).padStart(32, '0'));
const zone = new DkimZone({
  origin: ORIGIN,
  serial: 42,
  nameServers: ['ns.provider.test'],
  soaContact: 'hostmaster.provider.test',
  ttl: 300,
  keys: TOKENS.map((token) => ({ token, publicKey: randomBytes(294).toString('base64') })),
});
const common: Omit<DnsResponderOptions, 'listen'> = {
  zone: () => zone,
  transferAllowed: () => false,
  // the same secret: a cookie either one makes, the other checks alike
  cookieSecret: randomBytes(16),
};
let batched: DnsResponder;
let plain: DnsResponder;
before(async () => {
  batched = await startDnsResponder({ ...common, listen: { host: '127.0.0.1', port: 0 } });
  plain = await startDnsResponder({ ...common, listen: { host: '127.0.0.1', port: 0 }, udpBatch: false });
});
after(async () => {
  await batched?.close();
  await plain?.close();
});

const keyName = (i: number) => `${TOKENS[i]}.${ORIGIN}`;
/**
 * The reply to `message`, or undefined when none comes within 3.5 s (sent at 0, 0.5 and 1.5 s).
 * The responders run in this process, which a loaded machine stalls: 1.2 s and two tries was too
 * short for an answer to come. A message dropped by both costs the whole wait.
 */
const ask = (responder: DnsResponder, message: Buffer) =>
  udpExchange(responder.address, message, { tries: 3, firstWaitMs: 500 });

test('npm run build made the batch socket on this machine (cc and Node headers are here)', () => {
  assert.ok(nativeUdpBatch(), 'dist/native/udp-batch.node is missing: run npm run build');
  assert.equal(batched.udp, 'batch');
  assert.equal(plain.udp, 'dgram');
});

test('every kind of query gets the same bytes from the batch socket as from dgram', async () => {
  const header = (id: number, flags: number, questions: number) => {
    const h = Buffer.alloc(12);
    h.writeUInt16BE(id, 0);
    h.writeUInt16BE(flags, 2);
    h.writeUInt16BE(questions, 4);
    return h;
  };
  const messages: [string, Buffer][] = [
    ['a key, EDNS 1232', dnsPacket.encode(query(keyName(1), 'TXT', { edns: 1232 }))],
    ['a key without EDNS (truncated)', dnsPacket.encode(query(keyName(2), 'TXT'))],
    ['a key in capitals', dnsPacket.encode(query(keyName(3).toUpperCase(), 'TXT', { edns: 1232 }))],
    ['a key asked for A', dnsPacket.encode(query(keyName(4), 'A', { edns: 1232 }))],
    ['the apex SOA', dnsPacket.encode(query(ORIGIN, 'SOA', { edns: 1232 }))],
    ['the apex NS', dnsPacket.encode(query(ORIGIN, 'NS'))],
    ['a name not held', dnsPacket.encode(query(`${'f'.repeat(32)}.${ORIGIN}`, 'TXT', { edns: 1232 }))],
    ['outside the zone', dnsPacket.encode(query('example.com', 'A'))],
    ['ANY at a key', dnsPacket.encode(query(keyName(5), 'ANY', { edns: 4096 }))],
    ['AXFR over UDP', dnsPacket.encode(query(ORIGIN, 'AXFR'))],
    ['a header alone', header(7, 0x0100, 0)],
    ['two questions claimed, none there', header(8, 0x0100, 2)],
    ['an UPDATE', header(9, 0x2800, 0)],
    ['a response (QR set)', header(10, 0x8000, 0)],
    ['five bytes', Buffer.from([1, 2, 3, 4, 5])],
  ];
  for (const [what, message] of messages) {
    const [fromBatch, fromPlain] = await Promise.all([ask(batched, message), ask(plain, message)]);
    assert.deepEqual(fromBatch, fromPlain, what);
  }
  // and the usual answer is one, whole
  const answer = decodeReply((await ask(batched, messages[0]![1]))!);
  assert.equal(answer.answers?.length, 1);
});

test('a burst longer than several batches: each query answered, to its own sender, with its own ID', async () => {
  const clients = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const socket = dgram.createSocket('udp4');
      socket.bind(0, '127.0.0.1');
      await once(socket, 'listening');
      return socket;
    }),
  );
  try {
    // 200 in all, sent before the responder (in this process) reads one: more than three batches
    // of 64, and fewer than the ~256 small datagrams a socket's default receive buffer (208 KB)
    // holds, past which the kernel drops them whoever reads
    const perClient = 40;
    const received = clients.map(() => new Map<number, string>());
    const done = Promise.all(
      clients.map(
        (socket, c) =>
          new Promise<void>((resolve) => {
            socket.on('message', (wire: Buffer) => {
              const reply = decodeReply(wire);
              received[c]!.set(reply.id!, reply.questions![0]!.name);
              if (received[c]!.size === perClient) resolve();
            });
          }),
      ),
    );
    for (let i = 0; i < perClient; i++)
      for (const [c, socket] of clients.entries()) {
        const k = c * perClient + i;
        socket.send(
          dnsPacket.encode(query(keyName(k), 'TXT', { id: 1000 + k, edns: 1232 })),
          batched.address.port,
          '127.0.0.1',
        );
      }
    // a hang guard far above the time 200 answers take on a loaded machine
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000).unref());
    assert.notEqual(
      await Promise.race([done, timeout]),
      'timeout',
      `answers to each client: ${received.map((r) => r.size).join(', ')}`,
    );
    for (const [c, answers] of received.entries())
      for (const [id, name] of answers) {
        const k = id - 1000;
        assert.equal(Math.floor(k / perClient), c, `answer ${id} reached the client that asked it`);
        assert.equal(name, keyName(k), `answer ${id} is to its own question`);
      }
  } finally {
    for (const socket of clients) socket.close();
  }
});

test('over IPv6 the answer is the one dgram gives', async () => {
  const options = { ...common, listen: { host: '::1', port: 0 } };
  const [six, sixPlain] = [
    await startDnsResponder(options),
    await startDnsResponder({ ...options, udpBatch: false }),
  ];
  try {
    const message = dnsPacket.encode(query(keyName(7), 'TXT', { edns: 1232 }));
    const exchange = (port: number) =>
      new Promise<Buffer>((resolve, reject) => {
        const socket = dgram.createSocket('udp6');
        // a hang guard: the responders run in this process, which a loaded machine can stall
        const timer = setTimeout(() => reject(new Error('no answer over IPv6 within 30 s')), 30_000);
        socket.on('message', (reply) => {
          clearTimeout(timer);
          socket.close();
          resolve(reply);
        });
        socket.send(message, port, '::1');
      });
    const [a, b] = await Promise.all([exchange(six.address.port), exchange(sixPlain.address.port)]);
    assert.deepEqual(a, b);
    assert.equal(decodeReply(a).answers?.length, 1);
  } finally {
    await six.close();
    await sixPlain.close();
  }
});

test('a datagram longer than a query can be is dropped, and the next query answered', async () => {
  const huge = Buffer.concat([dnsPacket.encode(query(keyName(9), 'TXT')), Buffer.alloc(5000)]);
  assert.equal(await udpExchange(batched.address, huge, { tries: 1, firstWaitMs: 300 }), undefined);
  const next = await ask(batched, dnsPacket.encode(query(keyName(9), 'TXT', { edns: 1232 })));
  assert.equal(decodeReply(next!).answers?.length, 1);
});

/** Binds UDP `port` on 127.0.0.1 and lets it go: throws if someone holds it. */
async function assertPortFree(port: number): Promise<void> {
  const socket = dgram.createSocket('udp4');
  socket.bind(port, '127.0.0.1');
  await once(socket, 'listening');
  socket.close();
}

test('closing frees the port at once', async () => {
  const responder = await startDnsResponder({ ...common, listen: { host: '127.0.0.1', port: 0 } });
  const { port } = responder.address;
  await responder.close();
  await assertPortFree(port);
});

test('a thread ended with its batch socket open leaves the process running and the port free', async () => {
  // The responder runs in a worker thread, which a crash or a stop can end with the socket open:
  // Node then closes the thread's loop, and aborted the whole process while the socket's handle
  // was still on it.
  const built = fileURLToPath(new URL('../../dist/native/udp-batch.node', import.meta.url));
  const worker = new Worker(
    `const native = require(${JSON.stringify(built)});
    const socket = native.open('127.0.0.1', 0, () => {});
    require('node:worker_threads').parentPort.postMessage(socket.port);`,
    { eval: true },
  );
  const [port] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  await assertPortFree(port);
});

test('a port in use is refused as dgram refuses it: bind EADDRINUSE, with its code', async () => {
  const holder = dgram.createSocket('udp4');
  holder.bind(0, '127.0.0.1');
  await once(holder, 'listening');
  const { port } = holder.address();
  try {
    for (const udpBatch of [true, false])
      await assert.rejects(startDnsResponder({ ...common, listen: { host: '127.0.0.1', port }, udpBatch }), {
        code: 'EADDRINUSE',
        message: `bind EADDRINUSE 127.0.0.1:${port}`,
      });
  } finally {
    holder.close();
  }
});

test('an exception while answering a batch still sends the answers written before it', async () => {
  // The module alone in a thread: its callback echoes each datagram, busy for 300 ms on `wait`
  // (so the next three arrive together, one batch), and throws on `boom`.
  const built = fileURLToPath(new URL('../../dist/native/udp-batch.node', import.meta.url));
  const worker = new Worker(
    `const native = require(${JSON.stringify(built)});
    const socket = native.open('127.0.0.1', 0, (count) => {
      const queries = Buffer.from(socket.queries);
      const senders = new Int32Array(socket.senders);
      const answers = Buffer.from(socket.answers);
      const lengths = new Int32Array(socket.lengths);
      for (let i = 0; i < count; i++) {
        const at = i * native.QUERY_SLOT;
        const text = queries.toString('latin1', at, at + senders[i * native.SENDER_INTS]);
        if (text === 'wait') for (const end = Date.now() + 300; Date.now() < end; );
        if (text === 'boom') throw new Error('boom');
        lengths[i] = answers.write(text, i * native.ANSWER_SLOT, 'latin1');
      }
    });
    require('node:worker_threads').parentPort.postMessage(socket.port);`,
    { eval: true },
  );
  const [port] = (await once(worker, 'message')) as [number];
  const client = dgram.createSocket('udp4');
  const echoes: string[] = [];
  client.on('message', (reply) => echoes.push(reply.toString('latin1')));
  client.bind(0, '127.0.0.1');
  await once(client, 'listening');
  try {
    client.send('wait', port, '127.0.0.1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const text of ['a', 'b', 'boom']) client.send(text, port, '127.0.0.1');
    const [error] = (await once(worker, 'error')) as [Error];
    assert.equal(error.message, 'boom');
    // the echoes were sent before the throw; the wait ends when they are read (a loaded machine
    // can stall this process for seconds between the error and reading them)
    const deadline = Date.now() + 30_000;
    while (echoes.length < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(echoes, ['wait', 'a', 'b']);
  } finally {
    client.close();
    await worker.terminate();
  }
});
