/**
 * The DKIM zone's thread (started by `responder-thread.ts`): the zone publisher, with its own
 * database connection, and the UDP/TCP responder, on an event loop that no request handler,
 * job or composition shares. Receivers fetch every customer's key here; a frozen main thread
 * (issue 33: one 10 MB send held it for 20–40 s) must not make their mail fail DKIM.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import { openStore } from '../store/open.js';
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

async function start() {
  const store = await openStore({ dataDir: data.dataDir, databaseUrl: data.databaseUrl, poolSize: 2 });
  const publisher = new ZonePublisher({
    keys: new DkimKeyStore(store.db),
    zone: (({ extraTxt, ...zone }) => ({ ...zone, ...(extraTxt && { extraTxt: new Map(extraTxt) }) }))(
      data.zone,
    ),
    secondaries: data.secondaries,
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
      responseRateLimit: data.rateLimit && { ...data.rateLimit, exempt: (address) => allowed.has(address) },
    });
    return { store, publisher, responder };
  } catch (error) {
    await publisher.stop();
    await store.close();
    throw error;
  }
}

try {
  const { store, publisher, responder } = await start();
  port.on('message', async (message: ToResponder) => {
    switch (message.type) {
      case 'nudge':
        publisher.nudge();
        break;
      case 'serves': {
        const zone = publisher.current();
        const match = zone.match(`${message.token}.${zone.origin}`);
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
  const zone = publisher.current();
  port.postMessage({ type: 'ready', address: responder.address, origin: zone.origin, serial: zone.serial });
} catch (error) {
  port.postMessage({
    type: 'failed',
    error: { ...plain(error), code: (error as NodeJS.ErrnoException).code },
  });
  port.close();
}
