/**
 * The DKIM responder under issue 15's DNS attacks, in a child process of its own:
 * - a real TCP query (a resolver completing a truncated answer) while 256 hostile connections
 *   trickle one byte a second: from one address (the reported attack) and spread over 16
 *   addresses (what the per-client cap alone cannot stop);
 * - the bytes sent per byte received for a flood of one question over UDP (a forged source
 *   aims the answers at a victim), with response rate limiting and without it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import { findFreeDnsPort } from '../src/test-support/bind.js';
import { query, tcpQuery } from '../src/test-support/dns-client.js';
import { fmt, repoRoot } from './support.js';

const TOKEN = randomBytes(16).toString('hex');
const ZONE = {
  origin: 'dkim.bench.example',
  serial: 1,
  nameServers: ['ns.bench.example'],
  soaContact: 'hostmaster.bench.example',
  ttl: 300,
  keys: [{ token: TOKEN, publicKey: randomBytes(294).toString('base64') }],
};
const NAME = `${TOKEN}.dkim.bench.example`;

interface Responder {
  port: number;
  child: ChildProcess;
}

async function startResponder(dir: string, rateLimit: boolean): Promise<Responder> {
  const port = await findFreeDnsPort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/server/bench/dns-responder-server.ts'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        ZONE_FILE: path.join(dir, 'zone.json'),
        RATE_LIMIT: rateLimit ? 'on' : 'off',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', () => reject(new Error('the responder exited before it was ready')));
  });
  return { port, child };
}

/** `count` sequential real TCP queries from 127.0.0.2: latencies of the answered, and the failures. */
async function realQueries(
  port: number,
  count: number,
): Promise<{ p50: number; p99: number; failed: number }> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    try {
      const reply = await tcpQuery({ host: '127.0.0.1', port }, query(NAME, 'TXT', { id: i }), '127.0.0.2');
      if (reply.answers?.length === 1) times.push(performance.now() - started);
      else failed++;
    } catch {
      failed++;
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), failed };
}

/** 256 connections that send a 65,535-byte length and then one byte a second. */
async function trickle(port: number, addresses: string[]): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  for (let i = 0; i < 256; i++) {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: addresses[i % addresses.length] });
    socket.on('error', () => {});
    await new Promise((resolve) => {
      socket.once('connect', resolve);
      socket.once('close', resolve);
    });
    socket.write(Buffer.from([0xff, 0xff]));
    const timer = setInterval(() => socket.writable && socket.write(Buffer.from([0x41])), 1000);
    socket.once('close', () => clearInterval(timer));
    sockets.push(socket);
  }
  return sockets;
}

/** 5,000 copies of one question in bursts of 50 over about a second: bytes out per byte in. */
async function amplification(port: number): Promise<{ ratio: number; full: number; slips: number }> {
  const message = dnsPacket.encode(query(NAME, 'TXT', { edns: 1232 }));
  const socket = dgram.createSocket('udp4');
  let received = 0;
  let full = 0;
  let slips = 0;
  socket.on('message', (m) => {
    received += m.length;
    if ((m[2]! & 0x02) !== 0) slips++;
    else full++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.3', resolve));
  for (let i = 0; i < 5000; i++) {
    socket.send(message, port, '127.0.0.1');
    if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  socket.close();
  return { ratio: received / (message.length * 5000), full, slips };
}

export async function dnsUnderAttack(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dns-abuse-'));
  writeFileSync(path.join(dir, 'zone.json'), JSON.stringify(ZONE));
  console.log(
    '\n### DKIM responder under attack (its own process; 200 real TCP queries from another address)',
  );
  const limited = await startResponder(dir, true);
  try {
    await realQueries(limited.port, 100); // warm-up: the first queries compile the code paths
    const quiet = await realQueries(limited.port, 200);
    const line = (label: string, r: typeof quiet) =>
      console.log(
        `${label.padEnd(44)} p50 ${fmt(r.p50, 2).padStart(6)} ms   p99 ${fmt(r.p99, 2).padStart(6)} ms   unanswered ${r.failed}`,
      );
    line('TCP query, quiet', quiet);
    for (const [label, addresses] of [
      ['TCP query, 256 trickling from 1 address', ['127.0.0.10']],
      [
        'TCP query, 256 trickling from 16 addresses',
        Array.from({ length: 16 }, (_, i) => `127.0.0.${20 + i}`),
      ],
    ] as const) {
      const hostile = await trickle(limited.port, [...addresses]);
      const busy = await realQueries(limited.port, 200);
      line(label, busy);
      console.log(
        `  ${label.replace('TCP query, ', '')}: p99 ${fmt(busy.p99 / quiet.p99, 2)}× quiet; ${busy.failed === 0 ? 'every query answered: OK' : 'queries lost: MISSED'}`,
      );
      for (const socket of hostile) socket.destroy();
    }
    const withLimit = await amplification(limited.port);
    const unlimited = await startResponder(dir, false);
    try {
      const without = await amplification(unlimited.port);
      console.log(`UDP flood of one question, 5,000 in about 1 s from one address:`);
      console.log(
        `  no rate limiting:   ${fmt(without.ratio, 2)}× bytes out per byte in (${without.full} full answers)`,
      );
      console.log(
        `  rate limited:       ${fmt(withLimit.ratio, 2)}× bytes out per byte in (${withLimit.full} full answers, ${withLimit.slips} truncated slips)  (target < 1×) ${withLimit.ratio < 1 ? 'OK' : 'MISSED'}`,
      );
    } finally {
      unlimited.child.kill('SIGTERM');
    }
  } finally {
    limited.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
