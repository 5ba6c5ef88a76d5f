/**
 * Issue 2 targets: status polling at ≥ 0.7× a bare Fastify route returning a same-sized
 * JSON body, and a one-domain registration p99 ≤ 25 ms. Both measured in this run.
 */
import { eachBody, fmt, load, newDomainBody, row, startNode, startService } from './support.js';

export async function runApiBench(): Promise<void> {
  console.log('\n## API (SQLite, one process; autocannon, 10 connections, 5 s each)');
  const service = await startService();
  const key = service.key;
  const headers = { authorization: key, 'content-type': 'application/json' };

  const registered = await fetch(`${service.url}/api/public/domain`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domains: [{ domain: 'poll.bench.example', domainType: 'Transactional' }] }),
  });
  const statusBody = JSON.stringify({ domains: ['poll.bench.example'] });
  const sample = await (
    await fetch(`${service.url}/api/public/domain/status`, { method: 'POST', headers, body: statusBody })
  ).text();
  if (registered.status !== 200) throw new Error('registration failed');

  const bare = await startNode(['--import', 'tsx', 'packages/server/bench/bare-server.ts'], {
    BARE_BODY: sample,
  });
  try {
    // Warm both servers up so JIT state is comparable.
    await load({ url: `${bare.url}/bare`, method: 'POST', headers, body: statusBody, duration: 2 });
    await load({
      url: `${service.url}/api/public/domain/status`,
      method: 'POST',
      headers,
      body: statusBody,
      duration: 2,
    });

    const baseline = await load({ url: `${bare.url}/bare`, method: 'POST', headers, body: statusBody });
    const polling = await load({
      url: `${service.url}/api/public/domain/status`,
      method: 'POST',
      headers,
      body: statusBody,
    });

    const registration = await load({
      url: `${service.url}/api/public/domain`,
      method: 'POST',
      headers,
      connections: 4,
      requests: eachBody(newDomainBody(`r${Date.now()}-`)),
    });

    console.log(`response body: ${sample.length} bytes`);
    console.log(row('bare Fastify route (baseline)', baseline));
    console.log(row('status polling, 1 domain', polling));
    console.log(row('registration, 1 new domain, 4 conns', registration));
    const ratio = polling.rps / baseline.rps;
    console.log(
      `status polling / bare route: ${fmt(ratio, 2)}×  (target ≥ 0.70×) ${ratio >= 0.7 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `registration p99: ${fmt(registration.p99, 1)} ms  (target ≤ 25 ms) ${registration.p99 <= 25 ? 'OK' : 'MISSED'}`,
    );
  } finally {
    await bare.stop();
    await service.stop();
  }
}
