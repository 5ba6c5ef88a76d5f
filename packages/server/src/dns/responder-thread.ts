/**
 * The DKIM zone served from a thread of its own (`responder-worker.ts`): the zone publisher and
 * the UDP/TCP responder run there, so that no request, job or message composition on the main
 * event loop can delay a receiver's key lookup (issue 33). This is the main thread's handle: it
 * passes nudges in, asks what the thread serves, and relays the thread's log lines.
 */
import type { Worker } from 'node:worker_threads';
import type { HostPort } from '../config.js';
import { moduleWorker } from '../threads/module-worker.js';
import type { TcpLimits } from './tcp-connections.js';
import type { ZoneContent } from './zone.js';

/** What the thread is started with: plain data, as `workerData` must be. */
export interface ResponderThreadData {
  /** Where the thread opens its own database connection (the server's `DATA_DIR`, `DATABASE_URL`). */
  dataDir: string;
  databaseUrl: string | undefined;
  zone: Omit<ZoneContent, 'serial' | 'keys' | 'extraTxt'> & {
    extraTxt?: [label: string, texts: string[]][];
  };
  secondaries: HostPort[];
  listen: HostPort;
  tcp: TcpLimits;
  rateLimit: { perSecond: number; slip: number } | false;
}

/** Messages to the thread. */
export type ToResponder =
  | { type: 'nudge' }
  | { type: 'serves'; id: number; token: string; record: string }
  | { type: 'serial'; id: number }
  | { type: 'close' };

/** Messages from the thread. */
type FromResponder =
  | { type: 'ready'; address: HostPort; origin: string; serial: number }
  | { type: 'failed'; error: { message: string; stack?: string; code?: string } }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; obj: object; msg: string }
  | { type: 'reply'; id: number; value: unknown }
  | { type: 'closed' };

/** Where the thread's log lines go; pino's `app.log` fits. */
export interface ResponderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ResponderThread {
  /** The bound address (the real port when `listen.port` was 0). */
  readonly address: HostPort;
  /** Something changed in the database: reload the zone soon (coalesced). */
  nudge(): void;
  /** Whether the zone served now answers `record` (the TXT text, joined) for `token`. */
  serves(token: string, record: string): Promise<boolean>;
  /** The served zone's SOA serial. */
  serial(): Promise<number>;
  close(): Promise<void>;
}

/** Start the thread; resolves once the zone is loaded and the sockets listen. */
export async function startResponderThread(
  data: ResponderThreadData,
  log: ResponderLog,
): Promise<ResponderThread> {
  const worker = moduleWorker(new URL('./responder-worker.js', import.meta.url), data, 'dkim-responder');
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let closed: Promise<void> | undefined;
  let ended = false;
  const ask = (message: { type: 'serves' | 'serial' } & Record<string, unknown>) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed || ended) return reject(new Error('the DKIM responder thread is not running'));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  // A question asked of a thread that ended is never answered: fail it instead of hanging.
  worker.once('exit', () => {
    ended = true;
    for (const { reject } of pending.values()) reject(new Error('the DKIM responder thread ended'));
    pending.clear();
  });
  const ready = await new Promise<{ address: HostPort; origin: string; serial: number }>(
    (resolve, reject) => {
      const onExit = (code: number) =>
        reject(new Error(`the DKIM responder thread exited (${code}) before it was ready`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.on('message', (message: FromResponder) => {
        switch (message.type) {
          case 'ready':
            worker.off('exit', onExit);
            resolve(message);
            break;
          case 'failed':
            reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
            break;
          case 'log':
            log[message.level](message.obj, message.msg);
            break;
          case 'reply':
            pending.get(message.id)?.resolve(message.value);
            pending.delete(message.id);
            break;
        }
      });
    },
  ).catch(async (error) => {
    await worker.terminate();
    throw error;
  });
  // An uncaught error in the thread ends it: say so, loudly (its answers stop).
  worker.on('error', (error) => log.error({ err: error }, 'DKIM responder thread failed'));
  log.info(
    { zone: ready.origin, listen: ready.address, serial: ready.serial },
    'DKIM DNS responder listening',
  );
  return {
    address: ready.address,
    nudge: () => {
      if (!closed && !ended) worker.postMessage({ type: 'nudge' } satisfies ToResponder);
    },
    serves: async (token, record) => (await ask({ type: 'serves', token, record })) as boolean,
    serial: async () => (await ask({ type: 'serial' })) as number,
    close: () => {
      closed ??= ended ? Promise.resolve() : stop(worker);
      return closed;
    },
  };
}

/** How long a closing thread has to end by itself. */
const STOP_GRACE_MS = 10_000;

/** Ask the thread to stop its sockets and database, and wait for it to end. */
async function stop(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'close' } satisfies ToResponder);
  // A thread that does not end by itself (something it opened still holds its loop) is ended.
  const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}
