/**
 * Status polling against a bare Fastify route, and registration p99 (issues 2 and 19).
 *
 * Two baselines answer the same body bytes as our status route, in their own process: one
 * serialises the body on every request (Fastify's default for an object), the stricter one
 * sends a ready string. They run with the V8 setting our service sets for itself
 * (heap-tuning.ts), so neither side has an advantage the other lacks.
 *
 * Each of five runs starts both servers afresh: on this machine a process's speed varies from
 * one start to the next by up to a third (where the kernel places it, what V8 decides early),
 * and runs on one pair of processes would measure that pair's luck five times. In each run,
 * autocannon in this third process loads each target at 10 and 32 connections, 5 s each, in
 * turn; the median and the spread (lowest–highest) over the five runs are printed, and a run
 * with any non-2xx answer or error voids the comparison.
 *
 * Two placements: processes where the kernel puts them on the 2 cores (the load generator's
 * CPU is then shared with the server, so its cost of parsing each answer, 19 header lines for
 * ours and 5 for the bare routes, counts against the server), and the servers on CPU 0 with
 * the load generator on CPU 1 (`taskset`), which measures what one core of server answers.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import {
  eachBody,
  fmt,
  type LoadResult,
  load,
  newDomainBody,
  type Proc,
  row,
  startNode,
  startService,
} from './support.js';

const RUNS = 5;
const CONNECTIONS = [10, 32];
const OURS = 'status polling, 1 domain';
const BASELINES = ['bare route, object body', 'bare route, ready string'];
const STATUS_BODY = JSON.stringify({ domains: ['poll.bench.example'] });

/** Our service with one registered domain, and the bare routes answering its status body. */
interface Pair {
  processes: Proc[];
  headers: Record<string, string>;
  targets: Record<string, string>;
  sample: string;
}

async function startPair(): Promise<Pair> {
  const service = await startService();
  const headers = { authorization: service.key, 'content-type': 'application/json' };
  const registered = await fetch(`${service.url}/api/public/domain`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domains: [{ domain: 'poll.bench.example', domainType: 'Transactional' }] }),
  });
  if (registered.status !== 200) throw new Error('registration failed');
  const sample = await (
    await fetch(`${service.url}/api/public/domain/status`, { method: 'POST', headers, body: STATUS_BODY })
  ).text();
  const bare = await startNode(
    ['--no-allocation-site-pretenuring', '--import', 'tsx', 'packages/server/bench/bare-server.ts'],
    { BARE_BODY: sample },
  );
  return {
    processes: [service, bare],
    headers,
    sample,
    targets: {
      [BASELINES[0]!]: `${bare.url}/bare`,
      [BASELINES[1]!]: `${bare.url}/bare-string`,
      [OURS]: `${service.url}/api/public/domain/status`,
    },
  };
}

/** Pins every thread of `pid` to `cpus` (a `taskset` list such as `0` or `0-1`). */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** Why the pinned placement cannot run here, or undefined when it can. */
function cannotPin(): string | undefined {
  if (availableParallelism() < 2) return 'one CPU';
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'no taskset';
  }
}

async function measure(pinned: boolean): Promise<void> {
  const results = new Map(
    CONNECTIONS.map((c) => [c, new Map([...BASELINES, OURS].map((name) => [name, [] as LoadResult[]]))]),
  );
  const everyCpu = `0-${availableParallelism() - 1}`;
  for (let run = 0; run < RUNS; run++) {
    const pair = await startPair();
    if (run === 0) console.log(`response body: ${pair.sample.length} bytes`);
    try {
      if (pinned) {
        for (const p of pair.processes) pin(p.child.pid!, '0');
        pin(process.pid, '1');
      }
      const send = (url: string, connections: number, duration = 5) =>
        load({ url, method: 'POST', headers: pair.headers, body: STATUS_BODY, connections, duration });
      for (const url of Object.values(pair.targets)) await send(url, 10, 2); // warm-up
      for (const connections of CONNECTIONS)
        for (const [name, url] of Object.entries(pair.targets))
          results
            .get(connections)!
            .get(name)!
            .push(await send(url, connections));
    } finally {
      if (pinned) pin(process.pid, everyCpu);
      for (const p of pair.processes) await p.stop();
    }
  }
  for (const [connections, byTarget] of results) report(connections, byTarget);
}

export async function runApiBench(): Promise<void> {
  console.log(
    `\n## API (SQLite, one process; autocannon, ${RUNS} runs of 5 s at 10 and 32 connections, servers started afresh for each run)`,
  );
  console.log('\n### Processes where the kernel puts them (2 cores shared with the load generator)');
  await measure(false);
  const reason = cannotPin();
  console.log('\n### Servers on CPU 0, the load generator on CPU 1');
  if (reason === undefined) await measure(true);
  else console.log(`  skipped: ${reason}`);

  const service = await startService();
  try {
    const registration = await load({
      url: `${service.url}/api/public/domain`,
      method: 'POST',
      headers: { authorization: service.key, 'content-type': 'application/json' },
      connections: 4,
      requests: eachBody(newDomainBody(`r${Date.now()}-`)),
    });
    console.log(`\n${row('registration, 1 new domain, 4 conns', registration)}`);
    console.log(
      `registration p99: ${fmt(registration.p99, 1)} ms  (target ≤ 25 ms) ${registration.p99 <= 25 ? 'OK' : 'MISSED'}`,
    );
  } finally {
    await service.stop();
  }
}

function report(connections: number, results: Map<string, LoadResult[]>): void {
  const medians = new Map<string, number>();
  console.log(`\n${connections} connections:`);
  for (const [name, runs] of results) {
    const rps = runs.map((r) => r.rps).sort((a, b) => a - b);
    const median = rps[Math.floor(rps.length / 2)]!;
    medians.set(name, median);
    const failed = runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    const p99s = runs.map((r) => r.p99).sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(28)} median ${fmt(median).padStart(7)} req/s  spread ${fmt(rps[0]!)}–${fmt(rps.at(-1)!)}` +
        `  p99 ${fmt(p99s[Math.floor(p99s.length / 2)]!, 1)} ms${failed ? `  VOID: ${failed} non-2xx or errors` : ''}`,
    );
  }
  const ours = medians.get(OURS)!;
  for (const baseline of BASELINES) {
    const ratio = ours / medians.get(baseline)!;
    console.log(
      `  status polling / ${baseline}: ${fmt(ratio, 2)}×  (target ≥ 0.70×) ${ratio >= 0.7 ? 'OK' : 'MISSED'}`,
    );
  }
}
