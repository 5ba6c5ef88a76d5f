/**
 * Registration throughput and p99 on SQLite (issue 37: what the writer thread's round trips
 * cost a ~10-statement transaction), quicker to reach than the api bench's last line.
 *
 * `REGISTRATION_ROOTS="old=/tmp/a,new=/tmp/b"` compares builds (each a checkout whose
 * `packages/server/dist` is built), started alternately so that the machine's load falls on
 * both alike; by default the build of this checkout. `REGISTRATION_RUNS` (4), `_SECONDS` (5),
 * `_CONNECTIONS` (4); `REGISTRATION_PROFILE=dir` runs the servers under `--cpu-prof` (every
 * thread writes its own profile there on exit).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  eachBody,
  fmt,
  type LoadResult,
  load,
  median,
  newDomainBody,
  repoRoot,
  row,
  startNode,
} from './support.js';

/** The service of the checkout at `root`, on a fresh SQLite data directory, with a full key. */
async function startBuild(root: string, profileDir: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-registration-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    DNS_RESOLVERS: '127.0.0.1:9',
  };
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const proc = await startNode([...profile, path.join(root, 'packages/server/dist/main.js')], env);
  const created = execFileSync(
    process.execPath,
    [path.join(root, 'packages/server/dist/cli/main.js'), 'keys', 'create', '--name', 'bench'],
    { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return { ...proc, key: created.trim().split('\n').at(-1)! };
}

export async function runRegistrationBench(): Promise<void> {
  const builds = (process.env.REGISTRATION_ROOTS ?? `this=${repoRoot}`)
    .split(',')
    .map((pair) => pair.split('=') as [string, string]);
  const runs = Number(process.env.REGISTRATION_RUNS ?? 4);
  const seconds = Number(process.env.REGISTRATION_SECONDS ?? 5);
  const connections = Number(process.env.REGISTRATION_CONNECTIONS ?? 4);
  const profileDir = process.env.REGISTRATION_PROFILE;
  console.log(
    `\n## Registration (SQLite, 1 new domain a request, ${connections} connections, ${seconds} s, ${runs} runs per build, builds alternated)`,
  );
  const results = new Map(builds.map(([name]) => [name, [] as LoadResult[]]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? builds : [...builds].reverse();
    for (const [name, root] of order) {
      const service = await startBuild(root, profileDir);
      try {
        const options = {
          url: `${service.url}/api/public/domain`,
          method: 'POST' as const,
          headers: { authorization: service.key, 'content-type': 'application/json' },
          connections,
        };
        await load({ ...options, duration: 1, requests: eachBody(newDomainBody(`w${run}-`)) });
        const before = loadavg()[0]!;
        const result = await load({
          ...options,
          duration: seconds,
          requests: eachBody(newDomainBody(`r${run}-`)),
        });
        results.get(name)!.push(result);
        console.log(
          `${row(`${name} run ${run + 1}`, result)}   load ${fmt(before, 2)} → ${fmt(loadavg()[0]!, 2)}`,
        );
      } finally {
        await service.stop();
      }
    }
  }
  for (const [name, list] of results) {
    console.log(
      `${name.padEnd(10)} median ${fmt(median(list.map((r) => r.rps)))} req/s, p99 ${fmt(median(list.map((r) => r.p99)), 1)} ms`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRegistrationBench();
