/**
 * Issue 14 targets, through a real delegation: a caching BIND as DNS_RESOLVERS with a fake root
 * delegating `bench.test` to the customer's two name servers (two BINDs serving the same zone,
 * each on port 53 of its own loopback address, as a zone has at least two), whose negative TTL
 * is 600 s. Every check asks both (issue 36: servers that disagree are named). Measured: the time from publishing correct records (after the resolver
 * cached their absence) to a status poll saying `verified` (target ≤ 5 s; the baseline is the
 * resolver-only check of before), the DNS queries one check sends, and checks/s for 1,000
 * domains through this path (target ≥ 500/s, issue 36). Needs root (it adds a loopback address).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { type BindServer, startBind } from '../src/test-support/bind.js';
import { claimLoopbackAddress } from '../src/test-support/loopback.js';
import { registerHalfPublished, waitForChecks } from './checks.js';
import { apiKey, fmt } from './support.js';

const DOMAINS = 1000;
const NEGATIVE_TTL = 600;

export async function runAuthoritativeBench(): Promise<void> {
  console.log(
    `\n## Authoritative checks (a caching resolver in front of the customer's server, negative TTL ${NEGATIVE_TTL} s)`,
  );
  const claims = [await claimLoopbackAddress(), await claimLoopbackAddress()];
  const hosts = claims.map((claim) => claim.address);
  const nameServers = ['ns1.bench.test', 'ns2.bench.test'];
  const customer = await Promise.all(
    hosts.map((host) =>
      startBind({
        host,
        port: 53,
        zones: ['bench.test'],
        negativeTtl: NEGATIVE_TTL,
        nameServers: { 'bench.test': nameServers },
        nameServerHosts: Object.fromEntries(nameServers.map((name, i) => [name, hosts[i]!])),
      }),
    ),
  );
  const resolver = await startBind({
    recursion: true,
    delegations: hosts.map((host, i) => ({ zone: 'bench.test', host, nameServers: [nameServers[i]!] })),
  });
  try {
    for (const authoritative of [false, true]) await timeToVerified(customer, resolver, authoritative);
    await checkRate(customer, resolver);
  } finally {
    await resolver.close();
    await Promise.all(customer.map((server) => server.close()));
    for (const claim of claims) claim.release();
  }
}

async function serverWith(resolver: BindServer, env: Record<string, string>): Promise<RunningServer> {
  return startServer(
    loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-auth-')),
      PORT: '0',
      LOG_LEVEL: 'silent',
      DNS_RESOLVERS: resolver.address,
      DKIM_PROVIDER_HOST: 'provider.test',
      RATE_LIMIT_MAX: '1000000',
      ...env,
    }),
    { logger: false },
  );
}

/** Register, let a check and the resolver see nothing, publish, then poll until verified (5 s at most). */
async function timeToVerified(customer: BindServer[], resolver: BindServer, authoritative: boolean) {
  const server = await serverWith(resolver, {
    STATUS_CHECK_MAX_AGE_MS: '0',
    VERIFY_AUTHORITATIVE: String(authoritative),
  });
  try {
    const key = await apiKey(server);
    const call = async (route: string, body: unknown) => {
      const res = await fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await res.json()) as { data: any }[])[0]!.data;
    };
    const name = `${authoritative ? 'auth' : 'cached'}.bench.test`;
    const { records } = await call('/api/public/domain', {
      domains: [{ domain: name, domainType: 'Marketing' }],
    });
    // the resolver is asked before anything is published (as the check at registration did)
    for (const record of records)
      await resolver
        .resolver()
        .resolveAny(record.fqdn)
        .catch(() => []);
    for (const record of records.slice(0, 3))
      for (const server of customer) await server.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    const published = performance.now();
    const before = await queriesAt(customer);
    let status = '';
    let polls = 0;
    while (performance.now() - published < 5000) {
      polls += 1;
      status = (await call('/api/public/domain/status', { domains: [name] })).status;
      if (status === 'verified') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ms = performance.now() - published;
    const label = authoritative ? 'authoritative (now)' : 'resolver only (before)';
    console.log(
      status === 'verified'
        ? `${label}: verified ${fmt(ms)} ms after publishing (${polls} poll${polls > 1 ? 's' : ''}; target ≤ 5000 ms) OK`
        : `${label}: still ${status} ${fmt(ms)} ms after publishing: the resolver answers from its negative cache for ${NEGATIVE_TTL} s`,
    );
    if (authoritative) {
      const queries = (await queriesAt(customer)) - before;
      console.log(`queries at the customer's two servers for that check of 4 records: ${queries}`);
    }
  } finally {
    await server.close();
  }
}

/** 1,000 domains, half published, all due at once: checks/s and the queries they send. */
async function checkRate(customer: BindServer[], resolver: BindServer) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-auth-rate-'));
  const setup = await serverWith(resolver, { DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' });
  const updates = await registerHalfPublished(setup, DOMAINS, 'r');
  for (let i = 0; i < updates.length; i += 300)
    for (const server of customer) await server.update('bench.test', updates.slice(i, i + 300));
  await setup.close();

  const [atCustomer, atResolver] = await Promise.all([queriesAt(customer), resolver.queriesReceived()]);
  const started = Date.now();
  const server = await serverWith(resolver, { DATA_DIR: dataDir, SCHEDULER_INTERVAL_MS: '20' });
  const verified = await waitForChecks(server, DOMAINS);
  const seconds = (Date.now() - started) / 1000;
  await server.close();
  const perCheck = async (servers: BindServer[], before: number) =>
    ((await queriesAt(servers)) - before) / DOMAINS;
  const rate = DOMAINS / seconds;
  console.log(`${DOMAINS} domains checked in ${fmt(seconds, 2)} s, ${verified} verified`);
  console.log(
    `DNS queries per check: ${fmt(await perCheck(customer, atCustomer), 2)} at the customer's two servers, ${fmt(await perCheck([resolver], atResolver), 2)} at the resolver`,
  );
  console.log(
    `domain checks/s (authoritative): ${fmt(rate)}  (target ≥ 500) ${rate >= 500 ? 'OK' : 'MISSED'}`,
  );
}

/** Queries received by all of `servers` so far. */
async function queriesAt(servers: BindServer[]): Promise<number> {
  const counts = await Promise.all(servers.map((server) => server.queriesReceived()));
  return counts.reduce((sum, count) => sum + count, 0);
}
