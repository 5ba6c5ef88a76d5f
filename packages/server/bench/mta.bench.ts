/**
 * Issue 35's figure: the service's delivery against Postfix's, in the same run on this machine.
 *
 * 10,000 deliveries to 100 recipient domains whose MX records share 5 hosts: five `smtp-sink`
 * processes (Debian's postfix package) on loopback addresses, port 25, that take every message
 * and keep nothing.
 *
 * - **The service** (SQLite, then PostgreSQL): 200 messages of 50 recipients each, one per
 *   domain, are queued first (the API, worker off); a server with the worker on is then timed
 *   from its start until all 10,000 recipients are `sent`. Each copy is built for its recipient
 *   and DKIM-signed (RSA-2048), and the MX hosts come from BIND.
 * - **Postfix**: a private instance that relays the 100 domains to the same sinks (a transport
 *   map: no DNS, no signing) is fed the same 10,000 by `smtp-source` (100 runs of 100 messages
 *   of 2 KB, 10 runs at a time) and timed from the first submission until its log has 10,000
 *   `status=sent`. Its own submission is inside its time; the service's accept is not.
 *
 * Both use the same concurrency defaults (5 sessions per destination at first, up to 20) and
 * reuse sessions. Printed: deliveries per second, and the service's rate as a multiple of
 * Postfix's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import { startPostfix } from '../src/test-support/postfix.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { sendingBenchEnv, verifiedDomain } from './sending.bench.js';
import { benchBackends, callOf, fmt } from './support.js';

const DOMAINS = 100;
const HOSTS = 5;
const MESSAGES = 200;
const RECIPIENTS = 50;
const DELIVERIES = MESSAGES * RECIPIENTS;
const TIMEOUT_MS = 300_000;
const SINK_ADDRESSES = Array.from({ length: HOSTS }, (_, i) => `127.26.250.${i + 1}`);
const domainOf = (n: number) => `d${n}.recipient.test`;

export async function runMtaBench(): Promise<void> {
  console.log(
    `\n## Delivery against Postfix: ${fmt(DELIVERIES)} deliveries to ${DOMAINS} domains on ${HOSTS} MX hosts (smtp-sink), ${availableParallelism()} cores`,
  );
  const sinks = SINK_ADDRESSES.map(startSink);
  const bind = await startBind({ zones: ['recipient.test', 'customer.test'] });
  const postgres = await startPostgres({ durable: true });
  try {
    for (const [i, address] of SINK_ADDRESSES.entries())
      await bind.addRecord(`mx${i}.recipient.test`, 'A', address);
    for (let n = 0; n < DOMAINS; n++)
      await bind.addRecord(domainOf(n), 'MX', `10 mx${n % HOSTS}.recipient.test.`);
    const postfixRate = await postfixRun();
    for (const [label, databaseUrl] of await benchBackends(postgres)) {
      const rate = await serviceRun(label, databaseUrl, bind);
      console.log(`${label}: ${fmt(rate / postfixRate, 2)}× Postfix's rate`);
    }
  } finally {
    await postgres.stop();
    await bind.close();
    for (const sink of sinks) sink.kill('SIGTERM');
  }
}

/** An smtp-sink on `address`:25 that takes everything and keeps nothing. */
function startSink(address: string): ChildProcess {
  const sink = spawn('smtp-sink', ['-u', 'nobody', `${address}:25`, '256'], { stdio: 'ignore' });
  sink.on('error', (error) => console.log(`smtp-sink on ${address}: ${error.message}`));
  return sink;
}

async function serviceRun(label: string, databaseUrl: string | undefined, bind: BindServer): Promise<number> {
  const env = sendingBenchEnv(databaseUrl, bind.address);
  const domain = `${label.toLowerCase()}.customer.test`;
  const key = await verifiedDomain(env, bind, domain);
  const ids: string[] = [];
  const queueing = await startServer(loadConfig(env), { logger: false });
  try {
    const call = callOf(queueing, key);
    for (let m = 0; m < MESSAGES; m++) {
      const to = Array.from({ length: RECIPIENTS }, (_, k) => `u${m}-${k}@${domainOf((m + k) % DOMAINS)}`);
      const sent = await call('POST', '/api/public/emails', {
        from: `Shop <orders@${domain}>`,
        to,
        subject: 'Your order',
        html: '<h1>Thank you</h1><p>Your order <b>#1234</b> ships today.</p>',
      });
      ids.push(sent.id);
    }
  } finally {
    await queueing.close();
  }
  const started = performance.now();
  const worker = await startServer(
    loadConfig({ ...env, SENDING_ENABLED: 'true', SEND_INTERVAL_MS: '20', SEND_BATCH: '100' }),
    { logger: false },
  );
  let sent = 0;
  try {
    while (performance.now() - started < TIMEOUT_MS) {
      const row = await worker.store.db
        .selectFrom('email_recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'sent')
        .executeTakeFirst();
      sent = Number(row?.n ?? 0);
      if (sent >= DELIVERIES) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await worker.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = sent / seconds;
  console.log(
    `${label}: ${fmt(sent)} of ${fmt(DELIVERIES)} delivered in ${fmt(seconds, 2)} s (start-up included): ${fmt(rate)} deliveries/s`,
  );
  return rate;
}

async function postfixRun(): Promise<number> {
  const transports = Object.fromEntries(
    Array.from({ length: DOMAINS }, (_, n) => [domainOf(n), `smtp:[${SINK_ADDRESSES[n % HOSTS]}]:25`]),
  );
  const postfix = await startPostfix({
    domains: ['postfix-local.test'],
    relayDomains: Array.from({ length: DOMAINS }, (_, n) => domainOf(n)),
    transports,
  });
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < DOMAINS) {
          const n = next++;
          await run('smtp-source', [
            ...['-c', '-m', String(DELIVERIES / DOMAINS), '-s', '2', '-l', '2000'],
            ...['-f', 'sender@bench.test', '-t', `user@${domainOf(n)}`, `${postfix.address}:25`],
          ]);
        }
      }),
    );
    let sent = 0;
    while (performance.now() - started < TIMEOUT_MS) {
      sent = postfix.log().match(/ relay=\S+ .* status=sent /g)?.length ?? 0;
      if (sent >= DELIVERIES) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = sent / seconds;
    console.log(
      `Postfix: ${fmt(sent)} of ${fmt(DELIVERIES)} delivered in ${fmt(seconds, 2)} s (its submission by smtp-source included): ${fmt(rate)} deliveries/s`,
    );
    return rate;
  } finally {
    await postfix.close();
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}
