/**
 * Issue 21 figures: messages accepted per second (and the accept p99), and messages delivered
 * per second to Postfix, on this machine's 2 cores, on SQLite and on PostgreSQL (durable).
 *
 * The world of `src/sending.test.ts`, less the DKIM secondary and mailauth (signing happens
 * either way): BIND is the customer's DNS (the domain's three DKIM CNAMEs) and the recipients'
 * (the MX of recipient.test); a private Postfix is that MX, delivering into its Maildir. A
 * Marketing domain is registered, its keys generated and its CNAMEs published: verified.
 *
 * Accept: the service in its own process with `SENDING_ENABLED=false` (nothing leaves), and
 * autocannon in this one: 10 connections for 10 s of `POST /api/public/emails`, one recipient
 * and a small HTML body each, after status polls of the same domain for context. The rate
 * limits are raised out of the way; any non-2xx answer voids the run.
 * Delivery: what the accept run queued is set aside, 2,000 messages are queued, and a server
 * with the worker on (`SEND_INTERVAL_MS=20`, `SEND_BATCH` 20, then 100 over the same messages
 * made due again) is timed from its start until Postfix's Maildir holds them all, and the SMTP
 * sessions Postfix took for them are counted from its log. Postfix,
 * BIND, the worker and this process's Maildir polling share the same 2 cores.
 */
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import { type PostfixServer, startPostfix } from '../src/test-support/postfix.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { apiKey, benchBackends, callOf, eachBody, fmt, load, row, startNode } from './support.js';

const ACCEPT_SECONDS = 10;
const DELIVERIES = 2_000;
/** A delivery run that has not finished by then is reported as it stands. */
const DELIVERY_TIMEOUT_MS = 45_000;
const HTML = '<h1>Thank you</h1><p>Your order <b>#1234</b> ships today.</p>';

export async function runSendingBench(): Promise<void> {
  console.log(
    `\n## Sending: messages accepted per second, accept p99, and delivered per second to Postfix (${availableParallelism()} cores)`,
  );
  const bind = await startBind({ zones: ['customer.test', 'recipient.test'] });
  const mx = await startPostfix({ domains: ['recipient.test'] });
  const postgres = await startPostgres({ durable: true });
  try {
    // BIND refuses an MX whose host has no address yet.
    await bind.addRecord('mx.recipient.test', 'A', mx.address);
    await bind.addRecord('recipient.test', 'MX', '10 mx.recipient.test.');
    for (const [label, databaseUrl] of await benchBackends(postgres)) {
      const env: Record<string, string> = {
        ...sendingBenchEnv(databaseUrl, bind.address),
        SMTP_MX_PORT: String(mx.port),
        SMTP_TIMEOUT_MS: '10000',
      };
      const domain = `${label.toLowerCase()}.customer.test`;
      const key = await verifiedDomain(env, bind, domain);
      const message = (n: number) => ({
        from: `Customer Shop <orders@${domain}>`,
        to: [`reader${n}@recipient.test`],
        subject: 'Your order',
        html: HTML,
      });
      await accept(label, env, key, domain, message);
      await delivery(label, env, key, mx, message);
    }
  } finally {
    await postgres.stop();
    await mx.close();
    await bind.close();
  }
}

/**
 * A service for a sending bench: a fresh data directory (and `databaseUrl` when given), `dns`
 * as its resolver, limits out of the way, the worker off (a run turns it on), private MXes
 * allowed, and deferrals (a busy sink) retried within the run.
 */
export function sendingBenchEnv(databaseUrl: string | undefined, dns: string): Record<string, string> {
  return {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-sending-')),
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    DNS_RESOLVERS: dns,
    DKIM_PROVIDER_HOST: 'provider.test',
    RATE_LIMIT_MAX: '100000000',
    MAX_EMAILS_PER_MINUTE: '1000000',
    SCHEDULER_ENABLED: 'false',
    WEBHOOKS_ENABLED: 'false',
    SENDING_ENABLED: 'false',
    SMTP_ALLOW_PRIVATE_MX: 'true',
    SMTP_HELO_NAME: 'sender.test',
    SEND_RETRY_BASE_MS: '200',
    SEND_RETRY_MAX_DELAY_MS: '1000',
  };
}

/** Register `domain` as Marketing under a new key, publish its CNAMEs, and check it is verified; returns the key. */
export async function verifiedDomain(
  env: Record<string, string>,
  bind: BindServer,
  domain: string,
): Promise<string> {
  const server = await startServer(loadConfig(env), { logger: false });
  try {
    const key = await apiKey(server);
    const call = callOf(server, key);
    const [registered] = await call('POST', '/api/public/domain', {
      domains: [{ domain, domainType: 'Marketing' }],
    });
    // Keys first: a message signed before its key exists would be deferred.
    await server.dkim.generator.idle();
    for (const record of registered.data.records.filter((r: any) => r.type === 'CNAME'))
      await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    const [status] = await call('POST', '/api/public/domain/status', { domains: [domain] });
    if (status.data.status !== 'verified')
      throw new Error(`${domain} is ${status.data.status}, not verified: ${JSON.stringify(status.data)}`);
    return key;
  } finally {
    await server.close();
  }
}

async function accept(
  label: string,
  env: Record<string, string>,
  key: string,
  domain: string,
  message: (n: number) => object,
) {
  const service = await startNode(['--import', 'tsx', 'packages/server/src/main.ts'], env);
  try {
    const headers = { authorization: key, 'content-type': 'application/json' };
    const status = {
      url: `${service.url}/api/public/domain/status`,
      method: 'POST' as const,
      headers,
      body: JSON.stringify({ domains: [domain] }),
    };
    const emails = { url: `${service.url}/api/public/emails`, method: 'POST' as const, headers };
    // Recipients counted from a million on: the warm-up's and the run's never repeat.
    let n = 1_000_000;
    await load({ ...status, duration: 1 }); // warm-up
    const polls = await load(status);
    await load({ ...emails, requests: eachBody(() => JSON.stringify(message(n++))), duration: 1 }); // warm-up
    const accepted = await load({
      ...emails,
      requests: eachBody(() => JSON.stringify(message(n++))),
      duration: ACCEPT_SECONDS,
    });
    console.log(row(`${label} status poll, 1 domain`, polls));
    console.log(row(`${label} accept, 1 recipient`, accepted));
    if (accepted.non2xx > 0 || accepted.errors > 0 || polls.non2xx > 0 || polls.errors > 0) {
      const res = await fetch(emails.url, { method: 'POST', headers, body: JSON.stringify(message(0)) });
      console.log(
        `${label}: accept run VOID (non-2xx or errors); one more request answers ${res.status} ${(await res.text()).slice(0, 300)}`,
      );
      return;
    }
    console.log(
      `${label}: ${fmt(accepted.requests)} messages accepted in ${ACCEPT_SECONDS} s: ${fmt(accepted.rps)} accepted/s, accept p99 ${fmt(accepted.p99, 2)} ms (status polls: ${fmt(polls.rps)} req/s, accept/status ${fmt(accepted.rps / polls.rps, 2)}×)`,
    );
  } finally {
    await service.stop();
  }
}

async function delivery(
  label: string,
  env: Record<string, string>,
  key: string,
  mx: PostfixServer,
  message: (n: number) => object,
) {
  const ids: string[] = [];
  await withServer(env, async (server) => {
    // The accept run's messages are set aside: the worker is to find exactly DELIVERIES due.
    await server.store.db
      .updateTable('email_recipients')
      .set({ status: 'failed', next_attempt_at: null })
      .where('next_attempt_at', 'is not', null)
      .execute();
    const call = callOf(server, key);
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < DELIVERIES) ids.push((await call('POST', '/api/public/emails', message(next++))).id);
      }),
    );
  });
  for (const batch of ['20', '100']) {
    if (batch !== '20') {
      // The same messages each time, made due again.
      await withServer(env, (server) =>
        server.store.db
          .updateTable('email_recipients')
          .set({ status: 'queued', attempts: 0, next_attempt_at: Date.now(), claimed_until: null })
          .where('email_id', 'in', ids)
          .execute(),
      );
    }
    const before = await maildirCount(mx);
    const sessionsBefore = smtpSessions(mx);
    const startedAt = Date.now();
    const started = performance.now();
    const worker = await startServer(
      loadConfig({ ...env, SENDING_ENABLED: 'true', SEND_INTERVAL_MS: '20', SEND_BATCH: batch }),
      { logger: false },
    );
    let delivered = 0;
    while (performance.now() - started < DELIVERY_TIMEOUT_MS) {
      delivered = (await maildirCount(mx)) - before;
      if (delivered >= DELIVERIES) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const outcome = await outcomeOf(worker, ids, startedAt);
    await worker.close();
    const sessions = smtpSessions(mx) - sessionsBefore;
    console.log(
      `${label}, SEND_BATCH=${batch}: ${fmt(delivered)} of ${fmt(DELIVERIES)} messages in Postfix's Maildir after ${fmt(seconds, 2)} s (start-up included): ${fmt(delivered / seconds)} delivered/s`,
    );
    console.log(
      `${label}, SEND_BATCH=${batch}: recipients ${outcome.statuses}; ${fmt(outcome.deferrals)} deferred attempts; last 250 recorded at ${fmt(outcome.lastSentSeconds, 2)} s; ${fmt(sessions)} SMTP sessions (${fmt(sessions / Math.max(delivered, 1), 3)} per message)`,
    );
  }
}

/** What the worker recorded for `ids` since `since`: recipients by status, deferrals, the last `sent`. */
async function outcomeOf(server: RunningServer, ids: string[], since: number) {
  const db = server.store.db;
  const statuses = await db
    .selectFrom('email_recipients')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .where('email_id', 'in', ids)
    .groupBy('status')
    .execute();
  const events = await db
    .selectFrom('email_events')
    .select((eb) => ['type', eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('last')])
    .where('email_id', 'in', ids)
    .where('at', '>=', since)
    .groupBy('type')
    .execute();
  const sent = events.find((e) => e.type === 'sent');
  return {
    statuses: statuses.map((s) => `${s.status} ${fmt(Number(s.n))}`).join(', '),
    deferrals: Number(events.find((e) => e.type === 'deferred')?.n ?? 0),
    lastSentSeconds: sent ? (Number(sent.last) - since) / 1000 : Number.NaN,
  };
}

/** SMTP sessions Postfix's smtpd has taken so far (its `connect from` log lines). */
function smtpSessions(mx: PostfixServer): number {
  return mx.log().match(/postfix\/smtpd\[\d+\]: connect from /g)?.length ?? 0;
}

/** Files in Postfix's Maildir (`new` and `cur`): one per delivered copy. */
async function maildirCount(mx: PostfixServer): Promise<number> {
  let count = 0;
  for (const sub of ['new', 'cur'])
    count += (await readdir(path.join(mx.dir, 'mail', 'maildir', sub)).catch(() => [])).length;
  return count;
}

/** Run `fn` against a server of `env` (the worker off), then close it. */
async function withServer(env: Record<string, string>, fn: (server: RunningServer) => Promise<unknown>) {
  const server = await startServer(loadConfig(env), { logger: false });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}
