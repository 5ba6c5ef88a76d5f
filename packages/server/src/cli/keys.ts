/**
 * `keys create | list | revoke`: API key administration, run on the server's machine
 * against the same database (`DATABASE_URL` / `DATA_DIR`) as the server.
 */
import { API_SCOPES, type ApiScope, generateApiKey, hashApiKey } from '../domain/api-key.js';
import { ApiError } from '../errors.js';
import { ApiKeyService } from '../service/api-key-service.js';
import type { Store } from '../store/store.js';
import { CliError, type CliIo } from './io.js';

export async function keysCommand(
  store: Store,
  args: string[],
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<void> {
  const [sub] = args;
  switch (sub) {
    case 'create':
      return createKey(store, flags, io);
    case 'list':
      return listKeys(store, flags, io);
    case 'revoke':
      return revokeKey(store, args.slice(1), io);
    default:
      throw new CliError(
        `unknown keys command "${sub ?? ''}"; use keys create --name N | keys list | keys revoke <id|prefix>`,
      );
  }
}

async function createKey(
  store: Store,
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<void> {
  const name = typeof flags.name === 'string' ? flags.name.trim() : '';
  if (name.length === 0 || name.length > 200)
    throw new CliError('keys create needs --name <name> (1–200 characters)');
  const scopes = parseScopes(flags.scope);
  const accountId = typeof flags.account === 'string' ? await accountOf(store, flags.account) : undefined;
  if (flags.domains !== undefined) return createLimitedKey(store, name, accountId, flags, io);
  const generated = generateApiKey();
  const key = await store.createApiKey({
    name,
    keyHash: generated.hash,
    keyPrefix: generated.prefix,
    scopes,
    ...(accountId !== undefined && { accountId }),
  });
  if (flags.json) {
    io.out(
      JSON.stringify({
        id: key.id,
        accountId: key.accountId,
        name: key.name,
        scopes: key.scopes,
        key: generated.secret,
      }),
    );
    return;
  }
  io.err(
    `created key ${key.id} "${key.name}" for account ${key.accountId} (scopes: ${key.scopes.join(',')})`,
  );
  io.err('store it now: it is shown only once');
  io.out(generated.secret);
}

/**
 * `--account`: an account id (`acc_…`), or one of the account's keys (`sk_…`, e.g. `"$KEY"`), so
 * the quick start's playground key joins the same account without copying its id by hand.
 */
async function accountOf(store: Store, value: string): Promise<string> {
  if (value.startsWith('sk_')) {
    const key = await store.findApiKeyByHash(hashApiKey(value));
    if (key === undefined || key.revokedAt !== null) {
      throw new CliError(
        '--account: that API key is unknown or revoked; give a live key or an account id (acc_…)',
      );
    }
    return key.accountId;
  }
  if ((await store.findAccount(value)) === undefined) {
    throw new CliError(`no account ${value}; omit --account to create a new one`);
  }
  return value;
}

/**
 * `--domains a,b`: a sending key limited to those domains of an existing account, made as
 * `POST /api/public/keys` makes it (the same checks: each domain the account's).
 */
async function createLimitedKey(
  store: Store,
  name: string,
  accountId: string | undefined,
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<void> {
  if (accountId === undefined)
    throw new CliError('--domains limits a key to domains of an account: give --account too');
  const domains = String(flags.domains)
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (domains.length === 0) throw new CliError('--domains needs one or more domain names, comma-separated');
  let created: Awaited<ReturnType<ApiKeyService['create']>>;
  try {
    created = await new ApiKeyService(store).create(accountId, {
      name,
      domains,
      ...(flags.scope !== undefined && { scopes: parseScopes(flags.scope) }),
    });
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(error.message);
    throw error;
  }
  if (flags.json) {
    const { id, scopes, key } = created;
    io.out(JSON.stringify({ id, accountId, name: created.name, scopes, domains: created.domains, key }));
    return;
  }
  io.err(
    `created key ${created.id} "${created.name}" for account ${accountId}, sending from ${created.domains?.join(', ')} only`,
  );
  io.err('store it now: it is shown only once');
  io.out(created.key);
}

function parseScopes(flag: string | boolean | undefined): ApiScope[] {
  if (flag === undefined || flag === true) return ['*'];
  const scopes = String(flag)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(API_SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new CliError(
      `unknown scope ${unknown.join(', ') || '(none)'}; scopes are ${API_SCOPES.join(', ')}`,
    );
  }
  return scopes as ApiScope[];
}

async function listKeys(
  store: Store,
  flags: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<void> {
  const keys = await store.listApiKeys();
  const rows = keys.map((k) => ({
    id: k.id,
    prefix: k.keyPrefix,
    name: k.name,
    account: k.accountId,
    scopes: k.scopes.join(','),
    created: new Date(k.createdAt).toISOString(),
    revoked: k.revokedAt === null ? '' : new Date(k.revokedAt).toISOString(),
  }));
  if (flags.json) {
    io.out(JSON.stringify(rows));
    return;
  }
  if (rows.length === 0) {
    io.out('no keys yet; create one with: npm run --silent cli -- keys create --name <name>');
    return;
  }
  io.out(table(rows));
}

async function revokeKey(store: Store, args: string[], io: CliIo): Promise<void> {
  const target = args[0];
  if (!target) throw new CliError('keys revoke needs the key id or prefix shown by keys list');
  const key = await store.revokeApiKey(target);
  if (!key) throw new CliError(`no single key matches "${target}"; see keys list`);
  io.out(`revoked ${key.id} (${key.keyPrefix}…) "${key.name}"`);
}

/** A plain text table, columns padded to their widest cell. */
export function table(rows: Record<string, string>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.toUpperCase())),
    ...rows.map((r) => line(columns.map((c) => r[c] ?? ''))),
  ].join('\n');
}
