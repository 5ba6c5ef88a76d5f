/**
 * Status polling against a bare Fastify route, and registration p99 (issues 2 and 19).
 *
 * Two baselines answer the same bytes as our status route, in their own process: one
 * serialises the body on every request (Fastify's default for an object), the stricter one
 * sends a ready string. Each is measured at 10 and 32 connections, five runs of 5 s, in turn
 * with ours, by autocannon in this third process; the median and the spread (lowest–highest)
 * are printed, and a run with any non-2xx answer or error voids the comparison.
 */
import {
  eachBody,
  fmt,
  type LoadResult,
  load,
  newDomainBody,
  row,
  startNode,
  startService,
} from './support.js';

const RUNS = 5;

export async function runApiBench(): Promise<void> {
  console.log(`\n## API (SQLite, one process; autocannon, ${RUNS} runs of 5 s at 10 and 32 connections)`);
  const service = await startService();
  const headers = { authorization: service.key, 'content-type': 'application/json' };
  const registered = await fetch(`${service.url}/api/public/domain`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domains: [{ domain: 'poll.bench.example', domainType: 'Transactional' }] }),
  });
  if (registered.status !== 200) throw new Error('registration failed');
  const statusBody = JSON.stringify({ domains: ['poll.bench.example'] });
  const sample = await (
    await fetch(`${service.url}/api/public/domain/status`, { method: 'POST', headers, body: statusBody })
  ).text();
  const bare = await startNode(['--import', 'tsx', 'packages/server/bench/bare-server.ts'], {
    BARE_BODY: sample,
  });
  const targets = {
    'bare route, object body': `${bare.url}/bare`,
    'bare route, ready string': `${bare.url}/bare-string`,
    'status polling, 1 domain': `${service.url}/api/public/domain/status`,
  };
  try {
    console.log(`response body: ${sample.length} bytes`);
    for (const connections of [10, 32]) {
      const results = new Map<string, LoadResult[]>(Object.keys(targets).map((name) => [name, []]));
      for (const url of Object.values(targets))
        await load({ url, method: 'POST', headers, body: statusBody, connections, duration: 2 }); // warm-up
      for (let run = 0; run < RUNS; run++)
        for (const [name, url] of Object.entries(targets))
          results
            .get(name)!
            .push(await load({ url, method: 'POST', headers, body: statusBody, connections }));
      report(connections, results);
    }

    const registration = await load({
      url: `${service.url}/api/public/domain`,
      method: 'POST',
      headers,
      connections: 4,
      requests: eachBody(newDomainBody(`r${Date.now()}-`)),
    });
    console.log(row('registration, 1 new domain, 4 conns', registration));
    console.log(
      `registration p99: ${fmt(registration.p99, 1)} ms  (target ≤ 25 ms) ${registration.p99 <= 25 ? 'OK' : 'MISSED'}`,
    );
  } finally {
    await bare.stop();
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
    console.log(
      `  ${name.padEnd(28)} median ${fmt(median).padStart(7)} req/s  spread ${fmt(rps[0]!)}–${fmt(rps.at(-1)!)}` +
        `  p99 ${fmt(runs.map((r) => r.p99).sort((a, b) => a - b)[2]!, 1)} ms${failed ? `  VOID: ${failed} non-2xx or errors` : ''}`,
    );
  }
  const ours = medians.get('status polling, 1 domain')!;
  for (const baseline of ['bare route, object body', 'bare route, ready string']) {
    const ratio = ours / medians.get(baseline)!;
    console.log(
      `  status polling / ${baseline}: ${fmt(ratio, 2)}×  (target ≥ 0.70×) ${ratio >= 0.7 ? 'OK' : 'MISSED'}`,
    );
  }
}
