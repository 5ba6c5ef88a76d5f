/**
 * The DKIM zone served from a thread of its own (`responder-worker.ts`): the zone publisher and
 * the UDP/TCP responder run there, so that no request, job or message composition on the main
 * event loop can delay a receiver's key lookup (issue 33). This is the main thread's handle: it
 * passes nudges in, asks what the thread serves, and relays the thread's log lines.
 */
import type { Worker } from 'node:worker_threads';
import type { HostPort } from '../config.js';
import { DnsCounters } from '../metrics/dns-counters.js';
import { moduleWorker } from '../threads/module-worker.js';
import type { TcpLimits } from './tcp-connections.js';
import type { MxData, ZoneContent } from './zone.js';

/** What the thread is started with: plain data, as `workerData` must be. */
export interface ResponderThreadData {
  /** Where the thread opens its own database connection (the server's `DATA_DIR`, `DATABASE_URL`). */
  dataDir: string;
  databaseUrl: string | undefined;
  zone: Omit<ZoneContent, 'serial' | 'keys' | 'extraTxt' | 'extraMx'> & {
    extraTxt?: [label: string, texts: string[]][];
    extraMx?: [label: string, records: MxData[]][];
  };
  secondaries: HostPort[];
  listen: HostPort;
  /** Most key records held in memory (`DNS_KEY_CACHE_SIZE`, `key-cache.ts`). */
  keyCacheSize: number;
  /** `DNS_UDP_BATCH`: UDP through the native batch socket when it was built. */
  udpBatch: boolean;
  tcp: TcpLimits;
  rateLimit: { perSecond: number; slip: number } | false;
  /**
   * The DNS cookie secret, hex (`cookieSecret(SECRET_KEY)` from `cookie.ts`): the same in every
   * process, so a resolver's server cookie from one is valid at the others.
   */
  cookieSecret: string;
  /** The responder's counters (`metrics/dns-counters.ts`), shared with the main thread. */
  counters: SharedArrayBuffer;
}

/** Messages to the thread. */
export type ToResponder =
  | { type: 'nudge' }
  | { type: 'serves'; id: number; token: string; record: string }
  | { type: 'serial'; id: number }
  /** The answer to the thread's `serial-for`: the serial, or why it could not be set. */
  | { type: 'serial-set'; id: number; serial: number; error?: undefined }
  | { type: 'serial-set'; id: number; serial?: undefined; error: string }
  | { type: 'close' };

/** Messages from the thread. */
type FromResponder =
  | { type: 'ready'; address: HostPort; udp: 'batch' | 'dgram'; origin: string; serial: number }
  | { type: 'failed'; error: { message: string; stack?: string; code?: string } }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; obj: object; msg: string }
  | { type: 'reply'; id: number; value: unknown }
  /** The thread asks for the serial's compare-and-set (SQLite: the main thread's connection is the writer). */
  | { type: 'serial-for'; id: number; zone: string; digest: string; now: number }
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
  /** Queries, rate-limit decisions and TCP connections, counted by the thread (issue 39). */
  readonly counters: DnsCounters;
  close(): Promise<void>;
}

/** The serial's compare-and-set on the main thread's database connection (`DkimKeyStore#serialFor`). */
export type SerialFor = (zone: string, digest: string, now: number) => Promise<number>;

/** Start the thread; resolves once the zone is loaded and the sockets listen. */
export async function startResponderThread(
  data: ResponderThreadData,
  log: ResponderLog,
  serialFor: SerialFor,
): Promise<ResponderThread> {
  const thread = new ThreadHandle(data, log, serialFor);
  await thread.start();
  return thread;
}

/** How long a closing thread has to end by itself. */
const STOP_GRACE_MS = 10_000;
/** The first pause before a thread that died is started again; doubled up to the maximum. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;

/**
 * The handle behind {@link startResponderThread}. A thread that ends without being asked to (an
 * uncaught error in it) is started again on the same address, after a pause that doubles while
 * restarts keep failing: before the thread existed, such an error ended the process and its
 * supervisor restarted it; a thread that stayed dead would leave every key unanswered.
 */
class ThreadHandle implements ResponderThread {
  address: HostPort;
  readonly counters: DnsCounters;
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private closing: Promise<void> | undefined;
  private restartMs = RESTART_FIRST_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  /** A restart under way, which closing waits for. */
  private restarting: Promise<void> | undefined;

  constructor(
    private readonly data: ResponderThreadData,
    private readonly log: ResponderLog,
    private readonly serialFor: SerialFor,
  ) {
    this.address = data.listen;
    this.counters = new DnsCounters(data.counters);
  }

  /** Start a thread on `this.address`; resolves when it answers, rejects when it cannot start. */
  async start(): Promise<void> {
    const worker = moduleWorker(
      new URL('./responder-worker.js', import.meta.url),
      { ...this.data, listen: this.address } satisfies ResponderThreadData,
      'dkim-responder',
    );
    const ready = await new Promise<{
      address: HostPort;
      udp: 'batch' | 'dgram';
      origin: string;
      serial: number;
    }>((resolve, reject) => {
      const onExit = (code: number) =>
        reject(new Error(`the DKIM responder thread exited (${code}) before it was ready`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.on('message', (message: FromResponder) => {
        if (message.type === 'ready') {
          worker.off('exit', onExit);
          worker.off('error', reject);
          resolve(message);
        } else if (message.type === 'failed') {
          reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        } else this.onMessage(worker, message);
      });
    }).catch(async (error) => {
      await worker.terminate();
      throw error;
    });
    this.worker = worker;
    this.address = ready.address;
    this.restartMs = RESTART_FIRST_MS;
    worker.on('error', (error) => this.log.error({ err: error }, 'DKIM responder thread failed'));
    worker.once('exit', (code) => this.onExit(worker, code));
    this.log.info(
      { zone: ready.origin, listen: ready.address, udp: ready.udp, serial: ready.serial },
      'DKIM DNS responder listening',
    );
  }

  nudge(): void {
    if (!this.closing) this.worker?.postMessage({ type: 'nudge' } satisfies ToResponder);
  }

  async serves(token: string, record: string): Promise<boolean> {
    return (await this.ask({ type: 'serves', token, record })) as boolean;
  }

  async serial(): Promise<number> {
    return (await this.ask({ type: 'serial' })) as number;
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private ask(message: { type: 'serves' | 'serial' } & Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.closing || !this.worker) return reject(new Error('the DKIM responder thread is not running'));
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private onMessage(worker: Worker, message: FromResponder): void {
    switch (message.type) {
      case 'log':
        this.log[message.level](message.obj, message.msg);
        break;
      case 'reply':
        this.pending.get(message.id)?.resolve(message.value);
        this.pending.delete(message.id);
        break;
      case 'serial-for':
        this.serialFor(message.zone, message.digest, message.now).then(
          (serial) =>
            worker.postMessage({ type: 'serial-set', id: message.id, serial } satisfies ToResponder),
          (error: unknown) =>
            worker.postMessage({
              type: 'serial-set',
              id: message.id,
              error: error instanceof Error ? error.message : String(error),
            } satisfies ToResponder),
        );
        break;
    }
  }

  /** The thread ended: fail what it was asked, and start another unless we are closing. */
  private onExit(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = undefined;
    // a question asked of a thread that ended is never answered: fail it instead of hanging
    for (const { reject } of this.pending.values()) reject(new Error('the DKIM responder thread ended'));
    this.pending.clear();
    if (this.closing) return;
    this.log.error({ code, restartInMs: this.restartMs }, 'DKIM responder thread ended; starting it again');
    this.restartLater();
  }

  private restartLater(): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closing) return;
      this.restarting = this.start().then(
        () => {
          this.restarting = undefined;
        },
        (error: unknown) => {
          this.restarting = undefined;
          if (this.closing) return;
          this.log.error({ err: error }, 'DKIM responder thread could not start again; retrying');
          this.restartMs = Math.min(this.restartMs * 2, RESTART_MAX_MS);
          this.restartLater();
        },
      );
    }, this.restartMs);
    this.restartTimer.unref();
  }

  /** Ask the thread to stop its sockets and database, and wait for it to end. */
  private async stop(): Promise<void> {
    clearTimeout(this.restartTimer);
    await this.restarting;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToResponder);
    // A thread that does not end by itself (something it opened still holds its loop) is ended.
    const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
