/**
 * The DKIM responder alone over a synthetic zone, for the benchmark (a child process, so
 * dnsperf competes with it as with BIND). Reads the zone from ZONE_FILE (JSON), listens on
 * 127.0.0.1:PORT, prints "ready" on stdout. UDP response rate limiting is off unless
 * RATE_LIMIT=on (the abuse bench): dnsperf asks the same questions from one address as fast as
 * it can, and BIND beside it runs without `rate-limit` too.
 */
import { readFileSync } from 'node:fs';
import { startDnsResponder } from '../src/dns/responder.js';
import { DkimZone } from '../src/dns/zone.js';

const content = JSON.parse(readFileSync(process.env.ZONE_FILE!, 'utf8'));
const zone = new DkimZone(content);
await startDnsResponder({
  listen: { host: '127.0.0.1', port: Number(process.env.PORT) },
  zone: () => zone,
  transferAllowed: () => false,
  ...(process.env.RATE_LIMIT === 'on' ? {} : { responseRateLimit: false as const }),
});
process.stdout.write('ready\n');
