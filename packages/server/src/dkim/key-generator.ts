/**
 * The background key generator: it finds DKIM tokens that have no key and gives each one,
 * off the request path. Because it works from "tokens without keys" rather than from a queue,
 * a crash or restart never leaves a domain without keys: the next sweep finds them.
 *
 * It runs at start, when nudged (right after a registration commits), and on a slow timer
 * (registrations made by another process: the CLI, a sibling server on PostgreSQL). Key pairs
 * are generated `concurrency` at a time off the event loop: on the libuv thread pool by
 * default, on low-priority worker threads (`KeygenPool`) in the server.
 */
import type { DkimKeyStore } from '../store/dkim-key-store.js';
import { type DkimKeyPair, generateDkimKeyPair } from './key-pair.js';
import { seal } from './secret-box.js';

export interface KeyGeneratorOptions {
  keys: DkimKeyStore;
  /** Seals private keys (AES-256-GCM). */
  secretKey: Buffer;
  /** Key pairs generated at once. */
  concurrency: number;
  /** Called with the tokens whose keys were just stored, e.g. to republish the zone. */
  onKeys?: (tokens: string[]) => void;
  /** Called when a sweep fails (database down); the next sweep retries. */
  onError?: (error: unknown) => void;
  /** Interval of the safety sweep, ms (default 30 s). */
  sweepMs?: number;
  generate?: () => Promise<DkimKeyPair>;
  now?: () => number;
}

export class DkimKeyGenerator {
  private readonly generate: () => Promise<DkimKeyPair>;
  private readonly now: () => number;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  /** Keys generated and stored by this process since start. */
  generated = 0;

  constructor(private readonly options: KeyGeneratorOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
    }
    this.generate = options.generate ?? generateDkimKeyPair;
    this.now = options.now ?? Date.now;
  }

  /** Sweep now and then every `sweepMs`. */
  start(): void {
    this.stopped = false;
    this.nudge();
    this.timer = setInterval(() => this.nudge(), this.options.sweepMs ?? 30_000);
    this.timer.unref();
  }

  /** Look for tokens without keys soon (coalesced: a nudge during a sweep runs one more sweep). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) this.nudge();
      else for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves once a sweep has found no token without a key (for tests and benchmarks). */
  idle(): Promise<void> {
    if (!this.running) {
      this.nudge();
      if (!this.running) return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stop sweeping; resolves when the keys being generated are stored. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        for (;;) {
          if (this.stopped) return;
          const tokens = await this.options.keys.tokensWithoutKeys(this.options.concurrency * 4);
          if (tokens.length === 0) break;
          await this.fill(tokens);
        }
      } catch (error) {
        this.options.onError?.(error);
        return;
      }
    } while (this.again && !this.stopped);
  }

  /** Generate keys for `tokens`, `concurrency` at a time, storing each as soon as it exists. */
  private async fill(tokens: string[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < tokens.length && !this.stopped) {
        const token = tokens[next++]!;
        const pair = await this.generate();
        const inserted = await this.options.keys.insertKey({
          token,
          publicKey: pair.publicKey,
          privateKeyEnc: seal(this.options.secretKey, pair.privateKey, token),
          createdAt: this.now(),
        });
        pair.privateKey.fill(0);
        if (inserted) {
          this.generated += 1;
          this.options.onKeys?.([token]);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, tokens.length) }, worker));
  }
}
