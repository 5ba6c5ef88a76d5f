/**
 * What tracing costs (issue 39; target: nothing while it is off). For each case, a fresh server
 * process from `dist/`:
 *
 * - `before`: a build without the tracing code (`BENCH_BEFORE_DIST=<its packages/server/dist>`,
 *   e.g. a `git worktree` of the commit before, built with `tsc -p tsconfig.build.json`); left
 *   out when unset;
 * - `off`: this build without `OTEL_EXPORTER_OTLP_ENDPOINT`;
 * - `on`: this build sending every span (the default sampler) to an OTLP/HTTP sink in this
 *   process, which answers each export at once and counts its spans;
 * - `on, 10 % sampled`: the same with `OTEL_TRACES_SAMPLER=parentbased_traceidratio`, `_ARG=0.1`.
 *
 * Start-up: wall time from spawn to the "service ready" log line, and the process's CPU time
 * by then, median of `STARTS`. Status polls: throughput (autocannon, 10 connections, 5 s; the
 * median of `RUNS`, cases in reversed order every other run), and server CPU per poll over
 * 30,000 polls, which the ±40 % swings of this shared machine's throughput hardly move.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fmt, type LoadResult, load, repoRoot, startNode } from './support.js';

const RUNS = 5;
const STARTS = 7;
const POLLS_FOR_CPU = 30_000;
const DOMAIN = 'poll.bench.example';
const STATUS_BODY = JSON.stringify({ domains: [DOMAIN] });
const thisDist = path.join(repoRoot, 'packages/server/dist');

interface Case {
  name: string;
  dist: string;
  traced: boolean;
  /** `OTEL_TRACES_SAMPLER=parentbased_traceidratio` with this ratio; all when absent. */
  sampled?: number;
}

/** An OTLP/HTTP endpoint that accepts every export and counts the spans in it. */
async function otlpSink() {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      spans += body.split('"spanId"').length - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A process's CPU time so far (user + system), in ms, from `/proc/<pid>/stat` (10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function pin(pid: number, cpus: string): void {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  } catch {}
}

/** One start of the case's server: ms to "service ready", and the CPU ms it took by then. */
async function startOnce(c: Case, env: Record<string, string>): Promise<{ wallMs: number; cpuMs: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-tracing-'));
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [path.join(c.dist, 'main.js')], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const wallMs = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('"service ready"')) resolve(performance.now() - started);
      });
      child.on('exit', (code) => reject(new Error(`${c.name} exited with ${code} during start-up`)));
    });
    return { wallMs, cpuMs: cpuMs(child.pid!) };
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The case's server with a key and a registered domain, ready for polls. */
async function startPolled(c: Case, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-tracing-'));
  const serviceEnv = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '100000000',
    DNS_RESOLVERS: '127.0.0.1:9',
    ...env,
  };
  const proc = await startNode([path.join(c.dist, 'main.js')], serviceEnv);
  const created = execFileSync(
    process.execPath,
    [path.join(c.dist, 'cli/main.js'), 'keys', 'create', '--name', 'bench'],
    { cwd: repoRoot, env: { ...process.env, ...serviceEnv }, encoding: 'utf8' },
  );
  const key = created.trim().split('\n').at(-1)!;
  const headers = { authorization: key, 'content-type': 'application/json' };
  const registered = await fetch(`${proc.url}/api/public/domain`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domains: [{ domain: DOMAIN, domainType: 'Transactional' }] }),
  });
  if (registered.status !== 200) throw new Error(`${c.name}: registration failed`);
  return {
    ...proc,
    headers,
    stop: async () => {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runTracingBench(): Promise<void> {
  const before = process.env.BENCH_BEFORE_DIST;
  const cases: Case[] = [
    ...(before ? [{ name: 'before (no tracing code)', dist: path.resolve(before), traced: false }] : []),
    { name: 'off', dist: thisDist, traced: false },
    { name: 'on (every span sent)', dist: thisDist, traced: true },
    { name: 'on, 10 % sampled', dist: thisDist, traced: true, sampled: 0.1 },
  ];
  console.log(`\n## Tracing cost (SQLite; ${STARTS} starts and ${RUNS} poll runs of 5 s per case)`);
  const sink = await otlpSink();
  const envOf = (c: Case): Record<string, string> =>
    c.traced
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint,
          ...(c.sampled !== undefined && {
            OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
            OTEL_TRACES_SAMPLER_ARG: String(c.sampled),
          }),
        }
      : {};
  try {
    const starts = new Map(cases.map((c) => [c.name, [] as { wallMs: number; cpuMs: number }[]]));
    for (let i = 0; i < STARTS; i++) {
      const order = i % 2 === 0 ? cases : [...cases].reverse();
      for (const c of order) starts.get(c.name)!.push(await startOnce(c, envOf(c)));
    }
    console.log('  start-up to "service ready" (median; spread of wall time):');
    for (const c of cases) {
      const runs = starts.get(c.name)!;
      const walls = runs.map((r) => r.wallMs);
      console.log(
        `    ${c.name.padEnd(26)} ${fmt(median(walls))} ms wall (${fmt(Math.min(...walls))}–${fmt(Math.max(...walls))}), ${fmt(median(runs.map((r) => r.cpuMs)))} ms CPU`,
      );
    }

    const pinned = availableParallelism() >= 2;
    const rps = new Map(cases.map((c) => [c.name, [] as number[]]));
    const cpu = new Map(cases.map((c) => [c.name, [] as number[]]));
    for (let run = 0; run < RUNS; run++) {
      const servers: { c: Case; server: Awaited<ReturnType<typeof startPolled>> }[] = [];
      for (const c of cases) servers.push({ c, server: await startPolled(c, envOf(c)) });
      try {
        if (pinned) {
          for (const { server } of servers) pin(server.child.pid!, '0');
          pin(process.pid, '1');
        }
        const send = (server: Awaited<ReturnType<typeof startPolled>>, duration = 5, amount?: number) =>
          load({
            url: `${server.url}/api/public/domain/status`,
            method: 'POST',
            headers: server.headers,
            body: STATUS_BODY,
            connections: 10,
            ...(amount ? { amount } : { duration }),
          });
        for (const { server } of servers) await send(server, 2); // warm-up
        const order = run % 2 === 0 ? servers : [...servers].reverse();
        for (const { c, server } of order) {
          const result: LoadResult = await send(server);
          if (result.non2xx + result.errors > 0) throw new Error(`${c.name}: ${result.non2xx} non-2xx`);
          rps.get(c.name)!.push(result.rps);
        }
        for (const { c, server } of order) {
          const startCpu = cpuMs(server.child.pid!);
          const polls = await send(server, 0, POLLS_FOR_CPU);
          cpu.get(c.name)!.push((cpuMs(server.child.pid!) - startCpu) / polls.requests);
        }
      } finally {
        if (pinned) pin(process.pid, `0-${availableParallelism() - 1}`);
        for (const { server } of servers) await server.stop();
      }
    }
    console.log('  status polls (autocannon, 10 connections):');
    const off = { rps: median(rps.get('off')!), cpu: median(cpu.get('off')!) };
    for (const c of cases) {
      const r = rps.get(c.name)!;
      const perPoll = median(cpu.get(c.name)!);
      console.log(
        `    ${c.name.padEnd(26)} median ${fmt(median(r)).padStart(7)} req/s (${fmt(Math.min(...r))}–${fmt(Math.max(...r))}), ` +
          `${fmt(perPoll * 1000, 1)} µs server CPU per poll (${fmt(perPoll / off.cpu, 3)}× off)`,
      );
    }
    console.log(`  spans the sink received: ${fmt(sink.spans())}`);
  } finally {
    await sink.close();
  }
}
