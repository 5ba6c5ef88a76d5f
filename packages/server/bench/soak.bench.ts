/**
 * Issue 9: sustained load at 80 % of the capacity measured in this run (90 % of it status
 * polls, 10 % registrations) for SOAK_SECONDS (60 by default), with zero errors expected
 * and the server's memory (RSS) sampled throughout.
 */
import { readFileSync } from 'node:fs';
import {
  eachBody,
  fmt,
  type LoadResult,
  load,
  newDomainBody,
  row,
  startService,
  statusBodyOf,
} from './support.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

export async function runSoakBench(): Promise<void> {
  console.log(`\n## Soak: ${SECONDS} s at 80 % of measured capacity (SQLite, one process)`);
  const service = await startService({ SCHEDULER_ENABLED: 'false', STATUS_CHECK_MAX_AGE_MS: '3600000' });
  try {
    const headers = { authorization: service.key, 'content-type': 'application/json' };
    const names = Array.from({ length: 100 }, (_, i) => `soak${i}.bench.example`);
    await fetch(`${service.url}/api/public/domain`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domains: names.map((domain) => ({ domain, domainType: 'Marketing' })) }),
    });
    const poll = (extra: object = {}) =>
      load({
        url: `${service.url}/api/public/domain/status`,
        method: 'POST',
        headers,
        requests: eachBody(statusBodyOf(names)),
        ...extra,
      });
    const register = (extra: object = {}) =>
      load({
        url: `${service.url}/api/public/domain`,
        method: 'POST',
        headers,
        connections: 4,
        requests: eachBody(newDomainBody(`s${Date.now()}-`)),
        ...extra,
      });
    const pollCapacity = (await poll()).rps;
    const registerCapacity = (await register()).rps;
    const pollRate = Math.round(0.8 * 0.9 * pollCapacity);
    const registerRate = Math.max(1, Math.round(0.8 * 0.1 * registerCapacity));
    console.log(
      `capacity: ${fmt(pollCapacity)} polls/s, ${fmt(registerCapacity)} registrations/s; soak at ${fmt(pollRate)} + ${fmt(registerRate)} req/s`,
    );

    const pid = service.child.pid!;
    const samples = [rssMiB(pid)];
    const sampler = setInterval(() => samples.push(rssMiB(pid)), 5000);
    let results: [LoadResult, LoadResult];
    try {
      results = await Promise.all([
        poll({ duration: SECONDS, overallRate: pollRate }),
        register({ duration: SECONDS, overallRate: registerRate }),
      ]);
    } finally {
      clearInterval(sampler);
    }
    samples.push(rssMiB(pid));
    console.log(row('soak: status polling', results[0]));
    console.log(row('soak: registration', results[1]));
    const errors = results.reduce((a, r) => a + r.errors + r.non2xx, 0);
    const first = samples[0]!;
    const last = samples.at(-1)!;
    console.log(
      `RSS: ${fmt(first, 1)} MiB at start, ${fmt(Math.max(...samples), 1)} MiB peak, ${fmt(last, 1)} MiB at end (growth ${fmt(last - first, 1)} MiB over ${fmt(results[0].requests + results[1].requests)} requests)`,
    );
    console.log(`errors and non-2xx answers: ${errors} ${errors === 0 ? 'OK' : 'FAILED'}`);
  } finally {
    await service.stop();
  }
}
