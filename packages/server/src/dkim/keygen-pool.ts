/**
 * Key pairs from a small pool of worker threads that run at the lowest CPU priority (nice 19),
 * so key generation uses only CPU nobody else wants: a burst of registrations queues hundreds
 * of RSA-2048 generations (~0.15 s of CPU each), and on a 2-core machine they must not slow
 * the event loop that answers requests. The libuv thread pool cannot do that: its threads
 * cannot be told apart from JavaScript, so they run at the event loop's priority.
 *
 * Each worker lowers its own thread's priority: on Linux the nice value is per thread and
 * `setpriority(PRIO_PROCESS, tid)` (Node's `os.setPriority`) applies to that thread alone. Where
 * the thread id cannot be found (no `/proc/thread-self`) the worker runs at normal priority.
 */
import { Worker } from 'node:worker_threads';
import { DKIM_KEY_BITS, type DkimKeyPair } from './key-pair.js';

/** Runs in each worker (CommonJS, evaluated from this string, so it needs no build step). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { generateKeyPairSync } = require('node:crypto');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {}
parentPort.on('message', (id) => {
  try {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: ${DKIM_KEY_BITS},
      publicExponent: 0x10001,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'der' },
    });
    parentPort.postMessage({ id, publicKey: pair.publicKey, privateKey: pair.privateKey });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Job {
  id: number;
  resolve(pair: DkimKeyPair): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
}

/** A fixed number of low-priority key generation threads, started on first use. */
export class KeygenPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  /**
   * `size` threads at most, each at niceness `nice` (19, the lowest priority, by default: a
   * machine kept busy by other work then generates keys only slowly, which is the trade).
   */
  constructor(
    private readonly size: number,
    private readonly nice = 19,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`pool size must be a positive integer, got ${size}`);
    if (!Number.isInteger(nice) || nice < 0 || nice > 19)
      throw new RangeError(`nice must be an integer from 0 to 19, got ${nice}`);
  }

  /** One RSA-2048 key pair, generated on a pool thread. */
  generate(): Promise<DkimKeyPair> {
    if (this.closed) return Promise.reject(new Error('the key generation pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, resolve, reject });
      this.dispatch();
    });
  }

  /** Stop the threads; queued and running generations reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the key generation pool is closed'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        slot.job?.reject(new Error('the key generation pool is closed'));
        await slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === undefined);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.postMessage(job.id);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { nice: this.nice } });
    // Idle workers must not keep the process alive; a running job keeps a promise pending anyway.
    worker.unref();
    const slot: Slot = { worker, job: undefined };
    worker.on(
      'message',
      (message: { id: number; publicKey?: Uint8Array; privateKey?: Uint8Array; error?: string }) => {
        const job = slot.job;
        if (!job || job.id !== message.id) return;
        slot.job = undefined;
        if (message.error !== undefined || !message.publicKey || !message.privateKey) {
          job.reject(new Error(`key generation failed: ${message.error ?? 'no key returned'}`));
        } else {
          job.resolve({
            publicKey: Buffer.from(message.publicKey).toString('base64'),
            privateKey: Buffer.from(
              message.privateKey.buffer,
              message.privateKey.byteOffset,
              message.privateKey.byteLength,
            ),
          });
        }
        this.dispatch();
      },
    );
    // A worker that dies fails its job and leaves the pool; the next job starts a new one.
    const drop = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index !== -1) this.slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = undefined;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`key generation thread exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }
}
