/**
 * `sendctl domains publish-local | unpublish-local` (development only): put a `.test` domain's
 * records in the server's local DNS, which plays the domain's DNS provider on the developer's
 * machine, or take them out again, and see what the check that follows makes of it.
 */
import type { LocalDnsChange, ServiceClient } from '../client.js';
import { ServiceApiError } from '../errors.js';
import { table } from './format.js';
import { EXIT, type Io, UsageError } from './io.js';

export const LOCAL_DNS_USAGE = `  domains publish-local <domain>                           development: publish a .test domain's records in the server's local DNS
                                                           (it verifies at once, with no public DNS)
  domains unpublish-local <domain> [--record <fqdn>…]      development: remove its records (those named, or all) from the local DNS`;

/** The records the local DNS holds, the server to ask, and the status. */
export function localDnsLines(change: LocalDnsChange): string {
  const rows = change.records.map((r) => [r.fqdn, r.type, r.value]);
  return [
    rows.length === 0 ? 'the local DNS holds none of its records' : table(['NAME', 'TYPE', 'VALUE'], rows),
    `local DNS: ${change.server} (dig @${change.server.replace(/:(\d+)$/, ' -p $1')} <name> <type>)`,
    `${change.domain}: ${change.status}`,
  ].join('\n');
}

export async function localDns(
  client: ServiceClient,
  command: 'publish-local' | 'unpublish-local',
  args: string[],
  records: string[] | undefined,
  json: boolean,
  io: Io,
): Promise<number> {
  if (args.length !== 1) throw new UsageError(`domains ${command} needs exactly one domain`);
  const name = args[0]!;
  try {
    const change =
      command === 'publish-local'
        ? await client.publishLocalDns(name)
        : await client.removeFromLocalDns(name, records);
    io.out(json ? JSON.stringify(change, null, 2) : localDnsLines(change));
    return EXIT.ok;
  } catch (error) {
    // refusals about this name, as other commands report a refused name
    if (error instanceof ServiceApiError && error.code.startsWith('LOCAL_DNS_')) {
      io.err(`${name}: ${error.message} (${error.code})`);
      return EXIT.itemsFailed;
    }
    throw error;
  }
}
