/**
 * The DKIM responder alone over a synthetic zone, for the benchmark (a child process, so
 * dnsperf competes with it as with BIND). Reads the zone from ZONE_FILE (JSON), listens on
 * 127.0.0.1:PORT, prints "ready" on stdout.
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
});
process.stdout.write('ready\n');
