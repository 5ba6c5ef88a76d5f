/**
 * Issue 33's sending attack as figures: one account, holding a verified domain, floods
 * `POST /api/public/emails` with the worst bodies the review found (two request loops, each in
 * a process of its own at nice 19), while this process measures what everyone else sees:
 * - another account's status p99, polled at a fixed 1,000 a second (target ≤ 2× quiet);
 * - the DKIM responder's UDP answer p99 and worst, queried 200 times a second for a key the
 *   service hosts (target ≤ 2× quiet and never above 100 ms): receivers fetch every customer's
 *   key there, so a stall fails their mail's DKIM;
 * - `/healthz`, asked every 20 ms (target never above 250 ms);
 * - the flood's own answers: none may be a 5xx.
 *
 * The bodies: 9.8 MB of `<p>` + `word <b>x</b> ` (over `MAX_EMAIL_BYTES`), the same at 4.9 MB
 * (under it: composed, html-to-text included), and 200,000 nested `<div>` (1 MB).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreeDnsPort, startBind } from '../src/test-support/bind.js';
import { loadInChild } from './abuse.bench.js';
import { verifiedDomain } from './sending.bench.js';
import { fmt, type LoadResult, poll, repoRoot, startService } from './support.js';

const run = promisify(execFile);

const DOMAIN = 'shop.customer.test';
const hostile = (bytes: number) => `<p>${'word <b>x</b> '.repeat(Math.floor(bytes / 14))}`;
const BODIES: [label: string, html: string][] = [
  ['9.8 MB of <b> runs (over MAX_EMAIL_BYTES)', hostile(9_800_000)],
  ['4.9 MB of <b> runs (composed)', hostile(4_900_000)],
  ['200,000 nested <div> (1 MB)', `${'<div>'.repeat(200_000)}x`],
];

interface Probe {
  p99: number;
  max: number;
  lost: number;
}

/**
 * The DKIM responder's and `/healthz`'s latencies for `seconds`, measured from a process of
 * their own (`latency-probe.mjs`), so that the status poller in this one does not delay them;
 * as root, at nice -10, so that the machine's load delays the measuring less than the measured.
 */
async function probe(dnsPort: number, keyName: string, url: string, seconds: number) {
  const command = [process.execPath, 'packages/server/bench/latency-probe.mjs'];
  const [file, ...args] = process.getuid?.() === 0 ? ['nice', '-n', '-10', ...command] : command;
  const { stdout } = await run(file!, args, {
    cwd: repoRoot,
    env: { ...process.env, DNS_PORT: String(dnsPort), NAME: keyName, URL: url, SECONDS: String(seconds) },
  });
  return JSON.parse(stdout) as { dns: Probe; health: number };
}

async function measure(service: { url: string; key: string }, dnsPort: number, keyName: string) {
  const [status, { dns, health }] = await Promise.all([
    poll({
      url: `${service.url}/api/public/domain/status`,
      method: 'POST',
      headers: { authorization: service.key, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: ['victim.bench.example'] }),
      rate: 1000,
      seconds: 5,
    }),
    probe(dnsPort, keyName, service.url, 5),
  ]);
  return { status, dns, health };
}

const line = (label: string, m: { status: LoadResult; dns: Probe; health: number }) =>
  `| ${label} | ${fmt(m.status.p99, 1)} ms | ${fmt(m.dns.p99, 1)} ms / ${fmt(m.dns.max, 1)} ms (${m.dns.lost} lost) | ${fmt(m.health, 1)} ms |`;

export async function sendFlood(): Promise<void> {
  const bind = await startBind({ zones: ['customer.test'] });
  const dnsPort = await findFreeDnsPort();
  const env: Record<string, string> = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-send-flood-')),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    DNS_RESOLVERS: bind.address,
    DKIM_PROVIDER_HOST: 'provider.test',
    DNS_LISTEN: `127.0.0.1:${dnsPort}`,
    // the probe asks one name 200 times a second from one address: not an attack to limit here
    DNS_RATE_LIMIT: '0',
    RATE_LIMIT_MAX: '100000000',
    MAX_EMAILS_PER_MINUTE: '1000000',
    SENDING_ENABLED: 'false',
    WEBHOOKS_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
  };
  try {
    // checked when asked, after its CNAMEs are published; the service then polls as usual
    const attackerKey = await verifiedDomain({ ...env, STATUS_CHECK_MAX_AGE_MS: '0' }, bind, DOMAIN);
    const service = await startService(env);
    try {
      await fetch(`${service.url}/api/public/domain`, {
        method: 'POST',
        headers: { authorization: service.key, 'content-type': 'application/json' },
        body: JSON.stringify({ domains: [{ domain: 'victim.bench.example', domainType: 'Transactional' }] }),
      });
      // a key the service hosts: the attacker domain's first selector
      const [registered] = (await (
        await fetch(`${service.url}/api/public/domain/status`, {
          method: 'POST',
          headers: { authorization: attackerKey, 'content-type': 'application/json' },
          body: JSON.stringify({ domains: [DOMAIN] }),
        })
      ).json()) as { data: { records: { type: string; value: string }[] } }[];
      const keyName = registered!.data.records.find((r) => r.type === 'CNAME')!.value;
      await measure(service, dnsPort, keyName); // warm-up
      const quiet = await measure(service, dnsPort, keyName);
      console.log(
        '\n### Sending flood from one account (issue 33): two loops at nice 19, each in its own process',
      );
      console.log(
        '| while | other account’s status p99 (1,000/s) | DKIM responder p99 / worst (200/s) | `/healthz` worst |',
      );
      console.log('|---|---|---|---|');
      console.log(line('quiet', quiet));
      let worst = { statusRatio: 0, dnsRatio: 0, dnsMax: 0, health: 0, server5xx: 0 };
      for (const [label, html] of BODIES) {
        const body = JSON.stringify({
          from: `Shop <orders@${DOMAIN}>`,
          to: ['someone@example.org'],
          subject: 'Hostile',
          html,
        });
        const loop = () =>
          loadInChild({
            url: `${service.url}/api/public/emails`,
            headers: { authorization: attackerKey, 'content-type': 'application/json' },
            body,
            connections: 1,
            duration: 9,
          });
        const flood = Promise.all([loop(), loop()]);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const busy = await measure(service, dnsPort, keyName);
        const [a, b] = await flood;
        const requests = a.requests + b.requests;
        const server5xx = a.server5xx + b.server5xx;
        console.log(
          line(
            `${label}: ${fmt(requests)} requests, ${fmt(a.non2xx + b.non2xx)} refused, ${server5xx} 5xx`,
            busy,
          ),
        );
        worst = {
          statusRatio: Math.max(worst.statusRatio, busy.status.p99 / quiet.status.p99),
          dnsRatio: Math.max(worst.dnsRatio, busy.dns.p99 / quiet.dns.p99),
          dnsMax: Math.max(worst.dnsMax, busy.dns.max),
          health: Math.max(worst.health, busy.health),
          server5xx: worst.server5xx + server5xx,
        };
      }
      const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');
      console.log(
        `\nworst: status p99 ${fmt(worst.statusRatio, 2)}× quiet (≤ 2×) ${verdict(worst.statusRatio <= 2)}; ` +
          `DKIM responder p99 ${fmt(worst.dnsRatio, 2)}× quiet (≤ 2×) ${verdict(worst.dnsRatio <= 2)}, worst ${fmt(worst.dnsMax, 1)} ms (≤ 100) ${verdict(worst.dnsMax <= 100)}; ` +
          `/healthz worst ${fmt(worst.health, 1)} ms (≤ 250) ${verdict(worst.health <= 250)}; 5xx: ${worst.server5xx} ${verdict(worst.server5xx === 0)}`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await bind.close();
  }
}
