/**
 * Issue 37's sending-API figures, on SQLite and on PostgreSQL (durable), on this machine's cores:
 * - batches of 100 messages accepted per second, and a batch's p99;
 * - messages with a 5 MB attachment accepted per second (`MAX_EMAIL_BYTES` raised to 8 MiB for
 *   them: 5 MB is 6.7 MB in base64);
 * - another account's status p99, polled at a fixed 200 a second, quiet and while the batches
 *   flood in (target: at most 2× quiet).
 *
 * The service runs in its own process with the worker off (nothing leaves); a verified Marketing
 * domain as in the sending bench (BIND for its CNAMEs). The flood is autocannon in this process,
 * 4 connections; the status poller is an open loop (`poll`), so a stall is charged to every
 * request that waited behind it.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { startBind } from '../src/test-support/bind.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { loadInChild } from './abuse.bench.js';
import { sendingBenchEnv, verifiedDomain } from './sending.bench.js';
import { benchBackends, eachBody, fmt, type LoadResult, load, poll, startNode } from './support.js';

const SECONDS = 10;
const BATCH = 100;
const ATTACHMENT_BYTES = 5_000_000;
const POLL_RATE = 200;

export async function runSendApiBench(): Promise<void> {
  console.log(
    `\n## Sending API: batches of ${BATCH}, ${ATTACHMENT_BYTES / 1e6} MB attachments, status p99 during a batch flood (${availableParallelism()} cores)`,
  );
  const bind = await startBind({ zones: ['customer.test'] });
  const postgres = await startPostgres({ durable: true });
  try {
    // BENCH_BACKEND=sqlite or postgresql: that one alone (before-and-after runs)
    const only = process.env.BENCH_BACKEND?.toLowerCase();
    for (const [label, databaseUrl] of await benchBackends(postgres)) {
      if (only !== undefined && only !== label.toLowerCase()) continue;
      const env = {
        ...sendingBenchEnv(databaseUrl, bind.address),
        MAX_EMAIL_BYTES: String(8 * 1024 * 1024),
        // the per-account composition budget is fairness between accounts, not capacity
        EMAIL_COMPOSE_BUDGET: '100000000',
      };
      const domain = `${label.toLowerCase()}.customer.test`;
      const key = await verifiedDomain(env, bind, domain);
      await measure(label, env, key, domain);
    }
  } finally {
    await postgres.stop();
    await bind.close();
  }
}

async function measure(label: string, env: Record<string, string>, key: string, domain: string) {
  // BENCH_CPU_PROF=<dir>: the service's CPU profile, written there when it stops
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const service = await startNode([...profile, '--import', 'tsx', 'packages/server/src/main.ts'], env);
  try {
    const headers = { authorization: key, 'content-type': 'application/json' };
    // Recipients never repeat, so no message is suppressed or deduplicated.
    let n = 0;
    const message = (extra: object = {}) => ({
      from: `Customer Shop <orders@${domain}>`,
      to: [`reader${n++}@recipient.test`],
      subject: 'Your order',
      html: '<h1>Thank you</h1><p>Your order <b>#1234</b> ships today.</p>',
      ...extra,
    });
    const batch = { url: `${service.url}/api/public/emails/batch`, method: 'POST' as const, headers };
    const batchBody = () => JSON.stringify({ emails: Array.from({ length: BATCH }, () => message()) });
    // The status of this account's own domain: what a dashboard polls while its sends go out.
    const status = {
      url: `${service.url}/api/public/domain/status`,
      method: 'POST',
      headers,
      body: JSON.stringify({ domains: [domain] }),
      rate: POLL_RATE,
      seconds: SECONDS,
    };
    await load({ ...batch, requests: eachBody(batchBody), duration: 1, connections: 4 }); // warm-up
    await poll({ ...status, seconds: 2 }); // warm-up
    const quiet = await poll(status);
    const batches = await load({
      ...batch,
      requests: eachBody(batchBody),
      duration: SECONDS,
      connections: 4,
    });
    // The flood from a process of its own at nice 19, as in the send-flood bench: its parsing
    // is the sender's machine's, not the cores the service and the poller share here.
    const [flood, busy] = await Promise.all([
      loadInChild({ url: batch.url, headers, body: batchBody(), connections: 4, duration: SECONDS }),
      poll(status),
    ]);
    const file = randomBytes(ATTACHMENT_BYTES).toString('base64');
    const attached = await load({
      url: `${service.url}/api/public/emails`,
      method: 'POST',
      headers,
      requests: eachBody(() =>
        JSON.stringify(
          message({
            attachments: [{ filename: 'report.pdf', content: file, contentType: 'application/pdf' }],
          }),
        ),
      ),
      duration: SECONDS,
      connections: 2,
    });
    const voided =
      flood.non2xx > 0 ||
      [quiet, batches, busy, attached].some((r: LoadResult) => r.non2xx > 0 || r.errors > 0);
    console.log(
      `${label}: batches of ${BATCH}: ${fmt(batches.rps, 1)} batches/s (${fmt(batches.rps * BATCH)} messages/s), batch p99 ${fmt(batches.p99)} ms`,
    );
    console.log(
      `${label}: ${ATTACHMENT_BYTES / 1e6} MB attachments: ${fmt(attached.rps, 1)} messages/s (${fmt((attached.rps * ATTACHMENT_BYTES) / 1e6, 1)} MB/s), p99 ${fmt(attached.p99)} ms`,
    );
    console.log(
      `${label}: status p99 at ${POLL_RATE}/s: quiet ${fmt(quiet.p99, 2)} ms, during a flood of ${fmt(flood.requests / SECONDS, 1)} batches/s ${fmt(busy.p99, 2)} ms: ${fmt(busy.p99 / quiet.p99, 2)}× quiet (target ≤ 2×)`,
    );
    if (voided) {
      const counts = Object.entries({ quiet, batches, busy, attached })
        .map(([name, r]) => `${name} ${r.non2xx} non-2xx, ${r.errors} errors`)
        .concat(`flood ${flood.non2xx} non-2xx`)
        .join('; ');
      const res = await fetch(`${service.url}/api/public/emails`, {
        method: 'POST',
        headers,
        body: JSON.stringify(message({ attachments: [{ filename: 'report.pdf', content: file }] })),
      });
      console.log(
        `${label}: VOID (${counts}); an attachment's send now answers ${res.status} ${(await res.text()).slice(0, 300)}`,
      );
    }
  } finally {
    await service.stop();
  }
}
