/**
 * The DKIM zone's thread (started by `responder-thread.ts`): the zone publisher, with its own
 * database connection, and the UDP/TCP responder, on an event loop that no request handler,
 * job or composition shares. Receivers fetch every customer's key here; a frozen main thread
 * (issue 33: one 10 MB send held it for 20–40 s) must not make their mail fail DKIM.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DnsCounters } from '../metrics/dns-counters.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { openStore } from '../store/open.js';
import { KeyCache } from './key-cache.js';
import { startDnsResponder } from './responder.js';
import type { ResponderThreadData, ToResponder } from './responder-thread.js';
import { ZonePublisher } from './zone-publisher.js';

const port = parentPort!;
const data = (workerData as { data: ResponderThreadData }).data;

/** Errors as plain data: an Error instance does not cross threads whole. */
const plain = (error: unknown) =>
  error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
const log = (level: 'info' | 'warn' | 'error', obj: object, msg: string) =>
  port.postMessage({ type: 'log', level, obj, msg });

/** The serial's compare-and-set, asked of the main thread (SQLite: one writer per process). */
const serialAsked = new Map<number, { resolve: (serial: number) => void; reject: (error: Error) => void }>();
let nextSerialId = 0;
const serialOnMain = (zone: string, digest: string, now: number) =>
  new Promise<number>((resolve, reject) => {
    const id = nextSerialId++;
    serialAsked.set(id, { resolve, reject });
    port.postMessage({ type: 'serial-for', id, zone, digest, now });
  });

async function start() {
  const store = await openStore({ dataDir: data.dataDir, databaseUrl: data.databaseUrl, poolSize: 2 });
  const keys = new DkimKeyStore(store.db);
  const publisher = new ZonePublisher({
    keys,
    cache: new KeyCache({ keys, maxEntries: data.keyCacheSize }),
    // SQLite: this thread only reads; a write here could wait on the main thread's transaction
    // (blocking this loop up to the busy timeout) or make one of its transactions fail BUSY.
    ...(store.kind === 'sqlite' && { serialFor: serialOnMain }),
    zone: (({ extraTxt, extraMx, ...zone }) => ({
      ...zone,
      ...(extraTxt && { extraTxt: new Map(extraTxt) }),
      ...(extraMx && { extraMx: new Map(extraMx) }),
    }))(data.zone),
    secondaries: data.secondaries,
    notifySource: data.listen.host,
    onError: (error) => log('error', { err: plain(error) }, 'DKIM zone reload failed; retrying'),
    onNotified: (serial, acked) => {
      if (acked.length < data.secondaries.length) {
        const missing = data.secondaries.filter((s) => !acked.includes(s)).map((s) => `${s.host}:${s.port}`);
        log('warn', { serial, missing }, 'DKIM zone NOTIFY not acknowledged by every secondary');
      }
    },
  });
  try {
    await publisher.start();
    const allowed = new Set(data.secondaries.map((s) => s.host));
    const responder = await startDnsResponder({
      listen: data.listen,
      zone: () => publisher.current(),
      transferAllowed: (address) => allowed.has(address),
      tcp: data.tcp,
      udpBatch: data.udpBatch,
      responseRateLimit: data.rateLimit && { ...data.rateLimit, exempt: (address) => allowed.has(address) },
      cookieSecret: Buffer.from(data.cookieSecret, 'hex'),
      counters: new DnsCounters(data.counters),
    });
    return { store, publisher, responder };
  } catch (error) {
    await publisher.stop();
    await store.close();
    throw error;
  }
}

/** The running zone, once started: the questions and orders below need it. */
let running: Awaited<ReturnType<typeof start>> | undefined;

// Listening from the first moment: the start itself waits on the main thread's answers
// (`serial-set`), and a port with no listener would let this thread's loop run empty and end.
port.on('message', async (message: ToResponder) => {
  if (message.type === 'serial-set') {
    const asked = serialAsked.get(message.id);
    serialAsked.delete(message.id);
    if (message.error === undefined) asked?.resolve(message.serial);
    else asked?.reject(new Error(message.error));
    return;
  }
  // the main thread asks nothing before `ready`
  if (running === undefined) return;
  const { store, publisher, responder } = running;
  switch (message.type) {
    case 'nudge':
      publisher.nudge();
      break;
    case 'serves': {
      // what a resolver asking now would be answered: the key loaded first when not cached
      const zone = publisher.current();
      const name = `${message.token}.${zone.origin}`;
      if (zone.match(name).at === 'unknown') await zone.load(message.token);
      const match = publisher.current().match(name);
      const value = match.at === 'key' && match.strings.join('') === message.record;
      port.postMessage({ type: 'reply', id: message.id, value });
      break;
    }
    case 'serial':
      port.postMessage({ type: 'reply', id: message.id, value: publisher.current().serial });
      break;
    case 'close':
      await publisher.stop();
      await responder.close();
      await store.close();
      port.postMessage({ type: 'closed' });
      port.close();
      break;
  }
});

try {
  running = await start();
  const zone = running.publisher.current();
  port.postMessage({
    type: 'ready',
    address: running.responder.address,
    udp: running.responder.udp,
    origin: zone.origin,
    serial: zone.serial,
  });
} catch (error) {
  port.postMessage({
    type: 'failed',
    error: { ...plain(error), code: (error as NodeJS.ErrnoException).code },
  });
  port.close();
}
