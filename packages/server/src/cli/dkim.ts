/**
 * `dkim sign | status | revoke`: hosted DKIM from the server's machine, against the same
 * database and `SECRET_KEY` (or development key in `DATA_DIR`) as the server.
 *
 *   dkim sign --domain D [--account ID] < message.eml > signed.eml
 *   dkim status --domain D [--account ID] [--json]
 *   dkim revoke <token>
 */
import type { Config } from '../config.js';
import { DkimError } from '../dkim/errors.js';
import { resolveSecretKey } from '../dkim/secret-key.js';
import { activeSelector, DkimSigner, inCustomerDns } from '../dkim/signer.js';
import { DkimKeyStore } from '../store/dkim-key-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { CliError, type CliIo } from './io.js';
import { table } from './keys.js';

/** Raw byte streams for `dkim sign` (the message is not text lines). */
export interface ByteStreams {
  readInput(): Promise<Buffer>;
  writeOutput(bytes: Buffer): void;
}

export const processStreams: ByteStreams = {
  async readInput() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  writeOutput: (bytes) => process.stdout.write(bytes),
};

/** Largest message `dkim sign` reads (a generous mail size limit). */
const MAX_MESSAGE_BYTES = 50 * 1024 * 1024;

export async function dkimCommand(
  store: KyselyStore,
  config: Config,
  args: string[],
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
  streams: ByteStreams = processStreams,
): Promise<void> {
  const keys = new DkimKeyStore(store.db);
  const [sub] = args;
  try {
    switch (sub) {
      case 'sign':
        return await sign(keys, config, flags, io, streams);
      case 'status':
        return await status(keys, flags, io);
      case 'revoke':
        return await revoke(keys, args.slice(1), io);
      default:
        throw new CliError(
          `unknown dkim command "${sub ?? ''}"; use dkim sign --domain D < message.eml | dkim status --domain D | dkim revoke <token>`,
        );
    }
  } catch (error) {
    if (error instanceof DkimError) throw new CliError(`${error.code}: ${error.message}`);
    throw error;
  }
}

function domainFlags(flags: Record<string, string | boolean | undefined>, command: string) {
  const domain = typeof flags.domain === 'string' ? flags.domain : '';
  if (domain.trim() === '') throw new CliError(`dkim ${command} needs --domain <registered domain>`);
  return { domain, ...(typeof flags.account === 'string' && { accountId: flags.account }) };
}

async function sign(
  keys: DkimKeyStore,
  config: Config,
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
  streams: ByteStreams,
): Promise<void> {
  const request = domainFlags(flags, 'sign');
  const secret = resolveSecretKey(config.dkim.secretKey, config.dataDir);
  if (secret.origin !== 'env') io.err(`warning: ${secret.warning}`);
  const signer = new DkimSigner({ keys, secretKey: secret.key });
  // Refuse before reading: an unverified domain should not wait on a message.
  await signer.prepare(request);
  const message = await streams.readInput();
  if (message.length === 0) throw new CliError('dkim sign reads the message on standard input; it was empty');
  if (message.length > MAX_MESSAGE_BYTES)
    throw new CliError(`the message is over ${MAX_MESSAGE_BYTES} bytes`);
  const result = await signer.sign(message, request);
  io.err(`signed for d=${result.domain} s=${result.selector}`);
  streams.writeOutput(result.message);
}

async function status(keys: DkimKeyStore, flags: Record<string, string | boolean | undefined>, io: CliIo) {
  const request = domainFlags(flags, 'status');
  const signer = new DkimSigner({ keys, secretKey: Buffer.alloc(32) });
  const domain = await signer.findDomain(request);
  let active: string | undefined;
  try {
    active = activeSelector(domain).token;
  } catch {}
  const rows = domain.selectors.map((s) => ({
    selector: s.token,
    record: s.status,
    cname: inCustomerDns(s)
      ? 'published'
      : s.missingSince !== null
        ? `missing since ${new Date(s.missingSince).toISOString()}`
        : 'not yet',
    key: s.key === undefined ? 'generating' : s.key.revokedAt === null ? 'published' : 'revoked',
    // rotation's role (active, next, retired) and the key's age in days
    role: s.keyState ?? '',
    age: s.key === undefined ? '' : `${Math.floor((Date.now() - s.key.createdAt) / 86_400_000)} d`,
    active: s.token === active ? 'yes' : '',
  }));
  if (flags.json) {
    io.out(JSON.stringify({ domain: domain.name, status: domain.status, selectors: rows }));
    return;
  }
  io.out(`${domain.name} (${domain.status})`);
  io.out(table(rows));
}

async function revoke(keys: DkimKeyStore, args: string[], io: CliIo): Promise<void> {
  const token = args[0]?.trim().toLowerCase();
  if (!token) throw new CliError('dkim revoke needs the selector token shown by dkim status');
  if (!(await keys.revoke(token, Date.now()))) {
    throw new DkimError('DKIM_SELECTOR_UNKNOWN', `no key has selector ${token} (see dkim status)`);
  }
  io.out(`revoked selector ${token}: its key record now publishes an empty p=`);
}
