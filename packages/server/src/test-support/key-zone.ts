/**
 * Hosted DKIM as receivers meet it, for end-to-end tests: the service serving its key zone
 * `dkim.provider.test` (`DNS_LISTEN`), and one BIND 9 that is both the customer's
 * authoritative server (zone `customer.test`, where the CNAMEs go) and a secondary of our key
 * zone, pulling it by AXFR after each NOTIFY. `verify` is mailauth's verdict on a signed
 * message, resolving through that BIND only.
 */
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { type BindServer, findFreeDnsPort, startBind } from './bind.js';
import { startTestServer, type TestServer, testDatabaseUrl } from './test-server.js';

export interface KeyZone {
  api: TestServer;
  bind: BindServer;
  /** The server's database (PostgreSQL in the suite's second pass), for the CLI. */
  databaseUrl: string | undefined;
  verify(message: Buffer): Promise<any>;
  close(): Promise<void>;
}

export async function startKeyZone(env: Record<string, string> = {}): Promise<KeyZone> {
  const bindPort = await findFreeDnsPort();
  const databaseUrl = await testDatabaseUrl();
  const api = await startTestServer({
    ...(databaseUrl !== undefined && { DATABASE_URL: databaseUrl }),
    // Verification asks the same BIND the customer publishes in.
    DNS_RESOLVERS: `127.0.0.1:${bindPort}`,
    DNS_LISTEN: '127.0.0.1:0',
    DNS_SECONDARIES: `127.0.0.1:${bindPort}`,
    DNS_NS: 'ns1.provider.test,ns2.provider.test',
    // every status poll looks at DNS again
    STATUS_CHECK_MAX_AGE_MS: '0',
    ...env,
  });
  const bind = await startBind({
    port: bindPort,
    zones: ['customer.test'],
    secondaries: [
      { zone: 'dkim.provider.test', primary: `127.0.0.1:${api.server.dkim.responder!.address.port}` },
    ],
    recursion: true,
  });
  return {
    api,
    bind,
    databaseUrl,
    async verify(message) {
      const resolver = bind.resolver();
      const { results } = await dkimVerify(message, {
        resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
      });
      return results[0]!;
    },
    async close() {
      await bind.close();
      await api.close();
    },
  };
}
