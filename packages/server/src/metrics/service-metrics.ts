/**
 * The service's Prometheus metrics (issue 39): one registry per running server, the counters
 * that code paths increment, and the gauges read when Prometheus scrapes. Every metric is listed
 * in the README's "Metrics" table with what to alert on; label values come from small fixed sets
 * (route patterns, status codes, outcomes), never from a domain, address or id, so the number of
 * series does not grow with customers.
 */

import type { Kysely } from 'kysely';
import client from 'prom-client';
import type { SessionStats } from '../email/smtp-sessions.js';
import type { Database } from '../store/tables.js';
import { readBacklog } from './backlog.js';
import type { DnsCounters } from './dns-counters.js';

/** What the gauges read at scrape time; each part is optional (absent: its metrics are not shown). */
export interface MetricSources {
  db: Kysely<Database>;
  /** PostgreSQL's pool (`pg.Pool`); absent on SQLite, which has one connection and no wait. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number };
  /** The DKIM responder's shared counters; absent without `DNS_LISTEN`. */
  dns?: () => DnsCounters | undefined;
  /** The SMTP sessions the sender holds; absent when sending is off. */
  smtp?: () => SessionStats;
  /** Whether Redis is usable now; absent without `REDIS_URL`. */
  redisUp?: () => boolean;
}

/** Seconds; an HTTP request or a check. From 1 ms (a cached status poll) to 10 s (a DNS timeout). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from a webhook event to its delivery: retries stretch it to hours. */
const DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14_400, 86_400];

/**
 * prom-client's default metrics include three gauges named `…_total`
 * (`nodejs_active_handles_total` and its kin), which `promtool check metrics` rejects: a
 * `_total` name is for counters. The per-type gauges beside them say the same.
 */
const LINT_FAILING_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export class ServiceMetrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<'route' | 'method' | 'code'>;
  readonly httpDuration: client.Histogram<'route' | 'method' | 'status_class'>;
  readonly verificationChecks: client.Counter<'outcome'>;
  readonly verificationDuration: client.Histogram;
  readonly webhookAttempts: client.Counter<'outcome'>;
  readonly webhookLatency: client.Histogram;
  readonly emailAttempts: client.Counter<'outcome'>;
  private sources: MetricSources | undefined;

  constructor() {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    for (const name of LINT_FAILING_DEFAULTS) this.registry.removeSingleMetric(name);
    this.httpRequests = new client.Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered by the API, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'code'],
      registers,
    });
    this.httpDuration = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its answer, by route pattern, method and status class (2xx…5xx).',
      labelNames: ['route', 'method', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.verificationChecks = new client.Counter({
      name: 'verification_checks_total',
      help: "DNS verification checks run, by outcome: the domain's status after the check, or error.",
      labelNames: ['outcome'],
      registers,
    });
    this.verificationDuration = new client.Histogram({
      name: 'verification_check_duration_seconds',
      help: 'Time one verification check took (its DNS lookups and the save).',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.webhookAttempts = new client.Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts, by outcome: delivered, retry (failed, tried again later) or failed (given up).',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookLatency = new client.Histogram({
      name: 'webhook_delivery_latency_seconds',
      help: 'Time from a webhook event to its successful delivery.',
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.emailAttempts = new client.Counter({
      name: 'email_delivery_attempts_total',
      help: 'Delivery attempts to one recipient, by outcome: sent, deferred (tried again later), bounced or failed.',
      labelNames: ['outcome'],
      registers,
    });
    this.scrapeGauges(registers);
  }

  /** A verification check ended: `outcome` is the domain's status after it, or `error`. */
  readonly checked = (outcome: string, ms: number): void => {
    this.verificationChecks.inc({ outcome });
    this.verificationDuration.observe(ms / 1000);
  };

  /** A webhook attempt was recorded; a delivery's latency counts from its event. */
  readonly webhookAttempted = (outcome: string, sinceEventMs: number): void => {
    this.webhookAttempts.inc({ outcome });
    if (outcome === 'delivered') this.webhookLatency.observe(Math.max(0, sinceEventMs) / 1000);
  };

  /** A delivery attempt to one recipient was recorded. */
  readonly emailAttempted = (outcome: string): void => {
    this.emailAttempts.inc({ outcome });
  };

  /** What the scrape-time gauges read; set once the store (and the responder) exist. */
  readFrom(sources: MetricSources): void {
    this.sources = sources;
  }

  /** The exposition, in Prometheus' text format. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Gauges whose values are read when a scrape asks: the backlog once per scrape (the first
   * gauge's collect reads it, the others use the same reading), the pool, Redis and the DNS
   * thread's shared counters.
   */
  private scrapeGauges(registers: client.Registry[]): void {
    let reading: ReturnType<typeof readBacklog> | undefined;
    const backlog = () => {
      if (!this.sources) return undefined;
      // one reading per scrape: the gauges below are collected together
      reading ??= readBacklog(this.sources.db, Date.now()).finally(() => {
        setImmediate(() => {
          reading = undefined;
        });
      });
      return reading;
    };
    const fromBacklog = (
      name: string,
      help: string,
      value: (b: Awaited<ReturnType<typeof readBacklog>>) => number,
    ) =>
      new client.Gauge({
        name,
        help,
        registers,
        async collect() {
          const b = await backlog();
          if (b) this.set(value(b));
        },
      });
    fromBacklog(
      'verification_due_checks',
      'Domains whose verification check is due now (counted up to 100,000).',
      (b) => b.verificationDue,
    );
    fromBacklog(
      'verification_oldest_due_age_seconds',
      'How long the most overdue verification check has been due; 0 when none is.',
      (b) => b.verificationOldestDueSeconds,
    );
    fromBacklog(
      'webhook_deliveries_pending',
      'Webhook deliveries not yet delivered nor given up (counted up to 100,000).',
      (b) => b.webhookPending,
    );
    fromBacklog(
      'webhook_oldest_due_age_seconds',
      'How long the most overdue pending webhook delivery has been due; 0 when none is.',
      (b) => b.webhookOldestDueSeconds,
    );
    new client.Gauge({
      name: 'email_queue_recipients',
      help: 'Recipients in the sending queue by state: queued, scheduled, deferred, in_flight (counted up to 100,000).',
      labelNames: ['state'],
      registers,
      async collect() {
        const b = await backlog();
        if (!b) return;
        this.reset();
        // the usual states always present, so an alert sees 0 rather than no series
        for (const state of ['queued', 'deferred', 'in_flight'])
          this.set({ state }, b.emailQueue.get(state) ?? 0);
        for (const [state, n] of b.emailQueue) this.set({ state }, n);
      },
    });
    fromBacklog(
      'email_queue_oldest_due_age_seconds',
      'How long the most overdue recipient in the sending queue has been due; 0 when none is.',
      (b) => b.emailOldestDueSeconds,
    );
    fromBacklog(
      'dkim_keys_queued',
      'DKIM keys waiting to be generated (counted up to 100,000).',
      (b) => b.dkimKeysQueued,
    );
    fromBacklog(
      'dkim_key_queue_oldest_age_seconds',
      'How long the DKIM key next in line to be generated has waited since its domain was registered.',
      (b) => b.dkimKeysOldestSeconds,
    );
    const sources = () => this.sources;
    new client.Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state: in_use or idle (absent on SQLite).',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources()?.pool;
        if (!pool) return;
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new client.Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a PostgreSQL pool connection (absent on SQLite).',
      registers,
      collect() {
        const pool = sources()?.pool;
        if (pool) this.set(pool.waitingCount);
      },
    });
    new client.Gauge({
      name: 'redis_up',
      help: 'Whether Redis (REDIS_URL) is usable now: 1, or 0 while each process counts rate limits alone.',
      registers,
      collect() {
        const up = sources()?.redisUp;
        if (up) this.set(up() ? 1 : 0);
      },
    });
    this.smtpMetrics(registers);
    this.dnsMetrics(registers);
  }

  /** The sender's SMTP sessions in sum: a destination is never a label (MX hosts are unbounded). */
  private smtpMetrics(registers: client.Registry[]): void {
    const stats = () => this.sources?.smtp?.();
    new client.Gauge({
      name: 'smtp_sessions',
      help: 'SMTP sessions the sender holds to receiving servers, by state: busy (a transaction) or idle (kept for the next).',
      labelNames: ['state'],
      registers,
      collect() {
        const s = stats();
        if (!s) return;
        this.set({ state: 'busy' }, s.busy);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new client.Gauge({
      name: 'smtp_destinations',
      help: 'Receiving servers (address, port) by state: open (holding sessions) or paused (after failures in a row).',
      labelNames: ['state'],
      registers,
      collect() {
        const s = stats();
        if (!s) return;
        this.set({ state: 'open' }, s.destinations);
        this.set({ state: 'paused' }, s.paused);
      },
    });
    new client.Gauge({
      name: 'smtp_sessions_per_destination_max',
      help: 'The most SMTP sessions held to any one receiving server.',
      registers,
      collect() {
        const s = stats();
        if (s) this.set(s.mostPerDestination);
      },
    });
  }

  /** The responder thread's counters, copied from shared memory at scrape time. */
  private dnsMetrics(registers: client.Registry[]): void {
    const snapshot = () => this.sources?.dns?.()?.snapshot();
    new client.Counter({
      name: 'dns_queries_total',
      help: 'Queries the DKIM DNS responder answered, by transport, query type and response code.',
      labelNames: ['transport', 'qtype', 'rcode'],
      registers,
      collect() {
        const s = snapshot();
        if (!s) return;
        this.reset();
        for (const q of s.queries)
          this.inc({ transport: q.transport, qtype: q.qtype, rcode: q.rcode }, q.count);
      },
    });
    new client.Counter({
      name: 'dns_rate_limited_total',
      help: 'UDP answers held back by response rate limiting: dropped, or sent truncated (slip).',
      labelNames: ['action'],
      registers,
      collect() {
        const s = snapshot();
        if (!s) return;
        this.reset();
        this.inc({ action: 'drop' }, s.rateLimitDropped);
        this.inc({ action: 'slip' }, s.rateLimitSlipped);
      },
    });
    new client.Counter({
      name: 'dns_tcp_connections_total',
      help: 'TCP connections to the DKIM DNS responder, by result: accepted, or refused (per-client limit).',
      labelNames: ['result'],
      registers,
      collect() {
        const s = snapshot();
        if (!s) return;
        this.reset();
        this.inc({ result: 'accepted' }, s.tcpAccepted);
        this.inc({ result: 'refused' }, s.tcpRefused);
      },
    });
    new client.Gauge({
      name: 'dns_tcp_connections_open',
      help: 'TCP connections the DKIM DNS responder holds now.',
      registers,
      collect() {
        const s = snapshot();
        if (s) this.set(s.tcpOpen);
      },
    });
  }
}
