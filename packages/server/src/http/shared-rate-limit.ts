/**
 * Per-key request counts shared by every server process through Redis (`REDIS_URL`, issue 19):
 * N processes behind a load balancer allow a key `RATE_LIMIT_MAX` requests per window in
 * total, not N times that.
 *
 * Each request is counted twice, by the rate-limit plugin's own stores: in Redis (one Lua
 * script: INCR, and PEXPIRE on the window's first request), whose count decides, and in this
 * process's memory, whose count decides while Redis does not answer. The plugin's
 * `skipOnError` would let every request through unlimited during an outage, and failing
 * requests would turn a Redis outage into an API outage; instead each process then applies the
 * limit on its own, as the service did before Redis. One warning is logged when Redis stops
 * answering and one line when it answers again, never one per request.
 *
 * No request waits for a Redis that is gone: with the offline queue off a command fails at once
 * while there is no connection, and a Redis that hangs (stopped, swapping, cut off) costs the
 * requests in flight at most `timeoutMs`, after which its socket is dropped and reconnected.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RedisConfig } from '../config.js';

// The plugin's own two counters. Its typings name only their interface, so their
// constructors are taken from the files its `redis` option and its default use.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  prefix: string,
) => FastifyRateLimitStore;
export const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => FastifyRateLimitStore;

/**
 * Prefix of the counters' Redis keys: `service:rate-limit:<api key id>`, or the client
 * address for the requests counted before authentication (CORS preflights).
 */
export const RATE_LIMIT_KEY_PREFIX = 'service:rate-limit:';

/** How long start-up waits for the first connection, and a reconnection attempt may take. */
const CONNECT_TIMEOUT_MS = 1000;

/**
 * The Redis connection behind the shared counts and whether it answers. Made without I/O;
 * {@link SharedRateLimit.connected} connects and waits for the first connection.
 *
 * @example
 * const shared = await SharedRateLimit.open({ url: 'redis://127.0.0.1:6379', timeoutMs: 200 });
 * await app.register(rateLimit, { store: shared.store(app.log), … });
 * await shared.connected();
 */
export class SharedRateLimit {
  private readonly redis: Redis;
  private log: FastifyBaseLogger | undefined;
  /** Redis stopped answering and the warning is out; cleared by its next answer. */
  private degraded = false;

  /** Loads the Redis client (only a process with `REDIS_URL` needs it) and makes the link. */
  static async open(config: RedisConfig): Promise<SharedRateLimit> {
    const { Redis } = await import('ioredis');
    return new SharedRateLimit(config, Redis);
  }

  private constructor(config: RedisConfig, Client: typeof Redis) {
    this.redis = new Client(config.url, {
      lazyConnect: true,
      // A request never waits for a connection: without one, its command fails at once.
      enableOfflineQueue: false,
      // A count that failed was made in this process instead; sent again later, it would
      // count the request twice.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: config.timeoutMs,
      // A hung server's socket is dropped once a reply is this late, so the next requests see
      // no connection (and count here at once) until a reconnection is ready.
      socketTimeout: config.timeoutMs,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Try again every second at most, so shared counting resumes within about a second.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      connectionName: 'service-rate-limit',
    });
    this.redis.on('ready', () => this.answered());
    // Every lost connection is followed by 'reconnecting'; closing it ourselves is not.
    this.redis.on('reconnecting', () => this.failed('the connection was lost'));
    this.redis.on('error', (error: Error) => this.failed(error.message));
  }

  /**
   * The plugin's `store` option: counts in Redis and in this process, logging Redis's
   * outages to `log`. Counts in this process alone until {@link SharedRateLimit.connected}.
   */
  store(log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
    this.log = log;
    const shared = this;
    return class extends SharedCounter {
      constructor(options: RateLimitOptions) {
        const continueExceeding = options.continueExceeding ?? false;
        const exponentialBackoff = options.exponentialBackoff ?? false;
        super(
          new RedisStore(continueExceeding, exponentialBackoff, shared.redis, RATE_LIMIT_KEY_PREFIX),
          new LocalStore(continueExceeding, exponentialBackoff),
          shared,
        );
      }
    };
  }

  /**
   * Connects, and resolves once the first connection is ready, has failed, or has taken
   * `CONNECT_TIMEOUT_MS`: the server starts either way, counting here while Redis is away.
   */
  async connected(): Promise<void> {
    if (this.redis.status === 'ready') return;
    // Connecting starts here, not while the app is built: building blocks the event loop for a
    // second or more on a loaded machine, and the connect timer then fired before the socket's
    // own "connected" event was read, logging an outage that never was (issue 41).
    if (this.redis.status === 'wait') this.redis.connect().catch(() => {}); // failures come as 'error' events
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      this.redis.once('ready', done).once('error', done);
    });
    if (!this.usable) this.failed(`no connection within ${CONNECT_TIMEOUT_MS} ms`);
  }

  /** Whether a count may be asked of Redis now. */
  get usable(): boolean {
    return this.redis.status === 'ready';
  }

  /** Redis answered: log its return after an outage. */
  answered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.log?.info('Redis answers again: rate limits are shared by every process again');
  }

  /** Redis did not answer: log it once per outage. */
  failed(reason: string): void {
    if (this.degraded) return;
    this.degraded = true;
    this.log?.warn(
      { reason },
      'Redis does not answer: each process counts rate limits on its own until it does',
    );
  }

  /** Closes the connection at once; nothing is waiting on it. */
  close(): void {
    this.redis.disconnect();
  }
}

/** Counts in Redis and in this process; Redis's count decides whenever it answers. */
class SharedCounter implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly link: SharedRateLimit,
  ) {}

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    // The local store answers synchronously and never fails.
    this.local.incr(
      key,
      (_error, local) => {
        if (!this.link.usable) return callback(null, local);
        this.shared.incr(
          key,
          (error, shared) => {
            if (error) {
              this.link.failed(error.message);
              return callback(null, local);
            }
            this.link.answered();
            callback(null, shared);
          },
          timeWindow,
          max,
        );
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new SharedCounter(this.shared.child(routeOptions), this.local.child(routeOptions), this.link);
  }
}
