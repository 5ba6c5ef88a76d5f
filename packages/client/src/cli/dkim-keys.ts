/**
 * `sendctl domains keys | rotate`: the DKIM keys behind a domain's three CNAMEs, which rotate
 * by themselves, and asking for a rotation now.
 */
import type { DkimStatus, ServiceClient } from '../client.js';
import { ServiceApiError } from '../errors.js';
import { table } from './format.js';
import { EXIT, type Io, UsageError } from './io.js';

export const DKIM_KEYS_USAGE = `  domains keys <domain>                                    the DKIM keys: each selector's role (active, next, retired), key age, next rotation
  domains rotate <domain>                                  move signing to the next DKIM key now (keys also rotate by themselves)`;

const DAY_MS = 86_400_000;

/** The selectors as a table, then when signing moved last and moves next. */
export function keysTable(dkim: DkimStatus, now = Date.now()): string {
  const rows = dkim.selectors.map((s) => [
    s.selector,
    s.state ?? 'key being made',
    s.keyCreatedAt === null ? '' : `${Math.floor((now - Date.parse(s.keyCreatedAt)) / DAY_MS)} d`,
    s.since ?? (s.state === 'next' ? 'not yet served everywhere' : ''),
  ]);
  return [
    table(['SELECTOR', 'STATE', 'KEY AGE', 'SINCE'], rows),
    `last rotation: ${dkim.rotatedAt ?? 'none yet'}`,
    `next rotation: ${dkim.nextRotationAt ?? 'not planned yet (keys being made, or a CNAME not verified)'}${dkim.rotationRequestedAt ? ` (asked for at ${dkim.rotationRequestedAt})` : ''}`,
  ].join('\n');
}

export async function dkimKeys(
  client: ServiceClient,
  args: string[],
  json: boolean,
  io: Io,
): Promise<number> {
  const name = oneDomain(args, 'keys');
  const [envelope] = await client.domainStatus([name]);
  if (!envelope?.data) {
    io.err(`${name}: ${envelope?.error?.message} (${envelope?.error?.code})`);
    return EXIT.itemsFailed;
  }
  io.out(json ? JSON.stringify(envelope.data.dkim, null, 2) : keysTable(envelope.data.dkim));
  return EXIT.ok;
}

export async function rotate(client: ServiceClient, args: string[], json: boolean, io: Io): Promise<number> {
  const name = oneDomain(args, 'rotate');
  try {
    const rotation = await client.rotateDkim(name);
    if (json) io.out(JSON.stringify(rotation, null, 2));
    else
      io.out(
        `${rotation.domain}: signing moves to the next key at ${rotation.dkim.nextRotationAt}\n${keysTable(rotation.dkim)}`,
      );
    return EXIT.ok;
  } catch (error) {
    // refusals about this name, as other commands report a refused name
    if (error instanceof ServiceApiError && error.code.startsWith('DKIM_ROTATION_')) {
      io.err(`${name}: ${error.message} (${error.code})`);
      return EXIT.itemsFailed;
    }
    throw error;
  }
}

function oneDomain(args: string[], command: string): string {
  if (args.length !== 1) throw new UsageError(`domains ${command} needs exactly one domain`);
  return args[0]!;
}
