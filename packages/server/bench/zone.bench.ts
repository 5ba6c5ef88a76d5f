/**
 * Issue 39: the DKIM zone at scale, on PostgreSQL. Seeds BENCH_ZONE_DOMAINS domains' keys (three
 * each, default 1,000,000 domains) straight in SQL, then, for each server in BENCH_ZONE_ROOTS
 * (checkouts, comma-separated; this one by default, so an older build can be measured beside
 * it), BENCH_ZONE_ROUNDS times in turn, each from its build (`dist`, which `npm run bench`
 * makes first for this one) or, for a checkout without one, from source under `tsx`:
 * - start-up: from spawning the process to `/healthz` answering (the server waits for its DNS
 *   responder), on the seeded database and, for scale, on an empty one; and its RSS then;
 * - responder latency for random keys, cold (each name asked once, one at a time, just after
 *   start): p50, p99;
 * - queries/s with dnsperf over 100,000 random names of the zone, from cold, then warm against
 *   BIND 9 serving those names from a zone file (its `dkim.bench.ts` settings) and against
 *   `udp-floor.mjs`, the least a Node UDP answerer on `dgram` does per query (the ceiling the
 *   responder had before it read UDP in batches, `native/udp-batch.c`): the three in turn, BENCH_ZONE_PASSES times (3), each ratio taken within
 *   a pass and their medians printed.
 *
 * Seeded by `seed.ts` (as the scale bench's PostgreSQL): the domains of one account, verified,
 * with their four records each, and the keys; not their history. Every key is a copy of one
 * public key (real size); `changed_at` is spread 10 ms apart (BENCH_ZONE_SPREAD_MS), as keys
 * made over time are.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { dkimKeyRecord, txtStrings } from '../src/dns/key-record.js';
import { openStore } from '../src/store/open.js';
import { findFreeDnsPort } from '../src/test-support/bind.js';
import { startPostgres } from '../src/test-support/postgres.js';
import { seedDomains, tokenOf } from './seed.js';
import { dnsperf, fmt, freePort, median, namedConf, repoRoot } from './support.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

const ORIGIN = 'dkim.provider.bench';
const PUBLIC_KEY = randomBytes(294).toString('base64');
/** How far apart the seeded keys' `changed_at` are (BENCH_ZONE_SPREAD_MS, ms). */
const SPREAD_MS = Number(process.env.BENCH_ZONE_SPREAD_MS ?? 10);
/** Key i of the zone: domain i / 3's DKIM record at position i % 3. */
const token = (i: number) => tokenOf(Math.floor(i / 3), i % 3);
/** Passes of responder, BIND and Node's dgram floor in turn, warm (BENCH_ZONE_PASSES). */
const PASSES = Number(process.env.BENCH_ZONE_PASSES ?? 3);
if (!Number.isInteger(PASSES) || PASSES < 1)
  throw new RangeError(`BENCH_ZONE_PASSES is a whole number ≥ 1, not ${PASSES}`);

export async function runZoneBench(): Promise<void> {
  const domains = Number(process.env.BENCH_ZONE_DOMAINS ?? 1_000_000);
  const keys = domains * 3;
  const roots = (process.env.BENCH_ZONE_ROOTS ?? repoRoot).split(',');
  const rounds = Number(process.env.BENCH_ZONE_ROUNDS ?? 1);
  console.log(`\n## The DKIM zone at ${fmt(domains)} domains (${fmt(keys)} keys), PostgreSQL`);
  const postgres = await startPostgres({ durable: false });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-zone-'));
  try {
    const empty = await postgres.createDatabase();
    await migrate(dataDir, empty);
    const databaseUrl = await postgres.createDatabase();
    const accountId = await migrate(dataDir, databaseUrl);
    const t = performance.now();
    await seedDomains(databaseUrl, accountId, domains, {
      publicKey: PUBLIC_KEY,
      privateKeyEnc: 'sealed'.repeat(300),
      verified: true,
      keySpreadMs: SPREAD_MS,
    });
    console.log(`seeded in SQL in ${fmt((performance.now() - t) / 1000, 1)} s`);
    // alternated, so that neither build always runs on the warmer cache
    for (let round = 0; round < rounds; round++)
      for (const root of roots) await measure(root, dataDir, empty, databaseUrl, keys);
  } finally {
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  root: string,
  dataDir: string,
  empty: string,
  databaseUrl: string,
  keys: number,
): Promise<void> {
  console.log(
    `\n### the server at ${root} (${serverArgs(root).length === 1 ? 'its build' : 'from source, under tsx'})`,
  );
  const emptyStart = await startServer(root, dataDir, empty);
  console.log(`empty database:  start ${fmt(emptyStart.seconds, 2)} s, RSS ${fmt(emptyStart.rssMb)} MB`);
  await emptyStart.stop();
  const server = await startServer(root, dataDir, databaseUrl);
  try {
    console.log(`${fmt(keys)} keys: start ${fmt(server.seconds, 2)} s, RSS ${fmt(server.rssMb)} MB`);
    const cold = await coldLatency(server.dnsPort, keys, 2_000);
    console.log(
      `responder, random keys cold (2,000 names, one at a time): p50 ${fmt(cold.p50, 2)} ms, p99 ${fmt(cold.p99, 2)} ms, ${cold.wrong} wrong`,
    );
    console.log(`RSS after them: ${fmt(residentMegabytes(server.child.pid!))} MB`);
    await versusBind(server.dnsPort, keys);
    console.log(`RSS after dnsperf: ${fmt(residentMegabytes(server.child.pid!))} MB`);
  } finally {
    await server.stop();
  }
}

/** Creates the schema, and the account the seeded domains belong to; returns its id. */
async function migrate(dataDir: string, databaseUrl: string): Promise<string> {
  const store = await openStore({ dataDir, databaseUrl });
  const { accountId } = await store.createApiKey({
    name: 'zone',
    keyHash: randomBytes(16).toString('hex'),
    keyPrefix: 'zone',
    scopes: ['*'],
  });
  await store.close();
  return accountId;
}

interface Started {
  child: ReturnType<typeof spawn>;
  seconds: number;
  rssMb: number;
  dnsPort: number;
  stop(): Promise<void>;
}

/**
 * How a checkout's server is run: its build when it has one (`npm run bench` builds this one
 * first), as in production; from source under tsx otherwise, which costs start-up time and
 * about 85 MB of RSS (the loader, in each of the server's threads).
 */
function serverArgs(root: string): string[] {
  const built = path.join(root, 'packages/server/dist/main.js');
  return existsSync(built) ? [built] : ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')];
}

async function startServer(root: string, dataDir: string, databaseUrl: string): Promise<Started> {
  const port = await freePort();
  const dnsPort = await findFreeDnsPort();
  const started = performance.now();
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SCHEDULER_ENABLED: 'false',
      DNS_RESOLVERS: '127.0.0.1:9',
      DKIM_PROVIDER_HOST: 'provider.bench',
      DNS_LISTEN: `127.0.0.1:${dnsPort}`,
      DNS_RATE_LIMIT: '0',
      DKIM_ROTATION_ENABLED: 'false',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error('the server exited during start-up');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    child,
    seconds,
    rssMb: residentMegabytes(child.pid!),
    dnsPort,
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Each of `n` random names asked once over UDP, one at a time; latencies and wrong answers. */
async function coldLatency(port: number, keys: number, n: number) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const want = dkimKeyRecord(PUBLIC_KEY);
  const ms: number[] = [];
  let wrong = 0;
  const asked = new Set<number>();
  for (let id = 0; id < n; id++) {
    let i = randomInt(keys);
    while (asked.has(i)) i = randomInt(keys);
    asked.add(i);
    const message = dnsPacket.encode({
      id,
      type: 'query',
      questions: [{ name: `${token(i)}.${ORIGIN}`, type: 'TXT' }],
      additionals: [{ name: '.', type: 'OPT', udpPayloadSize: 1232, flags: 0 } as never],
    });
    const t = performance.now();
    const reply = await new Promise<Buffer | undefined>((resolve) => {
      const timer = setTimeout(() => {
        socket.off('message', onMessage);
        resolve(undefined);
      }, 2_000);
      const onMessage = (data: Buffer) => {
        if (data.readUInt16BE(0) !== id) return;
        clearTimeout(timer);
        socket.off('message', onMessage);
        resolve(data);
      };
      socket.on('message', onMessage);
      socket.send(message, port, '127.0.0.1');
    });
    ms.push(performance.now() - t);
    const answer = reply && dnsPacket.decode(reply).answers?.[0];
    const text = answer?.type === 'TXT' ? (answer.data as Buffer[]).map((b) => b.toString()).join('') : '';
    if (text !== want) wrong++;
  }
  socket.close();
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n * 0.5)]!, p99: ms[Math.floor(n * 0.99)]!, wrong };
}

/** dnsperf over 100,000 random names of the zone: our responder, then BIND serving them. */
async function versusBind(ourPort: number, keys: number): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-zone-bind-'));
  const names = new Set<number>();
  while (names.size < Math.min(100_000, keys)) names.add(randomInt(keys));
  writeFileSync(
    path.join(dir, 'queries.txt'),
    `${[...names].map((i) => `${token(i)}.${ORIGIN} TXT`).join('\n')}\n`,
  );
  const texts = txtStrings(dkimKeyRecord(PUBLIC_KEY));
  const strings = texts.map((s) => `"${s}"`).join(' ');
  writeFileSync(
    path.join(dir, 'zone.db'),
    [
      `$ORIGIN ${ORIGIN}.`,
      '$TTL 300',
      '@ SOA ns.provider.bench. hostmaster.provider.bench. 1 3600 600 1209600 300',
      '@ NS ns.provider.bench.',
      ...[...names].map((i) => `${token(i)} TXT ${strings}`),
      '',
    ].join('\n'),
  );
  const bindPort = await findFreeDnsPort();
  writeFileSync(path.join(dir, 'named.conf'), namedConf(dir, bindPort, ORIGIN));
  const bind = spawn('/usr/sbin/named', ['-f', '-4', '-c', path.join(dir, 'named.conf')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        const out = execFileSync('dig', ['@127.0.0.1', '-p', String(bindPort), '+short', ORIGIN, 'SOA'], {
          encoding: 'utf8',
        });
        if (out.trim() !== '') break;
      } catch {}
      if (i > 200) throw new Error('BIND did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const ours = dnsperf(ourPort, dir);
    // At 10M domains the first 10 s did not reach every name (4,600 q/s, half of them), so the
    // second run began warm and ended on misses: one whole pass first, so the second is the
    // responder with every name of the test in its cache, as BIND has them in memory.
    const warmUp = dnsperf(ourPort, dir, undefined, true);
    const floor = await startFloor(dir, texts);
    // The three in turn, PASSES times: one 10 s run of each swings by ±10 % on this machine
    // (BIND 108,000–124,000 q/s in one session), so each ratio is taken within a pass and the
    // median of the passes is printed.
    const passes: { ours: number; theirs: number; floor: number }[] = [];
    try {
      for (let pass = 0; pass < PASSES; pass++)
        passes.push({
          ours: dnsperf(ourPort, dir),
          theirs: dnsperf(bindPort, dir),
          floor: dnsperf(floor.port, dir),
        });
    } finally {
      floor.stop();
    }
    const theirs = median(passes.map((p) => p.theirs));
    console.log(
      `dnsperf, 100,000 names, 10 s each: responder ${fmt(ours)} q/s from cold (${fmt(ours / theirs, 2)}× BIND's median), then a whole pass (${fmt(warmUp)} q/s)`,
    );
    for (const [i, p] of passes.entries())
      console.log(
        `pass ${i + 1}: responder ${fmt(p.ours)} q/s, BIND ${fmt(p.theirs)}, Node's dgram floor ${fmt(p.floor)}: responder ${fmt(p.ours / p.theirs, 2)}× BIND and ${fmt(p.ours / p.floor, 2)}× the floor; the floor ${fmt(p.floor / p.theirs, 2)}× BIND`,
      );
    console.log(
      `median of ${PASSES} passes, warm: responder ${fmt(median(passes.map((p) => p.ours / p.theirs)), 2)}× BIND, ${fmt(median(passes.map((p) => p.ours / p.floor)), 2)}× Node's dgram floor (udp-floor.mjs: one fixed answer of the same size through dgram, nothing read or decided), which is ${fmt(median(passes.map((p) => p.floor / p.theirs)), 2)}× BIND`,
    );
  } finally {
    bind.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `udp-floor.mjs` answering with the key record's `texts` (its TXT strings), for dnsperf: what
 * one Node thread reaches when it does nothing but receive and send.
 */
async function startFloor(dir: string, texts: string[]): Promise<{ port: number; stop: () => void }> {
  const port = await findFreeDnsPort();
  const floor = spawn(process.execPath, [path.join(benchDir, 'udp-floor.mjs'), String(port), ...texts], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    floor.stdout.once('data', () => resolve());
    floor.once('exit', (code) => reject(new Error(`udp-floor.mjs exited (${code})`)));
  });
  return { port, stop: () => floor.kill('SIGTERM') };
}

function residentMegabytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) / 1024;
}
