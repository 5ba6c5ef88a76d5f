/**
 * Keeps this process's read caches in step with the other processes on PostgreSQL (issue 19):
 * one dedicated connection LISTENs on `CACHE_CHANNEL` and drops what each notification names,
 * so a key revoked or a domain deleted anywhere (another server, the CLI) is refused or gone
 * here within milliseconds instead of after `KEY_CACHE_TTL_MS` / `DOMAIN_CACHE_TTL_MS`.
 *
 * A process receives its own notifications too and drops the entries again: harmless, and it
 * also drops what a concurrent read may have cached between the writer's own invalidation and
 * its commit.
 *
 * Notifications sent while the connection is down are lost, so it reconnects (100 ms, then
 * doubling up to 5 s) and, once listening again, clears the caches. Until then the TTLs bound
 * how stale a cached read can be, as they always did.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { CACHE_CHANNEL, type CacheChange, parseCacheChange } from './cache-notifications.js';

/** What the listener keeps in step: `KyselyStore`'s caches. */
export interface NotifiedCaches {
  /** Drops the cached reads `change` made stale. */
  forget(change: CacheChange): void;
  /** Drops every cached read. */
  clearCaches(): void;
}

/** The listening connection's `application_name`, as `pg_stat_activity` shows it. */
export const LISTENER_NAME = 'service-cache-listener';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;

export class CacheListener {
  private client: pg.Client | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  /** The connection was lost and the warning is out; cleared once listening again. */
  private lost = false;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly caches: NotifiedCaches,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  ) {}

  /** Listens for changes on the database at `url`; rejects if the first connection fails. */
  static async start(
    url: string,
    caches: NotifiedCaches,
    log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  ): Promise<CacheListener> {
    const listener = new CacheListener(url, caches, log);
    await listener.listen();
    return listener;
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end();
  }

  private async listen(): Promise<void> {
    // loaded here: only a process on PostgreSQL listens
    const { default: postgres } = await import('pg');
    const client = new postgres.Client({
      connectionString: this.url,
      application_name: LISTENER_NAME,
      connectionTimeoutMillis: 5000,
      // A peer that vanished without closing (a cut network) is noticed by the kernel.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client.on('notification', (message) => {
      if (message.channel !== CACHE_CHANNEL) return;
      const change = parseCacheChange(message.payload ?? '');
      if (change === undefined) this.caches.clearCaches();
      else this.caches.forget(change);
    });
    client.on('error', () => this.dropped(client));
    client.on('end', () => this.dropped(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    // What changed while nobody listened went unannounced: nothing cached before now is trusted.
    this.caches.clearCaches();
  }

  private dropped(client: pg.Client): void {
    if (this.client !== client) return; // still connecting (listen() handles it) or replaced
    this.client = undefined;
    client.end().catch(() => {});
    if (!this.lost) {
      this.lost = true;
      this.log.warn(
        'the PostgreSQL connection for cache notifications was lost; reconnecting (cached reads expire by their TTL meanwhile)',
      );
    }
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed) return;
    this.retry = setTimeout(async () => {
      try {
        await this.listen();
      } catch {
        this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
        this.reconnect();
        return;
      }
      this.retryMs = FIRST_RETRY_MS;
      if (this.lost && !this.closed) {
        this.lost = false;
        this.log.info('cache notifications resumed; the caches were cleared');
      }
    }, this.retryMs);
  }
}
