/**
 * Shared pieces of the server benchmarks: child processes for the measured servers (so
 * the load generator does not share their event loop), and autocannon runs.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { generateApiKey } from '../src/domain/api-key.js';
import type { RunningServer } from '../src/server.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Proc {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Start a Node HTTP server script on a free port and wait until `readyPath` answers. */
export async function startNode(
  args: string[],
  env: Record<string, string>,
  readyPath = '/healthz',
): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    // Logs go nowhere: reading them would cost the load generator CPU.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  child.on('exit', () => (exited = true));
  for (let attempt = 0; ; attempt++) {
    if (exited) throw new Error(`${args.join(' ')} exited during start-up`);
    try {
      if ((await fetch(url + readyPath)).ok) break;
    } catch {}
    if (attempt > 300) throw new Error(`${args.join(' ')} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The real service from `dist/` on a fresh SQLite data directory. */
export async function startService(
  env: Record<string, string> = {},
): Promise<Proc & { dataDir: string; key: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const serviceEnv = {
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    RATE_LIMIT_MAX: '100000000',
    // No DNS answers on this machine: checks fail at once (dns_error) unless a bench
    // passes its own BIND.
    DNS_RESOLVERS: '127.0.0.1:9',
    ...env,
  };
  const proc = await startNode(['packages/server/dist/main.js'], serviceEnv);
  const created = execFileSync(
    process.execPath,
    ['packages/server/dist/cli/main.js', 'keys', 'create', '--name', 'bench'],
    {
      cwd: repoRoot,
      env: { ...process.env, ...serviceEnv },
      encoding: 'utf8',
    },
  );
  return { ...proc, dataDir, key: created.trim().split('\n').at(-1)! };
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon `requests` that send `body(n)` as the n-th request's body (n counts from 0). */
export function eachBody(body: (n: number) => string): autocannon.Request[] {
  let n = 0;
  return [{ setupRequest: (req) => ({ ...req, body: body(n++) }) }];
}

/** A one-domain registration body for a name no earlier request used: `<prefix><n>.bench.example`. */
export const newDomainBody = (prefix: string) => (n: number) =>
  JSON.stringify({ domains: [{ domain: `${prefix}${n}.bench.example`, domainType: 'Marketing' }] });

/** A status body for one of `names`, in turn. */
export const statusBodyOf = (names: readonly string[]) => (n: number) =>
  JSON.stringify({ domains: [names[n % names.length]] });

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({
    duration: 5,
    connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
    ...options,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Requests at a fixed rate (an open loop, as real pollers send them, however slow the server
 * is), with latencies in microseconds counted from each request's scheduled time, so a server
 * that stalls is charged for the requests that waited behind the stall (no coordinated
 * omission). autocannon's closed loop measures throughput and rounds latencies to whole ms.
 */
export async function poll(options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The same body for every request, or one made for each. */
  body: string | (() => string);
  rate: number;
  seconds: number;
}): Promise<LoadResult> {
  const bodyOf = typeof options.body === 'string' ? () => options.body as string : options.body;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const one = (scheduled: number) =>
    new Promise<void>((resolve) => {
      const req = request(options.url, { method: options.method, headers: options.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - scheduled);
          if ((res.statusCode ?? 0) >= 300) non2xx++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(bodyOf());
    });
  const pending: Promise<void>[] = [];
  for (let sent = 0; sent < total; ) {
    const now = performance.now();
    while (sent < total && started + (sent * 1000) / options.rate <= now)
      pending.push(one(started + (sent++ * 1000) / options.rate));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: total,
    rps: total / ((performance.now() - started) / 1000),
    p50: at(0.5),
    p99: at(0.99),
    non2xx,
    errors,
  };
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function row(label: string, r: LoadResult): string {
  return `${label.padEnd(38)} ${fmt(r.rps).padStart(8)} req/s   p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(6)} ms   non-2xx ${r.non2xx}  errors ${r.errors}`;
}

/** A JSON call to a server at `url` with `key` that throws on a non-2xx answer; the `data`, or the whole body. */
export function callOf(server: { url: string }, key: string) {
  return async (method: string, route: string, body: unknown): Promise<any> => {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`${method} ${route}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json.data ?? json;
  };
}

/** A new full API key (new account) of an in-process server; returns the secret. */
export async function apiKey(server: Pick<RunningServer, 'store'>): Promise<string> {
  const generated = generateApiKey();
  await server.store.createApiKey({
    name: 'bench',
    keyHash: generated.hash,
    keyPrefix: generated.prefix,
    scopes: ['*'],
  });
  return generated.secret;
}

/**
 * The two backends a bench compares, each with its `DATABASE_URL`: SQLite (the default, none)
 * and a fresh database on `postgres`.
 */
export async function benchBackends(postgres: {
  createDatabase(): Promise<string>;
}): Promise<readonly (readonly [label: 'SQLite' | 'PostgreSQL', databaseUrl: string | undefined])[]> {
  return [
    ['SQLite', undefined],
    ['PostgreSQL', await postgres.createDatabase()],
  ];
}

/** The middle of `values` (the upper of the two middles for an even count); does not reorder them. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the median of no values');
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

/**
 * Queries per second dnsperf reaches against a DNS server on loopback `port`, 10 s of
 * `dir/queries.txt` from 4 clients with 200 outstanding each; with `clientCookie`, every query
 * carries that DNS cookie (RFC 7873).
 */
export function dnsperf(port: number, dir: string, clientCookie?: string, once = false): number {
  const out = execFileSync(
    'dnsperf',
    [
      ...(clientCookie === undefined ? [] : ['-E', `10:${clientCookie}`]),
      // once through the names, however long that takes (a cache's warm-up), instead of 10 s
      ...(once ? ['-n', '1'] : ['-l', '10']),
      '-s',
      '127.0.0.1',
      '-p',
      String(port),
      '-d',
      path.join(dir, 'queries.txt'),
      '-e',
      '-c',
      '4',
      '-q',
      '200',
    ],
    { encoding: 'utf8' },
  );
  const match = /Queries per second:\s+([\d.]+)/.exec(out);
  const lost = /Queries lost:\s+(\d+)/.exec(out)?.[1];
  if (!match) throw new Error(`dnsperf printed no rate:\n${out}`);
  if (lost && Number(lost) > 0) console.log(`(dnsperf lost ${lost} queries on port ${port})`);
  return Number(match[1]);
}

/**
 * A BIND 9 configuration for `named -c` in `dir`: authoritative only, on 127.0.0.1:`port`,
 * serving `zone` from `dir/zone.db`, logging nothing; the benches' yardstick beside our responder.
 */
export function namedConf(dir: string, port: number, zone: string): string {
  const q = (file: string) => JSON.stringify(path.join(dir, file));
  return `options {
  directory ${q('')}; pid-file ${q('named.pid')}; lock-file ${q('named.lock')};
  session-keyfile ${q('session.key')}; managed-keys-directory ${q('')};
  listen-on port ${port} { 127.0.0.1; }; listen-on-v6 { none; };
  recursion no; allow-query { 127.0.0.1; }; dnssec-validation no; notify no;
};
controls { };
logging { category default { null; }; };
zone "${zone}" { type primary; file "zone.db"; };
`;
}

/**
 * A line saying that the kernel's DAMON reclaims memory on this machine, or `undefined`. The VM
 * these figures come from runs one (kdamond samples page accesses every 500 ms and, every 5 s,
 * pages out page cache untouched for a minute): a latency tail measured beside it includes
 * its stalls, which come in bursts every 0.5 s and every 5 s.
 */
export function damonNote(root = '/sys/kernel/mm/damon/admin/kdamonds'): string | undefined {
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8').trim();
  let daemons: string[];
  try {
    daemons = readdirSync(root).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const running = daemons.filter((d) => {
    try {
      return read(`${d}/state`) === 'on';
    } catch {
      return false; // not ours to read (root's)
    }
  });
  if (running.length === 0) return undefined;
  const context = `${running[0]}/contexts/0`;
  const attribute = (file: string) => {
    try {
      return read(`${context}/${file}`);
    } catch {
      return '?';
    }
  };
  const ms = (us: string) => (us === '?' ? us : `${Number(us) / 1000} ms`);
  return (
    `note: the kernel's DAMON runs here (${running.length} kdamond, sampling every ` +
    `${ms(attribute('monitoring_attrs/intervals/sample_us'))}, scheme ${attribute('schemes/0/action')} ` +
    `every ${ms(attribute('monitoring_attrs/intervals/aggr_us'))}): latency tails include its stalls ` +
    `(off: echo off > ${root}/${running[0]}/state)`
  );
}
